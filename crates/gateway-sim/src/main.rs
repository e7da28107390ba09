//! `gateway-sim --listen 127.0.0.1:PORT`: the simulated gateway as a stand-alone server.

use std::net::SocketAddr;

use clap::Parser;
use gateway_sim::Sim;
use tracing_subscriber::EnvFilter;

/// A local gateway that implements the gateway interface (V1, V2, V3) for testing and the Sandbox network.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8787")]
    listen: SocketAddr,
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let args = Args::parse();
    let listener = tokio::net::TcpListener::bind(args.listen).await?;
    println!("gateway-sim listening on http://{}", listener.local_addr()?);
    Sim::new()
        .serve(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
