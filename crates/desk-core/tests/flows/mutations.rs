//! A mutational harness on the stable toolchain: every example answer of the published service (the V1–V3 fixtures
//! of gateway-client) is mutated deterministically, structure-aware (extreme numbers and strings, wrong types, missing
//! and duplicated parts) and byte by byte, and each mutant goes through every reader of gateway answers and what the
//! app builds from them: quotes and their cards, the app's loss check, create-order answers and their verification
//! against a quote, orders and their views, order pages, register-tx answers, error details. None may panic.
//!
//! A second, exhaustive pass grows every field in turn: each string to 100,000 characters (of its own characters, so a
//! Base58 address stays Base58 and reaches the decoder), each number to the largest values its types hold (`u64`,
//! `i64`, `f64`; a digit string to `U256::MAX`, a decimal to the largest USD value), once at its own place and once at
//! the same place in every element of each list (so that a page's orders add up past any sum). A reader that took time
//! quadratic in a field's length would stall this pass for hours (a 100,000-character Tron address took 4 s to decode),
//! so the pass finishing is the bound; no time is asserted.
//!
//! Bounded: a fixed seed and a fixed number of mutants per fixture (`MUTANTS_PER_FIXTURE`), a few seconds in all.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use desk_core::views::{OrderView, QuoteCard};
use gateway_client::address::BitcoinNetwork;
use gateway_client::wire::{CreateOrderResponse, OrderInfo, OrdersPage, Quote, RegisterTxResponse};
use serde_json::{Value, json};

const MUTANTS_PER_FIXTURE: usize = 1000;

/// xorshift64*: a small deterministic generator, so every run tries the same mutants.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n.max(1)).unwrap()).unwrap()
    }
}

/// Values a hostile or broken gateway might put anywhere.
fn extreme(rng: &mut Rng) -> Value {
    let choices = [
        json!(null),
        json!(""),
        json!("0"),
        json!("-1"),
        json!("18446744073709551615"),
        json!("115792089237316195423570985008687907853269984665640564039457584007913129639935"),
        json!("1e999"),
        json!("0.000000000000000000000001"),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(u64::MAX),
        json!(-1),
        json!(1.5),
        json!(true),
        json!([]),
        json!({}),
        json!("0x"),
        json!("T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"),
        json!("1".repeat(10_000)),
        json!("é\u{0}\u{202e}"),
        json!({"address": "", "amount": "", "chain": ""}),
    ];
    choices[rng.below(choices.len())].clone()
}

/// One structure-aware change somewhere in `value`.
fn mutate(value: &mut Value, rng: &mut Rng, depth: usize) {
    let go_deeper = depth < 8 && rng.below(3) != 0;
    match value {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = keys[rng.below(keys.len())].clone();
            if go_deeper {
                mutate(map.get_mut(&key).unwrap(), rng, depth + 1);
            } else {
                match rng.below(3) {
                    0 => {
                        map.remove(&key);
                    }
                    1 => {
                        map.insert(key, extreme(rng));
                    }
                    _ => {
                        map.insert(format!("{key}Extra"), extreme(rng));
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = rng.below(items.len());
            if go_deeper {
                mutate(&mut items[i], rng, depth + 1);
            } else {
                match rng.below(3) {
                    0 => {
                        items.remove(i);
                    }
                    1 => {
                        let copy = items[i].clone();
                        for _ in 0..50 {
                            items.push(copy.clone());
                        }
                    }
                    _ => items[i] = extreme(rng),
                }
            }
        }
        _ => *value = extreme(rng),
    }
}

/// A byte-level mutant of `text` that still parses as JSON, when one does.
fn byte_mutant(text: &str, rng: &mut Rng) -> Option<Value> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let i = rng.below(bytes.len());
        match rng.below(3) {
            0 => bytes[i] = b"0123456789\"{}[],:-.e"[rng.below(20)],
            1 => {
                bytes.remove(i);
            }
            _ => bytes.truncate(i),
        }
    }
    serde_json::from_slice(&bytes).ok()
}

/// Verifies under the Sandbox's policy (the sim's answers call its contracts, so every check runs to the end) and the
/// real service's (refused at the pin, which must hold for any mutation too).
fn verify_both(quote: &Quote, created: &CreateOrderResponse) {
    use desk_core::verify::{VerifyPolicy, verify_order_with};
    let _ = verify_order_with(
        quote,
        created,
        &VerifyPolicy::sandbox(BitcoinNetwork::Mainnet),
    );
    let _ = verify_order_with(
        quote,
        created,
        &VerifyPolicy::strict(BitcoinNetwork::Mainnet),
    );
}

