//! An onramp's unsigned PSBT in every form a wallet of the person's own takes: base64 (BIP 174's text form), hex, and
//! an animated QR code in the BC-UR format that hardware wallets and Sparrow scan.
//!
//! The QR code carries the UR type `crypto-psbt` (BCR-2020-006): the PSBT's bytes as one CBOR byte string, written in
//! bytewords and, when it does not fit one code, cut into fountain-coded parts `ur:crypto-psbt/<seq>-<count>/…`
//! (BCR-2020-005, the `ur` crate's encoder). Each frame is drawn as SVG from its upper-case form, which QR codes hold
//! in their compact alphanumeric mode.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;
use ts_rs::TS;

use crate::qr::EcLevel;

/// The UR type of a PSBT (BCR-2020-006).
pub const UR_TYPE: &str = "crypto-psbt";

/// The PSBT bytes one QR code carries: a PSBT whose CBOR form is at most this long is one code (about 430
/// characters), a longer one is cut into fragments of at most this size.
pub const FRAGMENT_BYTES: usize = 200;

/// At most this many fragments: a longer PSBT is cut into larger fragments rather than into more of them, so that
/// the animation's loop stays short.
pub const MAX_FRAGMENTS: usize = 50;

/// The largest fragment; a PSBT that would need more than [`MAX_FRAGMENTS`] of them (about 20 kB) has no QR code:
/// its file and its text still serve.
pub const MAX_FRAGMENT_BYTES: usize = 400;

/// The longest frame: `ur:crypto-psbt/`, the part's `<seq>-<count>/`, and in bytewords (two letters a byte) the
/// fountain part's CBOR (the fragment with at most 24 bytes of header) and its 4-byte checksum.
pub const MAX_FRAME_CHARS: usize =
    "ur:crypto-psbt/".len() + "100-100/".len() + 2 * (MAX_FRAGMENT_BYTES + 24 + 4);

/// An unsigned PSBT to copy, save or scan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "PsbtExport.ts")]
pub struct PsbtExport {
    /// BIP 174's text form, what most wallets take.
    pub base64: String,
    /// The same bytes in lower-case hexadecimal.
    pub hex: String,
    /// The animated QR code's frames as text (`ur:crypto-psbt/…`, lower case): one single-part UR for a small PSBT;
    /// otherwise the `urFragments` pure parts, then mixed fountain parts, shown in a loop. Empty when the PSBT is too
    /// large for QR codes (`qrUnavailable` says so).
    pub ur_frames: Vec<String>,
    /// Each frame's QR code as SVG markup (of its upper-case form), in the same order.
    pub qr_svgs: Vec<String>,
    /// How many fragments the PSBT is cut into (1: a single-part UR; 0: no QR code).
    pub ur_fragments: u32,
    /// Why there is no animated QR code, as a sentence, when `urFrames` is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub qr_unavailable: Option<String>,
}

/// Why a PSBT has no forms to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The bytes do not start with BIP 174's magic (`psbt` and 0xff): the gateway's PSBT is not one.
    #[error("the PSBT does not start as a PSBT does (BIP 174)")]
    NotAPsbt,
    /// A frame of the animated QR code could not be drawn; the reason, in words.
    #[error("{0}")]
    Qr(String),
}

/// Every form of `psbt` (the bytes of a `.psbt` file); refused when they are not a PSBT.
pub fn forms(psbt: &[u8]) -> Result<PsbtExport, ExportError> {
    if !psbt.starts_with(b"psbt\xff") {
        return Err(ExportError::NotAPsbt);
    }
    let hex = alloy_primitives::hex::encode(psbt);
    let base64 = STANDARD.encode(psbt);
    let (ur_frames, ur_fragments, qr_unavailable) = match ur_frames(psbt) {
        Ok((frames, fragments)) => (frames, fragments, None),
        Err(reason) => (Vec::new(), 0, Some(reason)),
    };
    let qr_svgs = ur_frames
        .iter()
        .map(|frame| {
            crate::qr::svg(&frame.to_ascii_uppercase(), EcLevel::L)
                .map_err(|e| format!("No QR code can hold this frame ({e})."))
        })
        .collect::<Result<_, _>>()
        .map_err(ExportError::Qr)?;
    Ok(PsbtExport {
        base64,
        hex,
        ur_frames,
        qr_svgs,
        ur_fragments,
        qr_unavailable,
    })
}

