//! The one way the app shortens a long id, hash or address where a whole one would not fit or must not be written:
//! in notifications, in log lines, in what support bundles redact, in an order's outcome sentences. The window shows
//! ids the same way (`shortId` in `ui/src/lib/ids.ts`, checked against examples this function writes into
//! `ui/src/lib/bindings/facts.ts`).

/// Ids of this many characters or fewer are written whole.
const WHOLE_UP_TO: usize = 12;
/// Characters kept at each end.
const KEPT: usize = 4;

/// `id` with its middle left out: its first and last four characters around an ellipsis (`1234…cdef`), after a
/// `0x` or `0X`, which stays (`0x5aAe…eAed`); ids of twelve characters or fewer (after the prefix) are whole.
pub fn short_id(id: &str) -> String {
    let (prefix, rest) = match id.get(..2) {
        Some(p @ ("0x" | "0X")) => (p, &id[2..]),
        _ => ("", id),
    };
    let chars: Vec<char> = rest.chars().collect();
    if chars.len() <= WHOLE_UP_TO {
        return id.to_owned();
    }
    let head: String = chars[..KEPT].iter().collect();
    let tail: String = chars[chars.len() - KEPT..].iter().collect();
    format!("{prefix}{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_ids_lose_their_middle_and_short_ones_stay_whole() {
        assert_eq!(short_id("abc"), "abc");
        assert_eq!(short_id("0x1234567890ab"), "0x1234567890ab");
        assert_eq!(short_id("0x1234567890abcdef"), "0x1234…cdef");
        assert_eq!(
            short_id("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
            "0x5aAe…eAed"
        );
        assert_eq!(short_id("1234567890abcdef"), "1234…cdef");
        assert_eq!(short_id("ééééé-ééééé-ééééé"), "éééé…éééé");
    }
}
