//! Base58 decoding that measures the text before it decodes it.
//!
//! Decoding Base58 takes time quadratic in the text's length: each character multiplies the whole number read so far
//! by 58. A gateway's answer may be megabytes long, and a 100,000-character "address" takes seconds to decode. Every
//! Base58 value the app reads has a largest size (a Tron address 21 bytes, a Solana key 32, a signature 64), so the
//! text is refused unread when it is longer than that size can be written in. Nothing here decodes an unmeasured text.

/// Why a Base58 text was not decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Base58Error {
    /// Longer than its value can be written in; it was not decoded at all.
    #[error("it has {chars} characters, more than the {most} this value can have")]
    TooLong {
        /// The text's length in bytes (Base58 is ASCII, so characters when it is Base58 at all).
        chars: usize,
        /// The most characters the value can take.
        most: usize,
    },
    /// A character outside Base58's alphabet (`0`, `O`, `I`, `l`, or anything not a letter or digit).
    #[error("it is not Base58")]
    NotBase58,
    /// Base58Check whose last four bytes do not match its payload's double SHA-256.
    #[error("its checksum does not match")]
    Checksum,
}

/// The most Base58 characters `bytes` bytes take: ⌈bytes · log 256 / log 58⌉, that is 1.3658 characters a byte (a
/// leading zero byte takes one character, `1`, which is fewer).
pub const fn max_chars(bytes: usize) -> usize {
    // log 256 / log 58 = 1.36565…; 13657 / 10000 rounds it up.
    (bytes.saturating_mul(13_657)).div_ceil(10_000)
}

/// Base58Check appends four checksum bytes to its payload.
const CHECKSUM_BYTES: usize = 4;

/// Decodes `text`, a value of at most `max_bytes` bytes; a longer text is refused before decoding.
pub fn decode(text: &str, max_bytes: usize) -> Result<Vec<u8>, Base58Error> {
    measure(text, max_bytes)?;
    bs58::decode(text)
        .into_vec()
        .map_err(|_| Base58Error::NotBase58)
}

/// Decodes Base58Check `text` (a payload of at most `max_payload_bytes` bytes, then its checksum) and returns the
/// payload; a longer text is refused before decoding.
pub fn decode_check(text: &str, max_payload_bytes: usize) -> Result<Vec<u8>, Base58Error> {
    measure(text, max_payload_bytes.saturating_add(CHECKSUM_BYTES))?;
    bs58::decode(text)
        .with_check(None)
        .into_vec()
        .map_err(|err| match err {
            bs58::decode::Error::InvalidChecksum { .. } => Base58Error::Checksum,
            _ => Base58Error::NotBase58,
        })
}

fn measure(text: &str, max_bytes: usize) -> Result<(), Base58Error> {
    let most = max_chars(max_bytes);
    if text.len() > most {
        return Err(Base58Error::TooLong {
            chars: text.len(),
            most,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_the_longest_text_of_each_size() {
        assert_eq!(max_chars(0), 0);
        assert_eq!(max_chars(21 + CHECKSUM_BYTES), 35);
        assert_eq!(max_chars(32), 44);
        assert_eq!(max_chars(64), 88);
        // The largest value of each size, all 0xff bytes, is exactly as long as the bound allows, or shorter.
        for size in 1..=96 {
            let longest = bs58::encode(vec![0xffu8; size]).into_string();
            assert!(longest.len() <= max_chars(size), "{size} bytes: {longest}");
            assert!(
                longest.len() + 1 >= max_chars(size),
                "the bound is tight: {size}"
            );
            assert_eq!(decode(&longest, size).unwrap(), vec![0xffu8; size]);
        }
    }

    #[test]
    fn a_text_too_long_for_its_value_is_refused_unread() {
        // 100,000 characters of valid Base58: decoding it would take seconds; measuring it takes nothing. The error
        // says the text was measured, not decoded: TooLong is returned before the decoder is called.
        let huge = "T".repeat(100_000);
        assert_eq!(
            decode(&huge, 32),
            Err(Base58Error::TooLong {
                chars: 100_000,
                most: 44
            })
        );
        assert_eq!(
            decode_check(&huge, 21),
            Err(Base58Error::TooLong {
                chars: 100_000,
                most: 35
            })
        );
        // One character over the bound is enough.
        let key = bs58::encode([7u8; 32]).into_string();
        assert!(decode(&key, 32).is_ok());
        assert!(matches!(
            decode(&format!("{key}{}", "1".repeat(45 - key.len())), 32),
            Err(Base58Error::TooLong { chars: 45, .. })
        ));
    }

    #[test]
    fn not_base58_and_a_bad_checksum_are_told_apart() {
        assert_eq!(decode("0OIl", 32), Err(Base58Error::NotBase58));
        let tron = bs58::encode([0x41u8; 21]).with_check().into_string();
        assert_eq!(decode_check(&tron, 21).unwrap(), vec![0x41u8; 21]);
        let mut broken = tron.into_bytes();
        let last = broken.len() - 1;
        broken[last] = if broken[last] == b'2' { b'3' } else { b'2' };
        assert_eq!(
            decode_check(std::str::from_utf8(&broken).unwrap(), 21),
            Err(Base58Error::Checksum)
        );
    }
}
