//! Two quotes compared field by field (amounts, each fee line, price impact, estimated time, slippage, affiliates).

use gateway_client::display::{duration_text, usd_text};

use super::FieldDiff;
use crate::views::{AmountView, QuoteCard};

/// An amount as compared: the token amount, and its USD value when given.
pub(crate) fn amount_words(amount: &AmountView) -> String {
    match amount.usd.as_deref() {
        Some(usd) => format!("{} ({})", amount.text, usd_text(usd)),
        None => amount.text.clone(),
    }
}

/// The compared fields of a card, in the order they are shown.
pub(crate) fn fields_of(card: &QuoteCard) -> Vec<(String, Option<String>)> {
    let mut fields = vec![
        ("input amount".to_owned(), Some(amount_words(&card.send))),
        (
            "output amount".to_owned(),
            Some(amount_words(&card.receive)),
        ),
    ];
    for line in &card.fee_lines {
        fields.push((
            format!("fee: {}", line.name),
            Some(amount_words(&line.amount)),
        ));
    }
    fields.extend([
        (
            "total fees".to_owned(),
            card.total_fees.as_ref().map(amount_words),
        ),
        (
            // Only without a total in a token, whose text carries its USD value already.
            "total fees USD".to_owned(),
            card.total_fees_usd
                .as_deref()
                .filter(|_| card.total_fees.is_none())
                .map(usd_text),
        ),
        ("price impact".to_owned(), card.price_impact.clone()),
        (
            "price impact USD".to_owned(),
            card.price_impact_usd.as_deref().map(usd_text),
        ),
        (
            "estimated time".to_owned(),
            card.estimated_secs
                .map(|secs| format!("{} ({secs} s)", duration_text(secs))),
        ),
        (
            "slippage".to_owned(),
            Some(card.slippage_bps)
                .filter(|s| *s > 0)
                .map(|s| format!("{s} bps")),
        ),
    ]);
    for (i, a) in card.affiliates.iter().enumerate() {
        let value = match (&a.fee, a.bps) {
            (Some(fee), _) => amount_words(fee),
            (None, Some(bps)) => format!("{bps} bps"),
            (None, None) => "no fee stated".to_owned(),
        };
        fields.push((format!("affiliate {}", i + 1), Some(value)));
    }
    fields
}

/// Field by field: every field of either card, in the first card's order, then the second's new ones. Fields
/// neither card has are left out.
pub(crate) fn compare(before: &QuoteCard, after: &QuoteCard) -> Vec<FieldDiff> {
    let old = fields_of(before);
    let new = fields_of(after);
    let mut names: Vec<&String> = old.iter().map(|(n, _)| n).collect();
    for (name, _) in &new {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let find = |list: &[(String, Option<String>)], name: &str| {
        list.iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.clone())
    };
    names
        .into_iter()
        .filter_map(|name| {
            let (before, after) = (find(&old, name), find(&new, name));
            (before.is_some() || after.is_some()).then(|| FieldDiff {
                field: name.clone(),
                changed: before != after,
                before,
                after,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::reproduce::tests::onramp;
    use gateway_client::wire::Quote;
    use serde_json::json;

    #[test]
    fn the_same_quote_compares_unchanged_and_a_moved_one_shows_where() {
        let quote = onramp("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", json!([]));
        let card = QuoteCard::new(&quote);
        let fields = compare(&card, &card);
        assert!(fields.iter().all(|f| !f.changed), "{fields:?}");
        let names: Vec<&str> = fields.iter().map(|f| f.field.as_str()).collect();
        for name in [
            "input amount",
            "output amount",
            "fee: solver fee",
            "fee: affiliate fee",
            "total fees",
            "price impact",
            "estimated time",
            "slippage",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        assert!(
            !names.contains(&"price impact USD"),
            "absent on both: left out"
        );

        let mut moved = quote.raw().clone();
        moved["onramp"]["outputAmount"]["amount"] = json!("245000");
        moved["onramp"]["estimatedTimeInSecs"] = json!(900);
        moved["onramp"]["priceImpactUsd"] = json!("-4.00");
        let after = QuoteCard::new(&Quote::from_json(moved).unwrap());
        let changed: Vec<FieldDiff> = compare(&card, &after)
            .into_iter()
            .filter(|f| f.changed)
            .collect();
        let names: Vec<&str> = changed.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(
            names,
            ["output amount", "price impact USD", "estimated time"]
        );
        assert_eq!(changed[1].before, None);
        assert_eq!(changed[1].after.as_deref(), Some("-$4.00"));
        assert_eq!(changed[2].after.as_deref(), Some("15 min (900 s)"));
    }
}
