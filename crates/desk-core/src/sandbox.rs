//! The port through which desk-core gets a local gateway: the Sandbox network, with its local chains.
//!
//! desk-core does not compile a gateway. Whoever opens a [`crate::Desk`] hands it a [`LocalGateway`] in
//! [`crate::DeskOptions::sandbox`]: the app and the tests hand it the embedded gateway-sim with its local nodes (the
//! `desk-sandbox` crate); a build without one leaves it out, and choosing the Sandbox then says so instead of starting
//! anything.

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use gateway_client::ApiKey;
use url::Url;

/// Why the local gateway or one of its chains could not be started: a sentence for a person, saying what failed and
/// what to do (the window shows it as an error of kind `sandbox`, converted in `crate::desk`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SandboxError(pub String);

/// A future the port's methods return (boxed, so the traits can be used as `dyn`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How to start the local gateway.
#[derive(Debug, Clone, Default)]
pub struct SandboxStart {
    /// Where it keeps its orders between runs; an unreadable file is set aside, never overwritten.
    pub state_file: Option<PathBuf>,
    /// Serve its admin interface (clock, liquidity, faults) to loopback callers, for tests.
    pub admin: bool,
    /// The API key stored for the Sandbox, which it then accepts (so a partner can try their key's flow).
    pub api_key: Option<ApiKey>,
    /// Its EVM and Tron orders take the real service's shape (gateway-sim's `production_shape`): each chain's
    /// published entry contract, an AllowanceHolder placed at its real address, and its `exec`.
    pub production_shape: bool,
}

/// A way to start a local gateway on a free loopback port.
pub trait LocalGateway: Send + Sync + fmt::Debug {
    /// Starts one; a failure says what to do.
    fn start(
        &self,
        how: SandboxStart,
    ) -> BoxFuture<'_, Result<Box<dyn RunningGateway>, SandboxError>>;
}

/// A local gateway that is running; dropping it stops it.
pub trait RunningGateway: Send + Sync + fmt::Debug {
    /// Its base URL (`http://127.0.0.1:<port>`).
    fn base_url(&self) -> Url;
    /// Its local chains, which it checks registered transactions on.
    fn chains(&self) -> Arc<dyn LocalChains>;
    /// Its clock, and what the orders under way need to end.
    fn clock(&self) -> BoxFuture<'static, Result<LocalClock, SandboxError>>;
    /// Moves its clock on by `secs` seconds (kept across restarts; never back): orders reach their endings, and what
    /// the finished ones pay out arrives on its local chains. Says what happened.
    fn advance_clock(&self, secs: u64) -> BoxFuture<'static, Result<ClockMoved, SandboxError>>;
    /// Stops it and waits until it has.
    fn stop(self: Box<Self>) -> BoxFuture<'static, ()>;
}

/// A local gateway's clock, and its orders under way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LocalClock {
    /// Its time, unix seconds.
    pub now: u64,
    /// How far it has been moved on in all, seconds.
    pub advanced_secs: u64,
    /// Orders paid (their transaction registered) that have not reached their ending.
    pub pending: u64,
    /// How far the clock must move for every one of them to end, seconds (0 when none is pending): the latest end
    /// among them, as the gateway computes it.
    pub finish_in_secs: u64,
    /// Orders still waiting for their payment; moving the clock past their window expires them.
    pub awaiting_payment: u64,
    /// Outputs and refunds of finished orders owed on a local chain whose node has not started yet (delivered when
    /// it starts).
    pub undelivered: u64,
}

/// What moving a local gateway's clock did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClockMoved {
    /// How far it moved, seconds.
    pub moved_secs: u64,
    /// Paid orders that reached their ending on the way (success, failed or refunded).
    pub finished: u64,
    /// Unpaid orders whose window passed on the way.
    pub expired: u64,
    /// Outputs and refunds that arrived on a local chain (a Bitcoin payout in its ledger) right after.
    pub delivered: u64,
    /// The clock afterwards.
    pub after: LocalClock,
}

/// The local chains behind a local gateway: a node per chain, started when first used.
pub trait LocalChains: Send + Sync + fmt::Debug {
    /// The JSON-RPC URL of `chain`'s node (an EVM chain, `solana` or `tron`; for Tron its HTTP API), started on first
    /// use; with `owner`, that address funded on it once with test coins and the catalogue's tokens.
    fn url_for<'a>(
        &'a self,
        chain: &'a str,
        owner: Option<&'a str>,
    ) -> BoxFuture<'a, Result<String, SandboxError>>;

    /// Makes ready what the local gateway needs of `source_chain` before an order from it is created (the
    /// Sandbox's gateway builds some transactions on a chain's latest state and checks registered ones on the chain,
    /// so those chains run first); nothing for a chain that needs nothing.
    fn ready_before_order<'a>(
        &'a self,
        source_chain: &'a str,
    ) -> BoxFuture<'a, Result<(), SandboxError>>;
}

/// How desk-core reaches the Sandbox: the port, when this build has one, and whether its admin interface is served.
#[derive(Clone, Default)]
pub struct SandboxAccess {
    /// The local gateway this build can start; `None`: choosing the Sandbox is refused with the reason.
    pub gateway: Option<Arc<dyn LocalGateway>>,
    /// Serve the admin interface (tests only).
    pub admin: bool,
}

impl fmt::Debug for SandboxAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SandboxAccess")
            .field("gateway", &self.gateway.is_some())
            .field("admin", &self.admin)
            .finish()
    }
}

impl SandboxAccess {
    /// Starts the local gateway, or says that this build has none.
    pub async fn start(&self, how: SandboxStart) -> Result<Box<dyn RunningGateway>, SandboxError> {
        match &self.gateway {
            Some(gateway) => gateway.start(how).await,
            None => Err(SandboxError(
                "This build has no embedded Sandbox. Choose another network, or run the Sandbox gateway \
                 (gateway-sim) and use its address as a custom URL."
                    .to_owned(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn without_a_local_gateway_the_sandbox_is_refused_with_the_way_out() {
        let err = SandboxAccess::default()
            .start(SandboxStart::default())
            .await
            .unwrap_err();
        let err = crate::error::DeskError::from(err);
        assert_eq!(err.kind, crate::error::ErrorKind::Sandbox);
        assert!(
            err.message.contains("Choose another network"),
            "{}",
            err.message
        );
    }
}