/// Every reader of a gateway answer, and what the app builds from it, on `value`: `quotes` are the genuine quotes to
/// verify a mutated create-order answer against, `created` the genuine answers to verify a mutated quote with.
fn read_everything(value: &Value, quotes: &[Quote], created_answers: &[CreateOrderResponse]) {
    if let Ok(quote) = Quote::from_json(value.clone()) {
        let card = QuoteCard::new(&quote);
        let _ = serde_json::to_string(&card);
        let _ = desk_core::verify::request::loss_check(&quote);
        let _ = quote.view().fee_lines();
        for created in created_answers {
            if quote.view().route() == created.route() {
                verify_both(&quote, created);
            }
        }
    }
    if let Ok(created) = CreateOrderResponse::from_value(value) {
        for quote in quotes {
            if quote.view().route() == created.route() {
                verify_both(quote, &created);
            }
        }
    }
    if let Ok(info) = serde_json::from_value::<OrderInfo>(value.clone()) {
        for route in [
            desk_core::api::RouteKind::Onramp,
            desk_core::api::RouteKind::Offramp,
            desk_core::api::RouteKind::TokenSwap,
        ] {
            let view = OrderView::from_gateway("sandbox", &info, value, route);
            let _ = serde_json::to_string(&view);
        }
    }
    if let Ok(page) = OrdersPage::from_value(value) {
        // And the partner dashboard over the page's orders, as it counts a watched address's.
        let rates = desk_core::partner::AffiliateRates {
            list_bps: Some(50),
            token_swap_bps: Some(30),
        };
        let mut facts = Vec::new();
        for info in &page.orders {
            let view =
                OrderView::from_gateway("sandbox", info, value, desk_core::api::RouteKind::Onramp);
            facts.extend(desk_core::partner::facts::facts_from_view(&view, &rates));
        }
        for period in [
            desk_core::partner::Period::Day,
            desk_core::partner::Period::Month,
        ] {
            let query = desk_core::partner::DashboardQuery {
                period,
                route: None,
            };
            let _ = serde_json::to_string(&desk_core::partner::dashboard::build(&facts, &query));
        }
    }
    let _ = RegisterTxResponse::from_value(value);
    if let Some(details) = value.get("details") {
        let _ = gateway_client::ErrorDetails::from_json(details);
    }
}

fn fixtures() -> Vec<(String, String)> {
    let root =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../gateway-client/tests/fixtures/examples");
    let mut all = Vec::new();
    for version in ["v1", "v2", "v3"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(version))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            let name = format!("{version}/{}", path.file_name().unwrap().to_string_lossy());
            all.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    all
}

/// The genuine quotes and create-order answers among the fixtures, to verify mutants against.
fn genuine(fixtures: &[(String, String)]) -> (Vec<Quote>, Vec<CreateOrderResponse>) {
    let values: Vec<Value> = fixtures
        .iter()
        .filter_map(|(_, text)| serde_json::from_str::<Value>(text).ok())
        .collect();
    let quotes: Vec<Quote> = values
        .iter()
        .filter_map(|value| Quote::from_json(value.clone()).ok())
        .collect();
    let created: Vec<CreateOrderResponse> = values
        .iter()
        .filter_map(|value| CreateOrderResponse::from_value(value).ok())
        .collect();
    assert!(quotes.len() >= 6, "{} genuine quotes", quotes.len());
    assert!(created.len() >= 6, "{} genuine answers", created.len());
    (quotes, created)
}

/// Runs `read_everything` on `mutant`, and notes a panic with the mutant's start.
fn try_reading(
    label: &str,
    mutant: &Value,
    genuine: &(Vec<Quote>, Vec<CreateOrderResponse>),
    panics: &mut Vec<String>,
) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| {
        read_everything(mutant, &genuine.0, &genuine.1)
    })) {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        let shown = mutant.to_string();
        let end = (0..=shown.len().min(600))
            .rev()
            .find(|&i| shown.is_char_boundary(i))
            .unwrap_or(0);
        panics.push(format!("{label}: {message}: {}", &shown[..end]));
    }
}

/// Grown strings are this long.
const GROWN_CHARS: usize = 100_000;

