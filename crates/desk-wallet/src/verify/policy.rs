//! How strictly a network's answers are checked: which contracts calls must go to, blind signing, the fee-rate
//! ceiling.

use gateway_client::address::BitcoinNetwork;

use super::{DEFAULT_MAX_FEE_RATE_SAT_VB, FEE_RATE_HEADROOM};

/// Which gateway contracts and programs the network's calls must go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayContracts {
    /// The Sandbox's contract on every chain (`gateway_payload::sandbox::gateway_contract`): pinned.
    Sandbox,
    /// The real service's published entry contract of each chain (`gateway_client::chains`, `approval_spender`: the
    /// AllowanceHolder the gateway's SDK pins), the same on Production, Staging and a custom URL: an EVM or Tron call
    /// must go to its chain's, and a chain without one is refused. Solana has none published (not pinned).
    Published,
    /// The Sandbox in the real service's shape (its `production shape` setting): EVM and Tron calls pinned to each
    /// chain's published entry contract, as [`GatewayContracts::Published`]; Solana's to the Sandbox's program, as
    /// [`GatewayContracts::Sandbox`].
    SandboxProductionShape,
    /// Not known to the app: the quote's `txTo` is followed (tests of the decoding alone).
    Unknown,
}

/// How strictly a network's answers are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifyPolicy {
    /// The Bitcoin network of the deployment (addresses of other networks are refused).
    pub bitcoin: BitcoinNetwork,
    /// The contracts calls must go to.
    pub contracts: GatewayContracts,
    /// Calls the app cannot decode are let through, shown as not checked, instead of refused (Settings, per network;
    /// off by default, as on hardware wallets).
    pub blind_signing: bool,
    /// The highest fee rate an onramp PSBT may pay, in sat/vB.
    pub max_fee_rate_sat_vb: u64,
    /// What is signed is run on the chain before the signature ([`crate::simulate`]): the app's own wallet signs it.
    /// False where the call is handed to another wallet unrun (`gateway create-order`): then a call whose inner part
    /// is not decoded (AllowanceHolder's `exec`, a Solana gateway instruction of no public layout) needs blind
    /// signing, since nothing would check what it moves.
    pub simulated: bool,
}

/// The Sandbox's own fast fee rate in sat/vB (`gateway_sim`'s): what its PSBTs pay.
pub const SANDBOX_FEE_RATE_SAT_VB: u64 = gateway_payload::bitcoin::FEE_RATE_SAT_PER_VB;

impl VerifyPolicy {
    /// The strict policy of the real service (Production, Staging, a custom URL): each chain's published entry
    /// contract pinned ([`GatewayContracts::Published`]), calls must decode, fees are capped at
    /// [`DEFAULT_MAX_FEE_RATE_SAT_VB`].
    pub fn strict(bitcoin: BitcoinNetwork) -> Self {
        Self {
            bitcoin,
            contracts: GatewayContracts::Published,
            blind_signing: false,
            max_fee_rate_sat_vb: DEFAULT_MAX_FEE_RATE_SAT_VB,
            simulated: true,
        }
    }

    /// The Sandbox's policy in the real service's shape ([`GatewayContracts::SandboxProductionShape`]), its own fee
    /// rate as [`VerifyPolicy::sandbox`].
    pub fn sandbox_production_shape(bitcoin: BitcoinNetwork) -> Self {
        Self {
            contracts: GatewayContracts::SandboxProductionShape,
            ..Self::sandbox(bitcoin)
        }
    }

    /// The Sandbox's policy: its contracts pinned, its own fast fee rate (`gateway_sim`'s) with
    /// [`FEE_RATE_HEADROOM`].
    pub fn sandbox(bitcoin: BitcoinNetwork) -> Self {
        Self {
            bitcoin,
            contracts: GatewayContracts::Sandbox,
            blind_signing: false,
            max_fee_rate_sat_vb: SANDBOX_FEE_RATE_SAT_VB.saturating_mul(FEE_RATE_HEADROOM),
            simulated: true,
        }
    }
}
