//! The Sandbox's chains that run as Node.js scripts in `chains/` (Solana's LiteSVM, the Tron stand-in): started with
//! `node` (or [`NODE_ENV`]), each prints `LISTENING <port>` once it answers and ends when its standard input closes,
//! which happens when the process holding it ends however it ends.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

/// The environment variable naming the Node.js binary that runs the chains' scripts (else `node` on the `PATH`).
pub const NODE_ENV: &str = "GATEWAY_NODE";

/// A started script: its loopback URL, the write end of its standard input, the process.
pub(crate) struct Started {
    pub url: String,
    pub lifeline: Option<tokio::process::ChildStdin>,
    pub child: tokio::process::Child,
}

/// `chains/<name>` of this source tree.
pub fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../chains")
        .join(name)
}

/// Starts `chains/<name>` with `args` and waits (at most a minute) until it says which port it listens on.
pub(crate) async fn start(name: &str, args: &[String]) -> Result<Started, String> {
    let node = std::env::var_os(NODE_ENV).unwrap_or_else(|| "node".into());
    let mut child = tokio::process::Command::new(&node)
        .arg(script(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{}: {e}", node.to_string_lossy()))?;
    let lifeline = child.stdin.take();
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| "no standard output".to_owned())?;
    let mut lines = BufReader::new(stdout).lines();
    let port = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.ok().flatten() {
            if let Some(port) = line.strip_prefix("LISTENING ") {
                return port.trim().parse::<u16>().ok();
            }
        }
        None
    })
    .await
    .ok()
    .flatten()
    .ok_or_else(|| "it never said it was listening".to_owned())?;
    // Keep reading its standard output so that it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok(Started {
        url: format!("http://127.0.0.1:{port}"),
        lifeline,
        child,
    })
}