/// The largest values of the types a field of this shape may be read as.
fn largest(value: &Value) -> Vec<Value> {
    match value {
        Value::String(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            // An amount in smallest units (U256), a u64, an i64.
            vec![
                json!(alloy_primitives::U256::MAX.to_string()),
                json!(u64::MAX.to_string()),
                json!(i64::MAX.to_string()),
            ]
        }
        Value::String(text)
            if text.contains('.')
                && text
                    .trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.') =>
        {
            // A USD value or a fraction: the largest u128 of micro-dollars, and more than any type holds.
            vec![
                json!("340282366920938463463374607431768.211455"),
                json!(format!("{}.99", alloy_primitives::U256::MAX)),
            ]
        }
        Value::String(text) => {
            let grown: String = if text.is_empty() {
                "1".repeat(GROWN_CHARS)
            } else {
                text.chars().cycle().take(GROWN_CHARS).collect()
            };
            vec![json!(grown)]
        }
        Value::Number(n) if n.is_f64() => vec![json!(f64::MAX), json!(f64::MIN_POSITIVE)],
        Value::Number(n) if n.as_i64().is_some_and(|i| i < 0) => vec![json!(i64::MIN)],
        Value::Number(_) => vec![json!(u64::MAX), json!(i64::MAX), json!(u32::MAX)],
        _ => Vec::new(),
    }
}

/// One step of a path into a JSON value.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// The path to every leaf (string or number) of `value`.
fn leaves(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(Step::Key(key.clone()));
                leaves(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(Step::Index(i));
                leaves(child, path, out);
                path.pop();
            }
        }
        Value::String(_) | Value::Number(_) => out.push(path.clone()),
        _ => {}
    }
}

/// Sets the leaf at `path` to `new`; with `every`, at the same place in every element of each list on the way.
fn set_at(value: &mut Value, path: &[Step], new: &Value, every: bool) {
    let Some((step, rest)) = path.split_first() else {
        *value = new.clone();
        return;
    };
    match (step, value) {
        (Step::Key(key), Value::Object(map)) => {
            if let Some(child) = map.get_mut(key) {
                set_at(child, rest, new, every);
            }
        }
        (Step::Index(_), Value::Array(items)) if every => {
            for item in items {
                set_at(item, rest, new, every);
            }
        }
        (Step::Index(i), Value::Array(items)) => {
            if let Some(child) = items.get_mut(*i) {
                set_at(child, rest, new, every);
            }
        }
        _ => {}
    }
}

/// The value at `path`.
fn at<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(key) => v.get(key),
        Step::Index(i) => v.get(i),
    })
}

#[test]
fn no_field_grown_to_100000_characters_or_to_its_largest_value_panics_or_stalls_any_reader() {
    let fixtures = fixtures();
    let genuine = genuine(&fixtures);
    let mut tried = 0usize;
    let (mut grown_strings, mut maxed_numbers) = (0usize, 0usize);
    let mut panics = Vec::new();
    for (name, text) in &fixtures {
        let Ok(original) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let mut paths = Vec::new();
        leaves(&original, &mut Vec::new(), &mut paths);
        for path in &paths {
            let Some(leaf) = at(&original, path) else {
                continue;
            };
            for new in largest(leaf) {
                for every in [false, true] {
                    let mut mutant = original.clone();
                    set_at(&mut mutant, path, &new, every);
                    tried += 1;
                    if new.as_str().is_some_and(|s| s.len() == GROWN_CHARS) {
                        grown_strings += 1;
                    } else {
                        maxed_numbers += 1;
                    }
                    let label = format!("{name} {path:?} (every: {every})");
                    try_reading(&label, &mutant, &genuine, &mut panics);
                }
            }
        }
    }
    println!(
        "{tried} grown mutants: {grown_strings} with a 100,000-character string, {maxed_numbers} with a largest value"
    );
    assert!(grown_strings > 800, "only {grown_strings} grown strings");
    assert!(maxed_numbers > 1_000, "only {maxed_numbers} largest values");
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}

#[test]
fn no_mutant_of_a_real_answer_panics_any_reader() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 40, "{} fixtures", fixtures.len());
    // The genuine quotes and answers, to verify mutated create-order answers and quotes against.
    let genuine = genuine(&fixtures);
    // The panic hook is left alone (other tests of this binary run beside this one): a panic would be printed by it,
    // then reported below with its mutant.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut tried = 0usize;
    let mut panics = Vec::new();
    for (name, text) in &fixtures {
        let Ok(original) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        for n in 0..MUTANTS_PER_FIXTURE {
            let mutant = if n % 4 == 3 {
                match byte_mutant(text, &mut rng) {
                    Some(mutant) => mutant,
                    None => continue,
                }
            } else {
                let mut mutant = original.clone();
                for _ in 0..=rng.below(3) {
                    mutate(&mut mutant, &mut rng, 0);
                }
                mutant
            };
            tried += 1;
            try_reading(&format!("{name} #{n}"), &mutant, &genuine, &mut panics);
        }
    }
    println!("{tried} mutants of {} fixtures", fixtures.len());
    assert!(tried > 30_000, "only {tried} mutants");
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}
