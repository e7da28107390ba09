//! The gateway's refusals of a quote in a person's words: its numbers (minimums, limits, liquidity) in token units
//! with the token's symbol, never smallest units next to a contract address. The gateway's own sentence is written
//! for developers ("the amount 5000 is below the minimum of 10000"); the app knows which token each number is in.

use gateway_client::TokenRegistry;
use gateway_client::display::amount_text;
use gateway_client::params::QuoteRequest;
use serde_json::Value;

use crate::error::{DeskError, ErrorKind};
use crate::flow::Question;

/// A detail of the error, as text.
fn detail<'a>(details: &'a Value, key: &str) -> Option<&'a str> {
    details.get(key).and_then(Value::as_str)
}

/// The source token's amount as a person reads it.
fn source(request: &QuoteRequest, amount: &str) -> String {
    amount_text(
        TokenRegistry::builtin(),
        &request.src_chain,
        &request.src_token,
        amount,
    )
}

/// Rewrites the message of a gateway refusal whose details carry amounts. Other errors pass unchanged; the code
/// and details stay as the gateway sent them.
pub fn explain(mut err: DeskError, request: &QuoteRequest) -> DeskError {
    if err.kind != ErrorKind::Gateway {
        return err;
    }
    // Read as the gateway sent them, so that a partial shape still gives what it has.
    let (Some(code), Some(details)) = (
        err.code.as_deref(),
        err.details.as_deref().and_then(|d| d.as_sent()),
    ) else {
        return err;
    };
    let said = match code {
        "QUOTE_AMOUNT_TOO_LOW" => detail(details, "minimum").map(|min| {
            let asked = detail(details, "actual").unwrap_or(&request.amount);
            format!(
                "The amount is below this route's minimum: send at least {} (you asked for {}). Increase the \
                 amount and ask for a new quote.",
                source(request, min),
                source(request, asked)
            )
        }),
        "INSUFFICIENT_AMOUNT" => detail(details, "expected").map(|expected| {
            format!(
                "The amount is too small for this route: it needs at least {}, and you asked for {}. Increase the \
                 amount and ask for a new quote.",
                source(request, expected),
                source(request, detail(details, "actual").unwrap_or(&request.amount))
            )
        }),
        "INSUFFICIENT_SWAP_AMOUNT" => detail(details, "required").map(|required| {
            format!(
                "After fees, too little is left to swap: the route needs {}, and {} is available. Increase the \
                 amount and ask for a new quote.",
                source(request, required),
                source(request, detail(details, "available").unwrap_or("0"))
            )
        }),
        "UNABLE_TO_COVER_FEES" => detail(details, "total_fees").map(|fees| {
            format!(
                "The fees ({}) are more than the amount ({}). Increase the amount and ask for a new quote.",
                source(request, fees),
                source(request, detail(details, "available_amount").unwrap_or(&request.amount))
            )
        }),
        "EXCEEDED_LIMIT" => detail(details, "limit").map(|limit| {
            format!(
                "The amount is above the gateway's limit of {} for this route. Send less, or try again later.",
                source(request, limit)
            )
        }),
        "INSUFFICIENT_SOLVER_BALANCE" => detail(details, "limit").map(|limit| {
            // The limit is in the token the gateway names: the destination's when it names it (or names none).
            let token = detail(details, "token").unwrap_or(&request.dst_token);
            let (chain, token) = if token.eq_ignore_ascii_case(&request.src_token) {
                (&request.src_chain, token)
            } else {
                (&request.dst_chain, token)
            };
            format!(
                "The gateway lacks liquidity for this amount now: it can pay out at most {} on {chain}. Try a \
                 smaller amount, or try again later.",
                amount_text(TokenRegistry::builtin(), chain, token, limit)
            )
        }),
        _ => None,
    };
    if let Some(message) = said {
        err.message = message;
    }
    err
}

