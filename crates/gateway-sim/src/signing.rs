//! `signedQuoteData`: an HMAC-SHA256 token over an onramp quote, so create-order can detect tampering and expiry.
//!
//! Token format: `base64url(json{"issuedAt": <unix secs>, "digest": <hex sha256 of the quote's material>,`
//! `"nonce": <16 random hex digits>, "owner"?: <V3 ownerAddress>, "refund"?: <V3 refundAddress>})` `.`
//! `hex(hmac_sha256(key, <the base64url part>))`. The material is what [`crate::integrity`] reads from the quote
//! object (the value under `onramp`): what a client generated from the published document keeps, so its round trip
//! (dropped unknown fields, reordered keys, `null` for absent) verifies, and any changed amount, token or address
//! does not. The owner and refund address, which the published onramp quote has no field for, travel inside the
//! token. The key is 32 random bytes made when the [`crate::Sim`] is created; it never leaves the process.

use std::fmt;

use gateway_client::wire::RouteKind;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// How long a signed quote stays valid for create-order, in seconds.
pub const QUOTE_TTL_SECS: u64 = 600;
/// How far in the future an `issuedAt` may be (clock skew), in seconds.
const MAX_SKEW_SECS: u64 = 60;

/// The field of the quote object that carries the token.
const FIELD: &str = "signedQuoteData";

/// Why a signed quote was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignatureError {
    /// No `signedQuoteData`, or not a token of this gateway's format.
    Malformed,
    /// The MAC does not match: not signed by this gateway, or the token was altered.
    BadMac,
    /// The token is genuine but the quote's content differs from what was signed.
    Tampered,
    /// Older than the time allowed.
    Expired {
        /// The token's `issuedAt`, unix seconds.
        issued_at: u64,
    },
    /// Issued in the future.
    NotYetValid {
        /// The token's `issuedAt`, unix seconds: further ahead of the gateway's clock than the skew allowed.
        issued_at: u64,
    },
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed => f.write_str("signedQuoteData is missing or malformed"),
            Self::BadMac => f.write_str("signedQuoteData was not signed by this gateway"),
            Self::Tampered => f.write_str("the quote differs from the one that was signed"),
            Self::Expired { issued_at } => write!(f, "the quote issued at {issued_at} has expired"),
            Self::NotYetValid { issued_at } => {
                write!(
                    f,
                    "the quote claims to be issued in the future ({issued_at})"
                )
            }
        }
    }
}

impl std::error::Error for SignatureError {}

/// What the gateway keeps with an onramp quote that the quote itself has no field for (V3 request parameters).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kept {
    /// `ownerAddress`: the EVM owner and refund claimant, also an address the order is listed under.
    pub owner: Option<String>,
    /// `refundAddress`: the Bitcoin refund address.
    pub refund: Option<String>,
}

/// A verified `signedQuoteData`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// When the quote was issued (unix seconds).
    pub issued_at: u64,
    /// The token's random nonce: two identical requests give two quotes, hence two orders.
    pub nonce: String,
    /// What was kept beside the quote.
    pub kept: Kept,
}

/// The gateway's quote-signing key.
#[derive(Clone)]
pub struct QuoteSigner {
    key: [u8; 32],
}

impl fmt::Debug for QuoteSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("QuoteSigner(<redacted>)")
    }
}

impl Default for QuoteSigner {
    fn default() -> Self {
        Self::random()
    }
}

