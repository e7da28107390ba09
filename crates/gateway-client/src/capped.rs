//! An HTTP answer's body read with a bound: what another server sends is measured as it arrives, so an enormous or
//! endless answer costs at most the bound, never the memory it would take whole. The gateway's answers, the Bitcoin
//! fee source's and the chain nodes' the wallet reads all go through [`read_capped`].

/// Why a body was not read whole.
#[derive(Debug)]
pub enum CappedError {
    /// It says (its `Content-Length`) or shows (what arrived) that it is larger than the bound; the rest was not read.
    TooLarge,
    /// The connection failed while the body arrived.
    Transport(reqwest::Error),
}

/// The body of `response`, at most `max` bytes: refused before reading when its `Content-Length` is larger, and as
/// soon as what arrived would pass the bound otherwise (a chunked answer has no length to say).
pub async fn read_capped(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Vec<u8>, CappedError> {
    if response
        .content_length()
        .is_some_and(|len| len > max as u64)
    {
        return Err(CappedError::TooLarge);
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(CappedError::Transport)? {
        if bytes.len().saturating_add(chunk.len()) > max {
            return Err(CappedError::TooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}
