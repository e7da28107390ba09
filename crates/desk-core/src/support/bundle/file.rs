//! Reading a bundle: its format checked, and its order's timeline rendered from the bundle alone.

use serde_json::Value;

use super::*;
use crate::views::{OrderView, TransferView};

/// Reads a bundle file's text: checks its format and version, nothing more.
pub fn parse_bundle(text: &str) -> Result<BundleFile, BundleError> {
    if text.len() > MAX_BUNDLE_BYTES {
        return Err(unreadable(format!(
            "the file is larger than {} MB, which no bundle is. Choose the .json file Gateway Desk saved",
            MAX_BUNDLE_BYTES / (1024 * 1024)
        )));
    }
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        unreadable(format!(
            "the file is not JSON ({e}). Choose the .json file Gateway Desk saved in its support-bundles folder"
        ))
    })?;
    let format = value.get("format").and_then(Value::as_str);
    if format != Some(BUNDLE_FORMAT) {
        return Err(unreadable(match format {
            Some(other) => format!(
                "it is a {other:?} file, not a Gateway Desk support bundle. Choose a file made with \
                 \"Save support bundle\""
            ),
            None => "it is not a Gateway Desk support bundle (it has no \"format\" field). Choose a file made \
                     with \"Save support bundle\""
                .to_owned(),
        }));
    }
    let version = value.get("version").and_then(Value::as_u64);
    match version {
        Some(v) if v > BUNDLE_VERSION => {
            return Err(unreadable(format!(
                "it was made by a newer Gateway Desk (bundle version {v}; this app reads version \
                 {BUNDLE_VERSION} and older). Update Gateway Desk to open it"
            )));
        }
        Some(v) if v >= 1 => {}
        _ => {
            return Err(unreadable(
                "its version is missing or not a positive number, so the file is damaged. Ask for the bundle to \
                 be made again"
                    .to_owned(),
            ));
        }
    }
    serde_json::from_value(value).map_err(|e| {
        unreadable(format!(
            "a field is missing or damaged ({e}). Ask for the bundle to be made again"
        ))
    })
}

/// Reads a bundle and renders its order as the user saw it. Never touches any journal.
pub fn read_bundle(text: &str) -> Result<ImportedBundle, BundleError> {
    let file = parse_bundle(text)?;
    let order = file.journal_order()?;
    let events = file.journal_events(order.local_id);
    let mut view = OrderView::from_journal(&order, &events);
    // A shortened hash makes no working explorer link.
    for transfer in view
        .received
        .iter_mut()
        .chain(view.refunded.iter_mut())
        .chain(view.pending_btc_payment.iter_mut())
        .chain(view.source_tx.iter_mut())
    {
        drop_broken_link(transfer);
    }
    Ok(ImportedBundle {
        app_version: file.app_version,
        os: file.os,
        simulated: file.simulated,
        network: file.network,
        created_at: file.created_at,
        identifiers_included: file.identifiers_included,
        order: view,
        events: file.events,
        log_lines: file.log_lines,
        api_version: file.api_version,
        redactions: file.redactions,
        text: text.to_owned(),
    })
}

pub(crate) fn drop_broken_link(transfer: &mut TransferView) {
    if transfer.tx_hash.contains('…') || transfer.tx_hash.contains("hex chars") {
        transfer.explorer_url = None;
    }
}