/// Hex SHA-256 of the onramp quote object's material (`signedQuoteData` is not part of it).
fn digest(quote: &Value) -> String {
    quote
        .as_object()
        .map(|map| crate::integrity::digest(RouteKind::Onramp, map))
        .unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

impl QuoteSigner {
    /// A signer with 32 bytes from the operating system's random source.
    pub fn random() -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the operating system provides random bytes");
        Self { key }
    }

    /// A signer with a given key (tests).
    pub fn from_key(key: [u8; 32]) -> Self {
        Self { key }
    }

    /// The 32-byte secret (for deriving deposit addresses, and for the state file).
    pub(crate) fn secret(&self) -> &[u8; 32] {
        &self.key
    }

    /// An opaque, tamper-evident token carrying `payload` (get-orders cursors): `base64url(json) "." hex(mac)`.
    pub fn seal(&self, payload: &Value) -> String {
        let encoded = URL_SAFE_NO_PAD.encode(payload.to_string());
        let mut mac = self.mac();
        mac.update(b"seal:");
        mac.update(encoded.as_bytes());
        format!("{encoded}.{}", hex(&mac.finalize().into_bytes()))
    }

    /// The payload of a token made by [`Self::seal`] with this key; `None` for anything else.
    pub fn open(&self, token: &str) -> Option<Value> {
        let (encoded, tag) = token.split_once('.')?;
        let tag = unhex(tag)?;
        let mut mac = self.mac();
        mac.update(b"seal:");
        mac.update(encoded.as_bytes());
        mac.verify_slice(&tag).ok()?;
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(encoded).ok()?).ok()
    }

    fn mac(&self) -> HmacSha256 {
        HmacSha256::new_from_slice(&self.key).expect("HMAC takes any key length")
    }

    /// The token for the quote object `quote` (the value under `onramp`), issued at `issued_at` (unix seconds),
    /// carrying `kept`.
    pub fn sign(&self, quote: &Value, issued_at: u64, kept: &Kept) -> String {
        // A random nonce makes every onramp quote unique, so two identical requests give two quotes (two orders).
        let mut nonce = [0u8; 8];
        getrandom::fill(&mut nonce).expect("the operating system provides random bytes");
        let mut payload =
            json!({"issuedAt": issued_at, "digest": digest(quote), "nonce": hex(&nonce)});
        if let Some(owner) = &kept.owner {
            payload["owner"] = json!(owner);
        }
        if let Some(refund) = &kept.refund {
            payload["refund"] = json!(refund);
        }
        let encoded = URL_SAFE_NO_PAD.encode(payload.to_string());
        let mut mac = self.mac();
        mac.update(encoded.as_bytes());
        format!("{encoded}.{}", hex(&mac.finalize().into_bytes()))
    }

    /// Checks the `signedQuoteData` of the quote object `quote` (the value under `onramp`) at time `now`: signed by
    /// this key, over this material, issued at most `max_age_secs` ago. Gives the issue time, nonce and what was
    /// kept.
    pub fn verify_signed_quote(
        &self,
        quote: &Value,
        now: u64,
        max_age_secs: u64,
    ) -> Result<Signed, SignatureError> {
        let token = quote
            .get(FIELD)
            .and_then(Value::as_str)
            .ok_or(SignatureError::Malformed)?;
        let (encoded, tag) = token.split_once('.').ok_or(SignatureError::Malformed)?;
        let tag = unhex(tag).ok_or(SignatureError::Malformed)?;
        let mut mac = self.mac();
        mac.update(encoded.as_bytes());
        mac.verify_slice(&tag).map_err(|_| SignatureError::BadMac)?;
        let payload: Value = URL_SAFE_NO_PAD
            .decode(encoded)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .ok_or(SignatureError::Malformed)?;
        let issued_at = payload["issuedAt"]
            .as_u64()
            .ok_or(SignatureError::Malformed)?;
        if payload["digest"].as_str() != Some(digest(quote).as_str()) {
            return Err(SignatureError::Tampered);
        }
        if issued_at > now.saturating_add(MAX_SKEW_SECS) {
            return Err(SignatureError::NotYetValid { issued_at });
        }
        if now.saturating_sub(issued_at) > max_age_secs {
            return Err(SignatureError::Expired { issued_at });
        }
        let text = |field: &str| payload[field].as_str().map(str::to_owned);
        Ok(Signed {
            issued_at,
            nonce: text("nonce").unwrap_or_default(),
            kept: Kept {
                owner: text("owner"),
                refund: text("refund"),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(signer: &QuoteSigner, at: u64) -> Value {
        let mut quote = json!({
            "inputAmount": {"address": "0x0000000000000000000000000000000000000000", "amount": "100000", "chain": "bitcoin"},
            "outputAmount": {"address": "0xabc", "amount": "96700", "chain": "bob"},
            "slippage": "300",
        });
        let kept = Kept {
            owner: Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed".into()),
            refund: None,
        };
        let token = signer.sign(&quote, at, &kept);
        quote[FIELD] = json!(token);
        quote
    }

    #[test]
    fn a_genuine_quote_verifies_whatever_its_key_order() {
        let signer = QuoteSigner::random();
        let quote = signed(&signer, 1_000);
        let verified = signer
            .verify_signed_quote(&quote, 1_100, QUOTE_TTL_SECS)
            .unwrap();
        assert_eq!(verified.issued_at, 1_000);
        assert_eq!(
            verified.kept.owner.as_deref(),
            Some("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
        );
        // Same content, keys in another order.
        let mut reordered = serde_json::Map::new();
        for (k, v) in quote.as_object().unwrap().iter().rev() {
            reordered.insert(k.clone(), v.clone());
        }
        assert_eq!(
            signer
                .verify_signed_quote(&Value::Object(reordered), 1_100, QUOTE_TTL_SECS)
                .map(|s| s.issued_at),
            Ok(1_000)
        );
    }

    #[test]
    fn tampering_another_key_expiry_and_garbage_are_refused() {
        let signer = QuoteSigner::random();
        let quote = signed(&signer, 1_000);

        let mut tampered = quote.clone();
        tampered["outputAmount"]["amount"] = json!("96701");
        assert_eq!(
            signer.verify_signed_quote(&tampered, 1_100, QUOTE_TTL_SECS),
            Err(SignatureError::Tampered)
        );

        let other = QuoteSigner::from_key([7; 32]);
        assert_eq!(
            other.verify_signed_quote(&quote, 1_100, QUOTE_TTL_SECS),
            Err(SignatureError::BadMac)
        );

        // A re-dated payload without a new MAC.
        let token = quote[FIELD].as_str().unwrap();
        let (_, tag) = token.split_once('.').unwrap();
        let forged_payload = URL_SAFE_NO_PAD
            .encode(json!({"issuedAt": 1_100, "digest": digest(&quote)}).to_string());
        let mut forged = quote.clone();
        forged[FIELD] = json!(format!("{forged_payload}.{tag}"));
        assert_eq!(
            signer.verify_signed_quote(&forged, 1_100, QUOTE_TTL_SECS),
            Err(SignatureError::BadMac)
        );

        assert_eq!(
            signer.verify_signed_quote(&quote, 1_000 + QUOTE_TTL_SECS + 1, QUOTE_TTL_SECS),
            Err(SignatureError::Expired { issued_at: 1_000 })
        );
        assert_eq!(
            signer.verify_signed_quote(&quote, 900, QUOTE_TTL_SECS),
            Err(SignatureError::NotYetValid { issued_at: 1_000 })
        );
        let mut garbage = quote.clone();
        garbage[FIELD] = json!("not-a-token");
        assert_eq!(
            signer.verify_signed_quote(&garbage, 1_100, QUOTE_TTL_SECS),
            Err(SignatureError::Malformed)
        );
        let mut missing = quote;
        missing.as_object_mut().unwrap().remove(FIELD);
        assert_eq!(
            signer.verify_signed_quote(&missing, 1_100, QUOTE_TTL_SECS),
            Err(SignatureError::Malformed)
        );
    }
}
