//! The Bitcoin network's current fast fee rate, against which an onramp PSBT's fee rate is capped
//! ([`crate::verify::FEE_RATE_HEADROOM`] times it) on networks other than the Sandbox.
//!
//! The gateway cannot be asked: it builds the PSBT, so its own figure (an offramp quote's `fastestFeeRate`) is what is
//! being checked. The source is a mempool.space-style `GET …/api/v1/fees/recommended` answering
//! `{"fastestFee": N, …}` in sat/vB, by default mempool.space's for the network's Bitcoin network (none on regtest),
//! replaceable per network in the settings file (`feeSource`). It is read only when an onramp PSBT is verified, once,
//! with a 5-second timeout and a 64 KiB cap. When it cannot be read the fixed ceiling
//! ([`crate::verify::DEFAULT_MAX_FEE_RATE_SAT_VB`]) applies and the log says so.

use std::time::Duration;

use gateway_client::address::BitcoinNetwork;
use gateway_client::capped::CappedError;
use gateway_client::wire::CreateOrderResponse;
use tracing::{info, warn};

use crate::verify::{GatewayContracts, VerifyPolicy};

/// mempool.space's recommended fees on Bitcoin mainnet.
pub const MEMPOOL_MAINNET: &str = "https://mempool.space/api/v1/fees/recommended";
/// On testnet4.
pub const MEMPOOL_TESTNET: &str = "https://mempool.space/testnet4/api/v1/fees/recommended";
/// On signet.
pub const MEMPOOL_SIGNET: &str = "https://mempool.space/signet/api/v1/fees/recommended";

/// The lowest ceiling a fee source can set, in sat/vB: a quiet mempool's 1 sat/vB must not refuse a PSBT built a
/// moment before at 2.
pub const MIN_CEILING_SAT_VB: u64 = 10;
/// The highest fast rate believed, in sat/vB: above it the source is wrong (or hostile) and the fixed ceiling applies.
pub const MAX_BELIEVED_RATE_SAT_VB: u64 = 10_000;

const TIMEOUT: Duration = Duration::from_secs(5);
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// The default fee source of a Bitcoin network.
pub fn default_source(network: BitcoinNetwork) -> Option<&'static str> {
    match network {
        BitcoinNetwork::Mainnet => Some(MEMPOOL_MAINNET),
        BitcoinNetwork::Testnet => Some(MEMPOOL_TESTNET),
        BitcoinNetwork::Signet => Some(MEMPOOL_SIGNET),
        BitcoinNetwork::Regtest => None,
    }
}

/// Reads the fast rate (`fastestFee`, sat/vB, rounded up) from `url`; a sentence when it cannot.
pub async fn fastest_fee(url: &str) -> Result<u64, String> {
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("the fee source cannot be used ({e})"))?;
    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| format!("the fee source {url} cannot be reached ({e})"))?;
    if !response.status().is_success() {
        return Err(format!(
            "the fee source {url} answered {}",
            response.status()
        ));
    }
    let body = gateway_client::capped::read_capped(response, MAX_ANSWER_BYTES)
        .await
        .map_err(|e| match e {
            CappedError::TooLarge => format!("the fee source {url} answered more than 64 KiB"),
            CappedError::Transport(e) => format!("the fee source {url} broke off ({e})"),
        })?;
    let value: serde_json::Value = serde_json::from_slice(&body)
        .map_err(|_| format!("the fee source {url} did not answer JSON"))?;
    let rate = value
        .get("fastestFee")
        .and_then(whole_rate)
        .filter(|rate| *rate > 0)
        .ok_or_else(|| format!("the fee source {url} gave no fastestFee"))?;
    if rate > MAX_BELIEVED_RATE_SAT_VB {
        return Err(format!(
            "the fee source {url} says {rate} sat/vB, which is not believable"
        ));
    }
    Ok(rate)
}

/// A JSON number of sat/vB as a whole number, rounded up (`12.1` is 13), read from its text: no floating point.
fn whole_rate(value: &serde_json::Value) -> Option<u64> {
    let serde_json::Value::Number(number) = value else {
        return None;
    };
    if let Some(whole) = number.as_u64() {
        return Some(whole);
    }
    let text = number.to_string();
    let (whole, fraction) = text.split_once('.')?;
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None; // an exponent or a sign
    }
    let whole: u64 = whole.parse().ok()?;
    Some(if fraction.bytes().any(|b| b != b'0') {
        whole.saturating_add(1)
    } else {
        whole
    })
}

/// The PSBT fee-rate ceiling from a fast rate: [`crate::verify::FEE_RATE_HEADROOM`] times it, at least
/// [`MIN_CEILING_SAT_VB`].
pub fn ceiling_from(fast_rate: u64) -> u64 {
    fast_rate
        .saturating_mul(crate::verify::FEE_RATE_HEADROOM)
        .max(MIN_CEILING_SAT_VB)
}

/// The policy to verify `answer` under: off the Sandbox, an onramp PSBT's fee-rate ceiling follows the network's
/// current fast rate read from `fee_source` when it answers, and stays the policy's fixed one (with a log line) when
/// it does not. The window's flow and the `gateway` command line both verify through this.
pub async fn policy_for(
    mut policy: VerifyPolicy,
    answer: &CreateOrderResponse,
    fee_source: Option<&str>,
) -> VerifyPolicy {
    let has_psbt = matches!(answer, CreateOrderResponse::Onramp(o) if o.psbt_hex.is_some());
    if !has_psbt
        || matches!(
            policy.contracts,
            GatewayContracts::Sandbox | GatewayContracts::SandboxProductionShape
        )
    {
        return policy;
    }
    let Some(url) = fee_source else {
        return policy;
    };
    match fastest_fee(url).await {
        Ok(rate) => {
            policy.max_fee_rate_sat_vb = ceiling_from(rate);
            info!(
                fast_rate = rate,
                ceiling = policy.max_fee_rate_sat_vb,
                "fee-rate ceiling from the fee source"
            );
        }
        Err(reason) => warn!(
            %reason,
            ceiling = policy.max_fee_rate_sat_vb,
            "the fee source could not be read; the fixed fee-rate ceiling applies"
        ),
    }
    policy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bitcoin_network_has_its_source_and_regtest_none() {
        assert_eq!(
            default_source(BitcoinNetwork::Mainnet),
            Some(MEMPOOL_MAINNET)
        );
        assert_eq!(default_source(BitcoinNetwork::Regtest), None);
        assert_eq!(ceiling_from(1), MIN_CEILING_SAT_VB);
        assert_eq!(ceiling_from(20), 60);
        assert_eq!(ceiling_from(u64::MAX), u64::MAX);
    }

    #[test]
    fn rates_are_read_as_whole_numbers_rounded_up() {
        let read = |text: &str| whole_rate(&serde_json::from_str(text).unwrap());
        assert_eq!(read("12"), Some(12));
        assert_eq!(read("12.1"), Some(13));
        assert_eq!(read("12.0"), Some(12));
        assert_eq!(read("-3.5"), None);
        assert_eq!(read("1e3"), Some(1000));
        assert_eq!(read("\"12\""), None);
    }
}
