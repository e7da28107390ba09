//! QR codes as SVG markup: the app's one way of drawing them, for the onramp's payment request and deposit address
//! and for each frame of a PSBT's animated code ([`crate::psbt_export`]).
//!
//! A code is drawn one unit a module, with the light quiet zone readers expect around it, each row's runs of dark
//! modules as one path; the page sizes it. The markup is the `<svg>` element alone (no XML declaration), for the
//! window to put inline.

use std::fmt::Write as _;

pub use qrcode::EcLevel;
pub use qrcode::types::QrError;

use crate::error::{DeskError, ErrorKind};

/// The light modules around a code, as QR readers expect.
pub const QUIET_ZONE: usize = 4;

/// The longest text [`payment_svg`] draws: an address or a BIP 21 payment URI.
pub const MAX_PAYMENT_TEXT_CHARS: usize = 512;

/// A QR code of `text` at error-correction `level` as SVG markup: one unit a module, each row's runs of dark modules
/// as one path, to be sized by the page.
pub fn svg(text: &str, level: EcLevel) -> Result<String, QrError> {
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), level)?;
    let width = code.width();
    let colors = code.to_colors();
    let size = width + 2 * QUIET_ZONE;
    let mut svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges"><rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d=""##
    );
    for (y, row) in colors.chunks(width).enumerate() {
        let mut x = 0;
        while x < width {
            if row[x] == qrcode::Color::Light {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && row[x] == qrcode::Color::Dark {
                x += 1;
            }
            let _ = write!(
                svg,
                "M{} {}h{}v1h-{}z",
                start + QUIET_ZONE,
                y + QUIET_ZONE,
                x - start,
                x - start
            );
        }
    }
    svg.push_str(r#""/></svg>"#);
    Ok(svg)
}

/// A QR code of `text` (an address or a BIP 21 payment URI, up to [`MAX_PAYMENT_TEXT_CHARS`] characters) for the
/// window to show inline: medium error correction, since a printed or photographed screen may be smudged.
pub fn payment_svg(text: &str) -> Result<String, DeskError> {
    if text.is_empty() || text.len() > MAX_PAYMENT_TEXT_CHARS {
        return Err(DeskError::new(
            ErrorKind::InvalidInput,
            "A QR code holds an address or payment request of up to 512 characters.",
        ));
    }
    svg(text, EcLevel::M).map_err(|e| {
        DeskError::new(
            ErrorKind::InvalidInput,
            format!("No QR code can hold this ({e})."),
        )
    })
}

/// Reading a drawn code back, as the tests of what is drawn do.
#[cfg(test)]
pub(crate) mod read_back {
    /// The module grid an SVG of [`super::svg`] draws (true: dark), read back from its path.
    pub(crate) fn svg_grid(svg: &str) -> Vec<Vec<bool>> {
        let size: usize = svg
            .split("viewBox=\"0 0 ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        let mut grid = vec![vec![false; size]; size];
        let path = svg
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        for run in path.split('z').filter(|r| !r.is_empty()) {
            let (xy, rest) = run.strip_prefix('M').unwrap().split_once('h').unwrap();
            let (x, y) = xy.split_once(' ').unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            let (len, back) = rest.split_once("v1h-").unwrap();
            assert_eq!(len, back, "{run}");
            for cell in &mut grid[y][x..x + len.parse::<usize>().unwrap()] {
                *cell = true;
            }
        }
        grid
    }

    /// What a camera reads from an SVG of [`super::svg`]: drawn at 4 pixels a module, found and decoded by a QR
    /// reader.
    pub(crate) fn scan(svg: &str) -> String {
        let grid = svg_grid(svg);
        let scale = 4;
        let pixels = grid.len() * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(pixels, pixels, |x, y| {
            if grid[y / scale][x / scale] { 0 } else { 255 }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one QR code in the picture");
        grids[0].decode().unwrap().1
    }
}

#[cfg(test)]
mod tests {
    use super::read_back::{scan, svg_grid};
    use super::*;

    #[test]
    fn a_payment_request_reads_back_as_written() {
        let uri = "bitcoin:bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh?amount=0.0025";
        let markup = payment_svg(uri).unwrap();
        assert!(
            markup.starts_with("<svg ") && markup.ends_with("</svg>"),
            "{markup}"
        );
        assert!(markup.is_ascii() && !markup.contains("<script"));
        assert_eq!(scan(&markup), uri);
    }

    #[test]
    fn the_quiet_zone_is_light_on_every_side() {
        let grid =
            svg_grid(&svg("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", EcLevel::L).unwrap());
        let size = grid.len();
        for (y, row) in grid.iter().enumerate() {
            for (x, dark) in row.iter().enumerate() {
                let inside = (QUIET_ZONE..size - QUIET_ZONE).contains(&x)
                    && (QUIET_ZONE..size - QUIET_ZONE).contains(&y);
                assert!(inside || !dark, "({x}, {y}) is dark");
            }
        }
    }

    #[test]
    fn a_payment_code_of_nothing_or_too_much_is_refused() {
        for text in [String::new(), "a".repeat(MAX_PAYMENT_TEXT_CHARS + 1)] {
            let error = payment_svg(&text).unwrap_err();
            assert_eq!(error.kind, ErrorKind::InvalidInput);
            assert_eq!(
                error.message,
                "A QR code holds an address or payment request of up to 512 characters."
            );
        }
        assert!(payment_svg(&"a".repeat(MAX_PAYMENT_TEXT_CHARS)).is_ok());
    }
}