/// The question for an amount below the minimum names the minimum in the source token's units.
pub fn explain_question(mut question: Question, request: &QuoteRequest) -> Question {
    if question.code == "QUOTE_AMOUNT_TOO_LOW"
        && let Some(minimum) = question.suggestion.as_deref()
    {
        question.message = format!(
            "The amount is below this route's minimum of {}. Enter at least that much.",
            source(request, minimum)
        );
    }
    question
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const USDC_BASE: &str = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    const BTC: &str = "0x0000000000000000000000000000000000000000";

    fn refusal(code: &str, details: Value) -> DeskError {
        DeskError {
            kind: ErrorKind::Gateway,
            message:
                "The gateway refused the request: the amount 5000 is below the minimum of 10000."
                    .into(),
            code: Some(code.into()),
            details: crate::error::GatewayDetails::of(
                &gateway_client::ErrorCode::parse(code),
                Some(&details),
            )
            .map(|d| Box::new(crate::error::ErrorDetails::Gateway(d))),
        }
    }

    fn onramp() -> QuoteRequest {
        QuoteRequest::new(
            ("bitcoin", BTC),
            ("base", USDC_BASE),
            "5000",
            "0x1111111111111111111111111111111111111111",
        )
    }

    #[test]
    fn minimums_and_limits_are_in_token_units_with_the_symbol() {
        let err = explain(
            refusal(
                "QUOTE_AMOUNT_TOO_LOW",
                json!({"minimum": "10000", "actual": "5000"}),
            ),
            &onramp(),
        );
        assert_eq!(
            err.message,
            "The amount is below this route's minimum: send at least 0.0001 BTC (you asked for 0.00005 BTC). \
             Increase the amount and ask for a new quote."
        );
        assert_eq!(
            err.code.as_deref(),
            Some("QUOTE_AMOUNT_TOO_LOW"),
            "the code stays"
        );
        let err = explain(
            refusal("EXCEEDED_LIMIT", json!({"limit": "100000000"})),
            &onramp(),
        );
        assert!(err.message.contains("limit of 1 BTC"), "{}", err.message);
        let err = explain(
            refusal(
                "UNABLE_TO_COVER_FEES",
                json!({"total_fees": "6000", "available_amount": "5000"}),
            ),
            &onramp(),
        );
        assert!(
            err.message
                .contains("(0.00006 BTC) are more than the amount (0.00005 BTC)"),
            "{}",
            err.message
        );
        let err = explain(
            refusal(
                "INSUFFICIENT_SWAP_AMOUNT",
                json!({"required": "7000", "available": "5000"}),
            ),
            &onramp(),
        );
        assert!(
            err.message
                .contains("needs 0.00007 BTC, and 0.00005 BTC is available"),
            "{}",
            err.message
        );
        let err = explain(
            refusal(
                "INSUFFICIENT_AMOUNT",
                json!({"expected": "7000", "actual": "5000"}),
            ),
            &onramp(),
        );
        assert!(
            err.message.contains("at least 0.00007 BTC"),
            "{}",
            err.message
        );
    }

    #[test]
    fn liquidity_is_in_the_token_the_gateway_names() {
        let err = explain(
            refusal(
                "INSUFFICIENT_SOLVER_BALANCE",
                json!({"limit": "2500000000", "token": USDC_BASE.to_lowercase(), "chain_id": "8453"}),
            ),
            &onramp(),
        );
        assert_eq!(
            err.message,
            "The gateway lacks liquidity for this amount now: it can pay out at most 2500 USDC on base. Try a \
             smaller amount, or try again later."
        );
        assert!(
            !err.message.contains("0x"),
            "no contract address: {}",
            err.message
        );
    }

    #[test]
    fn other_errors_and_missing_details_pass_unchanged() {
        let mut plain = refusal("NO_ROUTE", json!({}));
        plain.details = None;
        let before = plain.message.clone();
        assert_eq!(explain(plain, &onramp()).message, before);
        let odd = refusal("QUOTE_AMOUNT_TOO_LOW", json!({"something": "else"}));
        let before = odd.message.clone();
        assert_eq!(explain(odd, &onramp()).message, before);
        let transport = DeskError::new(ErrorKind::Transport, "Nothing answers.");
        assert_eq!(explain(transport, &onramp()).message, "Nothing answers.");
    }

    #[test]
    fn the_minimum_question_names_the_minimum() {
        let question = Question {
            field: crate::flow::QuestionField::Amount,
            message: "below".into(),
            suggestion: Some("10000".into()),
            code: "QUOTE_AMOUNT_TOO_LOW".into(),
            max_bps: None,
            min_bps: None,
        };
        assert_eq!(
            explain_question(question, &onramp()).message,
            "The amount is below this route's minimum of 0.0001 BTC. Enter at least that much."
        );
    }
}