/// The CBOR byte string (major type 2) holding `bytes`: the `crypto-psbt` payload.
pub fn cbor_byte_string(bytes: &[u8]) -> Vec<u8> {
    let len = bytes.len();
    let mut out = Vec::with_capacity(len + 9);
    match len {
        0..=23 => out.push(0x40 | len as u8),
        24..=0xff => out.extend([0x58, len as u8]),
        0x100..=0xffff => {
            out.push(0x59);
            out.extend((len as u16).to_be_bytes());
        }
        _ => match u32::try_from(len) {
            Ok(len) => {
                out.push(0x5a);
                out.extend(len.to_be_bytes());
            }
            Err(_) => {
                out.push(0x5b);
                out.extend((len as u64).to_be_bytes());
            }
        },
    }
    out.extend_from_slice(bytes);
    out
}

/// The frames of the animated code and the number of fragments, or why there is none.
fn ur_frames(psbt: &[u8]) -> Result<(Vec<String>, u32), String> {
    let cbor = cbor_byte_string(psbt);
    if cbor.len() <= FRAGMENT_BYTES {
        let single =
            ur::ur::try_encode(&cbor, &ur::Type::Custom(UR_TYPE)).map_err(|e| e.to_string())?;
        return Ok((vec![single], 1));
    }
    let fragment = cbor.len().div_ceil(MAX_FRAGMENTS).max(FRAGMENT_BYTES);
    if fragment > MAX_FRAGMENT_BYTES {
        return Err(format!(
            "This PSBT ({} bytes) is too large for QR codes; save it as a file or copy it instead.",
            psbt.len()
        ));
    }
    let mut encoder = ur::Encoder::new(&cbor, fragment, UR_TYPE).map_err(|e| e.to_string())?;
    let count = encoder.fragment_count();
    // Every pure part once, then mixed parts: a reader that missed a frame completes from them without waiting for
    // the loop to come round.
    let frames = (0..count + count.div_ceil(2).max(2))
        .map(|_| encoder.next_part().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((frames, count as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::qr::read_back::scan;

    /// BCR-2020-006's `crypto-psbt` example (test vector 3): the PSBT, and its UR.
    const SPEC_PSBT: &str = "70736274ff01009a020000000258e87a21b56daf0c23be8e7070456c336f7cbaa5c8757924f545887bb2abdd750000000000ffffffff838d0427d0ec650a68aa46bb0b098aea4422c071b2ca78352a077959d07cea1d0100000000ffffffff0270aaf00800000000160014d85c2b71d0060b09c9886aeb815e50991dda124d00e1f5050000000016001400aea9a2e5f0f876a588df5546e8742d1d87008f000000000000000000";
    const SPEC_UR: &str = "ur:crypto-psbt/hdosjojkidjyzmadaenyaoaeaeaeaohdvsknclrejnpebncnrnmnjojofejzeojlkerdonspkpkkdkykfelokgprpyutkpaeaeaeaeaezmzmzmzmlslgaaditiwpihbkispkfgrkbdaslewdfycprtjsprsgksecdratkkhktikewdcaadaeaeaeaezmzmzmzmaojopkwtayaeaeaeaecmaebbtphhdnjstiambdassoloimwmlyhygdnlcatnbggtaevyykahaeaeaeaecmaebbaeplptoevwwtyakoonlourgofgvsjydpcaltaemyaeaeaeaeaeaeaeaeaebkgdcarh";

    fn spec_psbt() -> Vec<u8> {
        alloy_primitives::hex::decode(SPEC_PSBT).unwrap()
    }

    /// An unsigned PSBT of `outputs` P2WPKH outputs (about 31 bytes each).
    fn psbt_with_outputs(outputs: usize) -> Vec<u8> {
        use bitcoin::hashes::Hash as _;
        use bitcoin::{
            Amount, OutPoint, ScriptBuf, Sequence, Transaction, TxIn, TxOut, Txid, WPubkeyHash,
            Witness, absolute, transaction,
        };
        let tx = Transaction {
            version: transaction::Version::TWO,
            lock_time: absolute::LockTime::ZERO,
            input: vec![TxIn {
                previous_output: OutPoint::new(Txid::from_byte_array([7; 32]), 1),
                script_sig: ScriptBuf::new(),
                sequence: Sequence::ENABLE_RBF_NO_LOCKTIME,
                witness: Witness::new(),
            }],
            output: (0..outputs)
                .map(|i| TxOut {
                    value: Amount::from_sat(10_000 + i as u64),
                    script_pubkey: ScriptBuf::new_p2wpkh(&WPubkeyHash::from_byte_array(
                        [i as u8; 20],
                    )),
                })
                .collect(),
        };
        bitcoin::Psbt::from_unsigned_tx(tx).unwrap().serialize()
    }

    /// The PSBT a UR decoder gets back from `frames` (the `crypto-psbt` CBOR byte string unwrapped).
    fn decode_frames<'a>(frames: impl IntoIterator<Item = &'a String>) -> Vec<u8> {
        let mut decoder = ur::Decoder::default();
        for frame in frames {
            decoder.receive(frame).unwrap();
            if decoder.complete() {
                break;
            }
        }
        assert!(decoder.complete(), "the frames complete the message");
        assert_eq!(decoder.ur_type(), Some(UR_TYPE));
        unwrap_cbor(&decoder.message().unwrap().unwrap())
    }

    /// The bytes of a CBOR byte string, checking its header.
    fn unwrap_cbor(cbor: &[u8]) -> Vec<u8> {
        let (len, body) = match cbor[0] {
            h @ 0x40..=0x57 => (usize::from(h - 0x40), &cbor[1..]),
            0x58 => (usize::from(cbor[1]), &cbor[2..]),
            0x59 => (
                usize::from(u16::from_be_bytes([cbor[1], cbor[2]])),
                &cbor[3..],
            ),
            other => panic!("not a short CBOR byte string: {other:#x}"),
        };
        assert_eq!(body.len(), len, "the header's length is the body's");
        body.to_vec()
    }

    #[test]
    fn the_spec_s_example_is_one_frame_equal_to_its_ur() {
        let export = forms(&spec_psbt()).unwrap();
        assert_eq!(export.ur_frames, vec![SPEC_UR.to_owned()]);
        assert_eq!(export.ur_fragments, 1);
        assert_eq!(export.qr_unavailable, None);
        assert_eq!(export.hex, SPEC_PSBT);
        assert_eq!(
            STANDARD.decode(&export.base64).unwrap(),
            spec_psbt(),
            "base64 is of the same bytes"
        );
        assert!(export.base64.starts_with("cHNidP8B"), "{}", export.base64);
        // The CBOR is a byte string with a one-byte length (0x58 0xa7: 167 bytes).
        assert_eq!(&cbor_byte_string(&spec_psbt())[..2], &[0x58, 0xa7]);
    }

    #[test]
    fn a_single_part_frame_decodes_to_the_exact_psbt() {
        let psbt = spec_psbt();
        let export = forms(&psbt).unwrap();
        let (kind, cbor) = ur::ur::decode(&export.ur_frames[0]).unwrap();
        assert_eq!(kind, ur::ur::Kind::SinglePart);
        assert_eq!(unwrap_cbor(&cbor), psbt);
        // As a camera reads its QR code: the upper-case frame, which UR decoders take as the same.
        let read = scan(&export.qr_svgs[0]);
        assert_eq!(read, SPEC_UR.to_ascii_uppercase());
        assert_eq!(unwrap_cbor(&ur::ur::decode(&read).unwrap().1), psbt);
    }

    #[test]
    fn a_larger_psbt_is_cut_into_fountain_parts_that_decode_back() {
        let psbt = psbt_with_outputs(40);
        assert!(psbt.len() > 1000, "{}", psbt.len());
        let export = forms(&psbt).unwrap();
        let count = export.ur_fragments as usize;
        assert_eq!(count, (psbt.len() + 3).div_ceil(FRAGMENT_BYTES));
        assert_eq!(export.ur_frames.len(), count + count.div_ceil(2).max(2));
        assert_eq!(export.qr_svgs.len(), export.ur_frames.len());
        for (i, frame) in export.ur_frames.iter().enumerate() {
            let prefix = format!("ur:crypto-psbt/{}-{count}/", i + 1);
            assert!(frame.starts_with(&prefix), "{frame}");
        }
        // All the frames in order; the pure parts alone; and the loop without its first frame, which the mixed
        // parts make up for.
        assert_eq!(decode_frames(&export.ur_frames), psbt);
        assert_eq!(decode_frames(&export.ur_frames[..count]), psbt);
        assert_eq!(decode_frames(&export.ur_frames[1..]), psbt);
        // Read as a camera reads the QR codes.
        let scanned: Vec<String> = export.qr_svgs.iter().map(|svg| scan(svg)).collect();
        for (read, frame) in scanned.iter().zip(&export.ur_frames) {
            assert_eq!(read, &frame.to_ascii_uppercase());
        }
        assert_eq!(decode_frames(&scanned), psbt);
    }

    #[test]
    fn the_cbor_header_is_a_byte_string_of_the_psbt_s_length() {
        assert_eq!(cbor_byte_string(&[1, 2, 3]), vec![0x43, 1, 2, 3]);
        assert_eq!(&cbor_byte_string(&[0; 24])[..2], &[0x58, 24]);
        assert_eq!(&cbor_byte_string(&[0; 255])[..2], &[0x58, 0xff]);
        let psbt = psbt_with_outputs(40);
        let cbor = cbor_byte_string(&psbt);
        assert_eq!(cbor[0], 0x59);
        assert_eq!(
            usize::from(u16::from_be_bytes([cbor[1], cbor[2]])),
            psbt.len()
        );
        assert_eq!(&cbor[3..], &psbt[..]);
        assert_eq!(
            &cbor_byte_string(&[0; 70_000])[..5],
            &[0x5a, 0, 1, 0x11, 0x70]
        );
    }

    #[test]
    fn frames_are_ascii_and_bounded_and_their_number_too() {
        for outputs in [1, 5, 40, 300, 600] {
            let psbt = psbt_with_outputs(outputs);
            let export = forms(&psbt).unwrap();
            assert!(!export.ur_frames.is_empty(), "{} bytes", psbt.len());
            assert!(
                export.ur_fragments as usize <= MAX_FRAGMENTS,
                "{} bytes",
                psbt.len()
            );
            assert!(export.ur_frames.len() <= MAX_FRAGMENTS + MAX_FRAGMENTS / 2);
            for frame in &export.ur_frames {
                assert!(
                    frame.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b"-/:".contains(&b)),
                    "{frame}"
                );
                assert!(
                    frame.len() <= MAX_FRAME_CHARS,
                    "{} > {MAX_FRAME_CHARS}",
                    frame.len()
                );
            }
            for svg in &export.qr_svgs {
                assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
                assert!(svg.is_ascii() && !svg.contains("<script"));
            }
        }
        // The largest of these is cut into larger fragments, not into more of them, and decodes back.
        let psbt = psbt_with_outputs(600);
        let export = forms(&psbt).unwrap();
        assert_eq!(export.ur_fragments as usize, MAX_FRAGMENTS);
        assert_eq!(decode_frames(&export.ur_frames), psbt);
    }

    #[test]
    fn a_psbt_too_large_for_qr_codes_keeps_its_text_and_says_why() {
        let psbt = psbt_with_outputs(700);
        assert!(psbt.len() > MAX_FRAGMENTS * MAX_FRAGMENT_BYTES);
        let export = forms(&psbt).unwrap();
        assert!(export.ur_frames.is_empty() && export.qr_svgs.is_empty());
        assert_eq!(export.ur_fragments, 0);
        assert!(
            export
                .qr_unavailable
                .as_deref()
                .is_some_and(|s| s.contains("too large for QR codes")),
            "{:?}",
            export.qr_unavailable
        );
        assert_eq!(
            alloy_primitives::hex::decode(&export.hex).unwrap(),
            psbt,
            "the hex is still there"
        );
    }

    #[test]
    fn bytes_that_are_not_a_psbt_are_refused() {
        let err = crate::error::DeskError::from(forms(b"not a psbt").unwrap_err());
        assert_eq!(err.kind, ErrorKind::Gateway);
    }

    #[test]
    fn the_upper_case_frame_makes_a_smaller_code_than_the_lower_case_one() {
        // Alphanumeric mode: the reason frames are drawn upper-case.
        let lower =
            qrcode::QrCode::with_error_correction_level(SPEC_UR, qrcode::EcLevel::L).unwrap();
        let upper = qrcode::QrCode::with_error_correction_level(
            SPEC_UR.to_ascii_uppercase(),
            qrcode::EcLevel::L,
        )
        .unwrap();
        assert!(
            upper.width() < lower.width(),
            "{} {}",
            upper.width(),
            lower.width()
        );
    }
}
