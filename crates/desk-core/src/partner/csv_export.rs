//! The dashboard's CSV export (quoting done by the csv crate).

use gateway_client::TokenRegistry;
use gateway_client::display::amount_text;

use super::*;
use crate::api::RouteKind;
use crate::calendar::utc_text;

/// The CSV's header.
pub const CSV_HEADER: [&str; 16] = [
    "date_utc",
    "bucket",
    "order_id",
    "route",
    "status",
    "source_chain",
    "source_token",
    "source_amount",
    "source_text",
    "source_usd",
    "destination_chain",
    "destination_token",
    "destination_amount",
    "earnings_usd",
    "earnings_kind",
    "known_from",
];

/// One CSV row per order behind the dashboard `query` asks for, newest first, after a header line. Amounts in
/// smallest units; earnings in USD to the micro-dollar (so the column adds up to the dashboard's figures before
/// their rounding to cents) for completed orders, `earnings_kind` `exact`, `estimated` or `none`.
pub fn csv_text(facts: &[OrderFacts], query: &DashboardQuery) -> Result<String, PartnerError> {
    let failed = PartnerError::Csv;
    let registry = TokenRegistry::builtin();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(CSV_HEADER).map_err(failed)?;
    for f in selected(facts, query) {
        let earnings = match f.earnings {
            Earnings::Exact(usd) | Earnings::Estimated(usd) => format_usd_micro(usd),
            Earnings::None => String::new(),
        };
        writer
            .write_record([
                utc_text(f.created_at).as_str(),
                &bucket_label(query.period, bucket_start(query.period, f.created_at)),
                &f.order_id,
                RouteKind::key(f.route),
                &f.status,
                &f.src.chain,
                &f.src.token,
                &f.src.amount,
                &amount_text(registry, &f.src.chain, &f.src.token, &f.src.amount),
                f.src.usd.as_deref().unwrap_or(""),
                &f.dst.chain,
                &f.dst.token,
                &f.dst.amount,
                &earnings,
                f.earnings.kind(),
                f.known_from.as_str(),
            ])
            .map_err(failed)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| failed(csv::Error::from(e.into_error())))?;
    Ok(String::from_utf8(bytes).expect("the CSV is written from strings"))
}
