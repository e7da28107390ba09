//! A mutational harness on the stable toolchain: every example answer of the published service (the V1–V3 fixtures
//! of gateway-client) is mutated deterministically, structure-aware (extreme numbers and strings, wrong types, missing
//! and duplicated parts) and byte by byte, and each mutant goes through every reader of gateway answers and what the
//! app builds from them: quotes and their cards, the app's loss check, create-order answers and their verification
//! against a quote, orders and their views, order pages, register-tx answers, error details. None may panic.
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

/// Every reader of a gateway answer, and what the app builds from it, on `value`.
fn read_everything(value: &Value, quotes: &[Quote]) {
    if let Ok(quote) = Quote::from_json(value.clone()) {
        let card = QuoteCard::new(&quote);
        let _ = serde_json::to_string(&card);
        let _ = desk_core::verify::request::loss_check(&quote);
        let _ = quote.view().fee_lines();
    }
    if let Ok(created) = CreateOrderResponse::from_value(value) {
        for quote in quotes {
            if quote.view().route() == created.route() {
                let _ = desk_core::verify::verify_order(quote, &created, BitcoinNetwork::Mainnet);
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
        for info in &page.orders {
            let _ =
                OrderView::from_gateway("sandbox", info, value, desk_core::api::RouteKind::Onramp);
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

#[test]
fn no_mutant_of_a_real_answer_panics_any_reader() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 40, "{} fixtures", fixtures.len());
    // The genuine quotes, to verify mutated create-order answers against (and mutated quotes against them).
    let quotes: Vec<Quote> = fixtures
        .iter()
        .filter_map(|(_, text)| serde_json::from_str::<Value>(text).ok())
        .filter_map(|value| Quote::from_json(value).ok())
        .collect();
    assert!(quotes.len() >= 6, "{} genuine quotes", quotes.len());
    // Quiet the default hook: a panic is reported below with its mutant.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut tried = 0usize;
    let mut panics = Vec::new();
    for (name, text) in &fixtures {
        let Ok(genuine) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        for n in 0..MUTANTS_PER_FIXTURE {
            let mutant = if n % 4 == 3 {
                match byte_mutant(text, &mut rng) {
                    Some(mutant) => mutant,
                    None => continue,
                }
            } else {
                let mut mutant = genuine.clone();
                for _ in 0..=rng.below(3) {
                    mutate(&mut mutant, &mut rng, 0);
                }
                mutant
            };
            tried += 1;
            if let Err(payload) =
                catch_unwind(AssertUnwindSafe(|| read_everything(&mutant, &quotes)))
            {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                let shown = mutant.to_string();
                panics.push(format!(
                    "{name} #{n}: {message}: {}",
                    &shown[..shown.len().min(600)]
                ));
            }
        }
    }
    std::panic::set_hook(hook);
    println!("{tried} mutants of {} fixtures", fixtures.len());
    assert!(tried > 30_000, "only {tried} mutants");
    assert!(
        panics.is_empty(),
        "{} panics:\n{}",
        panics.len(),
        panics.join("\n")
    );
}
