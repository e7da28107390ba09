//! The order journal: an append-only event log plus a current view per order, in SQLite (WAL) in the data folder.
//!
//! Every step that creates state on the gateway is written before it runs and after it answers, so that after a crash
//! at any point the journal knows each unfinished order's one next step ([`NextStep`]). Everything the gateway said
//! is kept as received (raw JSON): the accepted quote, the create-order answer, the registration answer and every
//! status seen.
//!
//! # Stages
//!
//! ```text
//! Quoted ─create_started→ Creating ─create_answered→ Created ─verified→ Verified ─tx_handed_in→ TxHandedIn
//!   │                        │  └─create_failed(ambiguous)→ CreateUnknown ─create_answered→ Created │
//!   │                        │                                 ├─order_found(unpaid)→ Abandoned      │
//!   │                        │                                 └─order_found(paid)→ Registered/Finished
//!   │                        └─create_failed→ Abandoned        Created ─verify_failed→ Refused       │
//!   └─abandon→ Abandoned     (abandon: also from CreateUnknown, Created, Verified, Refused)   register_started
//! Registered ←register_answered─ Registering ←──────────────────────────────────────────────────────┘
//!     │                           └─register_failed (refused) → Verified (hand in another transaction)
//!     └─status_seen(terminal)→ Finished ─acknowledge→ (failed or refunded: read by the person)
//! ```
//!
//! A status can be seen at any stage from Created on (the tracker may read the order first); a terminal status
//! finishes the order wherever it is, except an abandoned order that the gateway shows unpaid (it expired).
//!
//! An order is abandoned ([`Journal::abandon`], [`Journal::abandon_by_person`]) only while no money can have moved
//! for it ([`abandon_refusal`]): nothing is sent to the gateway, whose order (if there is one) expires unpaid. Once a
//! payment was signed by the app's wallet, a transaction handed in, or the gateway shows a source transaction, the
//! order is followed to its end instead. An approval alone moves no money; it stays on chain and the reason says so.

use std::path::Path;
use std::sync::Mutex;

use gateway_client::ApiVersion;
use gateway_client::wire::RouteKind;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;
use tracing::{debug, info};

mod ledger;
mod order;
mod policy;
mod stage;

/// The journal's schema, one migration per entry; `PRAGMA user_version` says how many ran.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE orders (
    local_id     INTEGER PRIMARY KEY,
    network      TEXT NOT NULL,
    api_version  TEXT NOT NULL,
    route        TEXT NOT NULL,
    order_id     TEXT,
    stage        TEXT NOT NULL,
    addresses    TEXT NOT NULL,
    quote        TEXT NOT NULL,
    created      TEXT,
    verified     TEXT,
    handed_in    TEXT,
    registration TEXT,
    status       TEXT,
    status_label TEXT,
    last_error   TEXT,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX orders_by_gateway_id ON orders(network, order_id) WHERE order_id IS NOT NULL;
CREATE INDEX orders_by_stage ON orders(network, stage);
CREATE TABLE events (
    seq      INTEGER PRIMARY KEY,
    local_id INTEGER NOT NULL REFERENCES orders(local_id),
    at       INTEGER NOT NULL,
    kind     TEXT NOT NULL,
    payload  TEXT NOT NULL
);
CREATE INDEX events_by_order ON events(local_id, seq);
"#,
    r#"
ALTER TABLE orders ADD COLUMN wallet_txs TEXT;
"#,
];

pub use crate::execute::ledger::{WalletTx, WalletTxKind, WalletTxState};
pub use order::{HandedIn, JournalEvent, JournalOrder};
pub use policy::{
    ABANDONABLE, abandon_refusal, abandoned_by_person_reason, gateway_payment, is_acknowledged,
    may_abandon, registered_at,
};
pub use stage::{NextStep, Stage};

/// Why the journal could not do something.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// SQLite could not open, read or write the journal's file.
    #[error(
        "the order journal could not be opened or written ({0}); check that the data folder is writable and not full"
    )]
    Sqlite(#[from] rusqlite::Error),
    /// The journal's schema is newer than this build knows, so it is not touched.
    #[error(
        "the order journal was written by a newer version of Gateway Desk (schema {found}, this version knows {known}); update the app"
    )]
    Newer {
        /// The schema version found in the file.
        found: i64,
        /// The newest schema version this build knows.
        known: i64,
    },
    /// No order has this journal id.
    #[error("no order {0} in the journal")]
    NotFound(i64),
    /// The step was asked for an order at a stage that does not allow it.
    #[error("order {local_id} is at the stage {stage:?}; it cannot {action} now")]
    WrongStage {
        /// The order's journal id.
        local_id: i64,
        /// The stage it is at.
        stage: Stage,
        /// What was asked, as the end of a sentence ("take a second transaction …").
        action: &'static str,
    },
    /// The journal holds something this build cannot read back (an unknown stage, route or API version, a wallet
    /// transaction that is not there), with what it is.
    #[error("the journal holds a value it cannot read ({0})")]
    Corrupt(String),
    /// The step is not allowed for this order now; `reason` says why and what to do instead.
    #[error("{reason}")]
    Refused {
        /// The order's journal id.
        local_id: i64,
        /// Why, and what to do instead, as sentences for a person.
        reason: String,
    },
}

fn now() -> i64 {
    crate::calendar::now_secs()
}

fn route_text(route: RouteKind) -> &'static str {
    route.as_str()
}

fn parse_route(text: &str) -> Option<RouteKind> {
    [RouteKind::Onramp, RouteKind::Offramp, RouteKind::TokenSwap]
        .into_iter()
        .find(|r| r.as_str() == text)
}

fn parse_version(text: &str) -> Option<ApiVersion> {
    ApiVersion::ALL.into_iter().find(|v| v.as_str() == text)
}

/// The order journal.
#[derive(Debug)]
pub struct Journal {
    conn: Mutex<Connection>,
}

const ORDER_COLUMNS: &str = "local_id, network, api_version, route, order_id, stage, addresses, quote, created, \
     verified, handed_in, registration, status, status_label, last_error, created_at, updated_at, wallet_txs";

/// [`ORDER_COLUMNS`] without the large answers and the addresses (read as `NULL` and `[]`).
const SUMMARY_COLUMNS: &str = "local_id, network, api_version, route, order_id, stage, '[]', quote, NULL, NULL, \
     NULL, NULL, status, status_label, last_error, created_at, updated_at, NULL";

impl Journal {
    /// Opens (or creates) the journal at `path`: WAL mode, foreign keys on, migrations applied.
    pub fn open(path: &Path) -> Result<Self, JournalError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| {
                JournalError::Sqlite(rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
            })?;
        }
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        Self::prepare(conn)
    }

    /// A journal in memory (tests).
    pub fn open_in_memory() -> Result<Self, JournalError> {
        Self::prepare(Connection::open_in_memory()?)
    }

    fn prepare(mut conn: Connection) -> Result<Self, JournalError> {
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let done: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX);
        if done > known {
            return Err(JournalError::Newer { found: done, known });
        }
        for (i, migration) in MIGRATIONS
            .iter()
            .enumerate()
            .skip(usize::try_from(done).unwrap_or(0))
        {
            let tx = conn.transaction()?;
            tx.execute_batch(migration)?;
            tx.pragma_update(None, "user_version", i + 1)?;
            tx.commit()?;
            info!(version = i + 1, "journal migrated");
        }
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records an accepted quote: the start of an order. Gives the journal's id for it.
    pub fn accept_quote(
        &self,
        network: &str,
        version: ApiVersion,
        route: RouteKind,
        addresses: &[String],
        quote: &Value,
    ) -> Result<i64, JournalError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let at = now();
        tx.execute(
            "INSERT INTO orders (network, api_version, route, stage, addresses, quote, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            params![
                network,
                version.as_str(),
                route_text(route),
                Stage::Quoted.as_str(),
                serde_json::to_string(addresses).expect("strings serialize"),
                quote.to_string(),
                at
            ],
        )?;
        let id = tx.last_insert_rowid();
        append(&tx, id, at, "quoteAccepted", quote)?;
        tx.commit()?;
        debug!(local_id = id, network, "quote journaled");
        Ok(id)
    }

    /// Runs one change: checks the stage is one of `from`, appends the event and updates the view, atomically.
    fn step(
        &self,
        id: i64,
        from: &[Stage],
        action: &'static str,
        kind: &str,
        payload: &Value,
        update: impl FnOnce(&rusqlite::Transaction<'_>, i64) -> rusqlite::Result<()>,
    ) -> Result<JournalOrder, JournalError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let stage: String = tx
            .query_row("SELECT stage FROM orders WHERE local_id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or(JournalError::NotFound(id))?;
        let stage = Stage::parse(&stage).ok_or_else(|| JournalError::Corrupt(stage.clone()))?;
        if !from.contains(&stage) {
            return Err(JournalError::WrongStage {
                local_id: id,
                stage,
                action,
            });
        }
        let at = now();
        append(&tx, id, at, kind, payload)?;
        update(&tx, at)?;
        tx.execute(
            "UPDATE orders SET updated_at = ?2 WHERE local_id = ?1",
            params![id, at],
        )?;
        let order = read_order(&tx, id)?;
        tx.commit()?;
        debug!(local_id = id, kind, stage = ?order.stage, "journaled");
        Ok(order)
    }

    fn set_stage(tx: &rusqlite::Transaction<'_>, id: i64, stage: Stage) -> rusqlite::Result<()> {
        tx.execute(
            "UPDATE orders SET stage = ?2 WHERE local_id = ?1",
            params![id, stage.as_str()],
        )
        .map(|_| ())
    }

    /// Before create-order is sent.
    pub fn create_started(&self, id: i64) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::Quoted],
            "be created",
            "createStarted",
            &Value::Null,
            |tx, _| Self::set_stage(tx, id, Stage::Creating),
        )
    }

    /// create-order answered: the raw answer and the gateway's order id.
    pub fn create_answered(
        &self,
        id: i64,
        order_id: &str,
        answer: &Value,
    ) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::Creating, Stage::CreateUnknown],
            "record a create-order answer",
            "createAnswered",
            answer,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, order_id = ?3, created = ?4, last_error = NULL WHERE local_id = ?1",
                    params![id, Stage::Created.as_str(), order_id, answer.to_string()],
                )
                .map(|_| ())
            },
        )
    }

    /// create-order failed. `ambiguous`: it may have created the order (the answer was lost), so the order is not
    /// given up but waits for [`Self::create_answered`] (found later) or [`Self::abandon`] (confirmed absent).
    pub fn create_failed(
        &self,
        id: i64,
        error: &str,
        details: &Value,
        ambiguous: bool,
    ) -> Result<JournalOrder, JournalError> {
        let stage = if ambiguous {
            Stage::CreateUnknown
        } else {
            Stage::Abandoned
        };
        let payload =
            serde_json::json!({"error": error, "details": details, "ambiguous": ambiguous});
        self.step(
            id,
            &[Stage::Creating, Stage::CreateUnknown],
            "record a create-order failure",
            "createFailed",
            &payload,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, last_error = ?3 WHERE local_id = ?1",
                    params![id, stage.as_str(), error],
                )
                .map(|_| ())
            },
        )
    }

    /// What the gateway asks to be signed matches the quote; `summary` says what it does.
    pub fn verified(&self, id: i64, summary: &Value) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::Created, Stage::Verified],
            "be verified",
            "verified",
            summary,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, verified = ?3 WHERE local_id = ?1",
                    params![id, Stage::Verified.as_str(), summary.to_string()],
                )
                .map(|_| ())
            },
        )
    }

    /// What the gateway asks to be signed does not match the quote: the order is not to be signed.
    pub fn verify_failed(&self, id: i64, reason: &str) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::Created, Stage::Verified],
            "be refused",
            "verifyFailed",
            &serde_json::json!({ "reason": reason }),
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, last_error = ?3 WHERE local_id = ?1",
                    params![id, Stage::Refused.as_str(), reason],
                )
                .map(|_| ())
            },
        )
    }

    /// The user handed in the signed transaction or its id (before it is registered).
    pub fn tx_handed_in(&self, id: i64, handed: &HandedIn) -> Result<JournalOrder, JournalError> {
        let value = serde_json::to_value(handed).expect("serializes");
        self.step(
            id,
            &[Stage::Verified, Stage::TxHandedIn],
            "take a transaction",
            "txHandedIn",
            &value,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, handed_in = ?3, last_error = NULL WHERE local_id = ?1",
                    params![id, Stage::TxHandedIn.as_str(), value.to_string()],
                )
                .map(|_| ())
            },
        )
    }

    /// A transaction the wallet signed, journaled before it is broadcast. Only a verified order takes one, and
    /// never while an earlier one of the order is still unresolved (signed or sent without a receipt).
    pub fn wallet_tx_signed(
        &self,
        id: i64,
        signed: &WalletTx,
    ) -> Result<JournalOrder, JournalError> {
        let value = serde_json::to_value(signed).expect("serializes");
        let order = self.order(id)?;
        if order
            .wallet_txs
            .iter()
            .any(|t| matches!(t.state, WalletTxState::Signed | WalletTxState::Sent))
        {
            return Err(JournalError::WrongStage {
                local_id: id,
                stage: order.stage,
                action: "take a second transaction before the first has a receipt",
            });
        }
        let mut all = order.wallet_txs;
        all.push(signed.clone());
        let list = serde_json::to_string(&all).expect("serializes");
        self.step(
            id,
            &[Stage::Verified],
            "take a signed transaction",
            "walletTxSigned",
            &value,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET wallet_txs = ?2 WHERE local_id = ?1",
                    params![id, list],
                )
                .map(|_| ())
            },
        )
    }

    /// A journaled wallet transaction moved on: broadcast, mined or reverted.
    pub fn wallet_tx_update(
        &self,
        id: i64,
        hash: &str,
        state: WalletTxState,
        block: Option<u64>,
        reason: Option<&str>,
    ) -> Result<JournalOrder, JournalError> {
        let mut all = self.order(id)?.wallet_txs;
        let Some(entry) = all.iter_mut().find(|t| t.hash == hash) else {
            return Err(JournalError::Corrupt(format!(
                "order {id} has no wallet transaction {hash}"
            )));
        };
        entry.state = state;
        entry.block = block.or(entry.block);
        if let Some(reason) = reason {
            entry.reason = Some(reason.to_owned());
        }
        let list = serde_json::to_string(&all).expect("serializes");
        let kind = match state {
            WalletTxState::Signed => "walletTxSigned",
            WalletTxState::Sent => "walletTxSent",
            WalletTxState::Mined => "walletTxMined",
            WalletTxState::Reverted => "walletTxReverted",
        };
        let error = (state == WalletTxState::Reverted).then(|| {
            format!(
                "The transaction {hash} reverted{}: it did nothing but cost its gas.",
                reason.map(|r| format!(" ({r})")).unwrap_or_default()
            )
        });
        self.step(
            id,
            &[
                Stage::Verified,
                Stage::TxHandedIn,
                Stage::Registering,
                Stage::Registered,
                Stage::Finished,
            ],
            "record a wallet transaction",
            kind,
            &serde_json::json!({ "hash": hash, "block": block, "reason": reason }),
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET wallet_txs = ?2, last_error = COALESCE(?3, last_error) WHERE local_id = ?1",
                    params![id, list, error],
                )
                .map(|_| ())
            },
        )
    }

    /// Before register-tx is sent.
    pub fn register_started(&self, id: i64, body: &Value) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::TxHandedIn, Stage::Registering],
            "be registered",
            "registerStarted",
            body,
            |tx, _| Self::set_stage(tx, id, Stage::Registering),
        )
    }

    /// register-tx answered.
    pub fn register_answered(&self, id: i64, answer: &Value) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::Registering],
            "record a registration",
            "registerAnswered",
            answer,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, registration = ?3, last_error = NULL WHERE local_id = ?1",
                    params![id, Stage::Registered.as_str(), answer.to_string()],
                )
                .map(|_| ())
            },
        )
    }

    /// V4: an offramp's or token swap's transaction is not registered (the gateway reads it from its chain). The order
    /// goes on as registered, with `note` (the chain and hash, and why nothing was sent) kept as its registration.
    pub fn left_to_the_chain(&self, id: i64, note: &Value) -> Result<JournalOrder, JournalError> {
        self.step(
            id,
            &[Stage::TxHandedIn],
            "be left to the gateway's chain reading",
            "leftToTheChain",
            note,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, registration = ?3, last_error = NULL WHERE local_id = ?1",
                    params![id, Stage::Registered.as_str(), note.to_string()],
                )
                .map(|_| ())
            },
        )
    }

    /// register-tx failed. Refused by the gateway (`ambiguous` false): the transaction goes back to the user (hand in
    /// another); lost in transit: stays Registering (register again: the same transaction twice is harmless).
    pub fn register_failed(
        &self,
        id: i64,
        error: &str,
        details: &Value,
        ambiguous: bool,
    ) -> Result<JournalOrder, JournalError> {
        let stage = if ambiguous {
            Stage::Registering
        } else {
            Stage::Verified
        };
        let payload =
            serde_json::json!({"error": error, "details": details, "ambiguous": ambiguous});
        self.step(
            id,
            &[Stage::Registering],
            "record a registration failure",
            "registerFailed",
            &payload,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, last_error = ?3 WHERE local_id = ?1",
                    params![id, stage.as_str(), error],
                )
                .map(|_| ())
            },
        )
    }

    /// The order as read from the gateway. Journaled only when it differs from the last one seen; a terminal status
    /// finishes the order. Gives the order, and whether it changed.
    pub fn status_seen(
        &self,
        id: i64,
        order: &Value,
        label: &str,
        terminal: bool,
    ) -> Result<(JournalOrder, bool), JournalError> {
        let current = self.order(id)?;
        if current.status.as_ref() == Some(order) {
            return Ok((current, false));
        }
        // An abandoned order is left to expire: what the gateway says of it is not news (it is not journaled), unless
        // it shows the order paid after all; then it is followed to its end like any other.
        let next = match (terminal, current.stage == Stage::Abandoned) {
            (_, true) if gateway_payment(Some(order)).is_none() => return Ok((current, false)),
            (true, _) => Some(Stage::Finished),
            (false, true) => Some(Stage::Registered),
            // An offramp's success taken back (its payout evicted from the mempool): under way again.
            (false, false) if current.stage == Stage::Finished => Some(Stage::Registered),
            (false, false) => None,
        };
        let order = self.step(
            id,
            &[
                Stage::Created,
                Stage::Verified,
                Stage::Refused,
                Stage::TxHandedIn,
                Stage::Registering,
                Stage::Registered,
                Stage::Finished,
                Stage::CreateUnknown,
                Stage::Abandoned,
            ],
            "take a status",
            "statusSeen",
            order,
            |tx, _| {
                tx.execute(
                    "UPDATE orders SET status = ?2, status_label = ?3 WHERE local_id = ?1",
                    params![id, order.to_string(), label],
                )?;
                if let Some(stage) = next {
                    Self::set_stage(tx, id, stage)?;
                }
                Ok(())
            },
        )?;
        Ok((order, true))
    }

    /// Gives up an order for which no money can have moved (see [`abandon_refusal`]), recording `reason`; the
    /// app's own decision (a creation found to have failed, say). Nothing is sent to the gateway. An order already
    /// given up is given back as it is.
    pub fn abandon(&self, id: i64, reason: &str) -> Result<JournalOrder, JournalError> {
        self.abandon_with(id, "app", |_| reason.to_owned())
    }

    /// Gives up an order because the person chose to (Abandon, Discard): allowed at [`ABANDONABLE`] stages while
    /// no money can have moved ([`abandon_refusal`], whose sentence the refusal carries). The reason recorded says
    /// the person abandoned it and that the gateway's order, if there is one, expires unpaid
    /// ([`abandoned_by_person_reason`]). Nothing is sent to the gateway. An order already given up is given back
    /// as it is.
    pub fn abandon_by_person(&self, id: i64) -> Result<JournalOrder, JournalError> {
        self.abandon_with(id, "person", abandoned_by_person_reason)
    }

    /// The check and the change of [`Self::abandon`] in one transaction, so that no wallet transaction can be
    /// journaled between them.
    fn abandon_with(
        &self,
        id: i64,
        by: &str,
        reason: impl FnOnce(&JournalOrder) -> String,
    ) -> Result<JournalOrder, JournalError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let order = read_order(&tx, id)?;
        if order.stage == Stage::Abandoned {
            return Ok(order);
        }
        if let Some(why) = abandon_refusal(&order) {
            return Err(JournalError::Refused {
                local_id: id,
                reason: why,
            });
        }
        let reason = reason(&order);
        let at = now();
        append(
            &tx,
            id,
            at,
            "abandoned",
            &serde_json::json!({ "reason": reason, "by": by }),
        )?;
        tx.execute(
            "UPDATE orders SET stage = ?2, last_error = ?3, updated_at = ?4 WHERE local_id = ?1",
            params![id, Stage::Abandoned.as_str(), reason, at],
        )?;
        let order = read_order(&tx, id)?;
        tx.commit()?;
        info!(local_id = id, by, "order abandoned");
        Ok(order)
    }

    /// After an uncertain creation (create-order's answer lost): the order was found among the gateway's orders of
    /// the quote's address. `listed` is the order as listed, `label` its status in a word. What to sign was lost with
    /// the answer, so an unpaid order cannot be signed: it is given up with `found`'s reason and left to expire. An
    /// order the listing shows paid (money moved) is watched instead: registered, or finished when its status is
    /// terminal.
    pub fn order_found(
        &self,
        id: i64,
        order_id: &str,
        listed: &Value,
        label: &str,
        found: Found<'_>,
    ) -> Result<JournalOrder, JournalError> {
        let (stage, paid, reason) = match found {
            Found::Unpaid { reason } => (Stage::Abandoned, false, Some(reason)),
            Found::Paid { terminal: true } => (Stage::Finished, true, None),
            Found::Paid { terminal: false } => (Stage::Registered, true, None),
        };
        self.step(
            id,
            &[Stage::CreateUnknown],
            "record an order found by listing",
            "orderFound",
            &serde_json::json!({ "orderId": order_id, "order": listed, "paid": paid }),
            |tx, at| {
                tx.execute(
                    "UPDATE orders SET stage = ?2, order_id = ?3, status = ?4, status_label = ?5, \
                     last_error = ?6 WHERE local_id = ?1",
                    params![
                        id,
                        stage.as_str(),
                        order_id,
                        listed.to_string(),
                        label,
                        reason
                    ],
                )?;
                if let Some(reason) = reason {
                    append(
                        tx,
                        id,
                        at,
                        "abandoned",
                        &serde_json::json!({ "reason": reason, "by": "app" }),
                    )?;
                }
                Ok(())
            },
        )
    }

    /// The person read what happened to a failed or refunded order ("I've read this"): journaled once as
    /// `acknowledged`; a second call changes nothing. Any other order is refused with a sentence.
    pub fn acknowledge(&self, id: i64) -> Result<JournalOrder, JournalError> {
        let order = self.order(id)?;
        let ended = matches!(order.status_label.as_deref(), Some("failed" | "refunded"));
        if order.stage != Stage::Finished || !ended {
            return Err(JournalError::Refused {
                local_id: id,
                reason: "Only a failed or refunded order is acknowledged; this order has nothing to read. \
                         Refresh the list."
                    .into(),
            });
        }
        if is_acknowledged(&self.events(id)?) {
            return Ok(order);
        }
        self.step(
            id,
            &[Stage::Finished],
            "be acknowledged",
            "acknowledged",
            &Value::Null,
            |_, _| Ok(()),
        )
    }

    /// The orders of `network` whose creation is unresolved (being created, or create-order's answer lost), oldest
    /// first.
    pub fn unresolved_creations(&self, network: &str) -> Result<Vec<JournalOrder>, JournalError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(&format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE network = ?1 AND stage IN (?2, ?3) ORDER BY local_id"
        ))?;
        let rows = stmt.query_map(
            params![
                network,
                Stage::Creating.as_str(),
                Stage::CreateUnknown.as_str()
            ],
            row_to_order,
        )?;
        rows.map(|r| r.map_err(JournalError::from).and_then(|o| o))
            .collect()
    }

    /// The current view of one order.
    pub fn order(&self, id: i64) -> Result<JournalOrder, JournalError> {
        let conn = self.lock();
        read_order(&conn, id)
    }

    /// The order with the gateway id `order_id` on `network`.
    pub fn find(
        &self,
        network: &str,
        order_id: &str,
    ) -> Result<Option<JournalOrder>, JournalError> {
        let conn = self.lock();
        let id: Option<i64> = conn
            .query_row(
                "SELECT local_id FROM orders WHERE network = ?1 AND order_id = ?2",
                params![network, order_id],
                |r| r.get(0),
            )
            .optional()?;
        id.map(|id| read_order(&conn, id)).transpose()
    }

    /// Every order of `network` (every network when `None`), newest first.
    pub fn orders(&self, network: Option<&str>) -> Result<Vec<JournalOrder>, JournalError> {
        let conn = self.lock();
        let sql = format!(
            "SELECT {ORDER_COLUMNS} FROM orders WHERE (?1 IS NULL OR network = ?1) ORDER BY local_id DESC"
        );
        let mut stmt = conn.prepare(&sql)?;
        let rows = stmt.query_map(params![network], row_to_order)?;
        rows.map(|r| r.map_err(JournalError::from).and_then(|o| o))
            .collect()
    }

    /// The orders of `network` the gateway has (those with an order id), newest first, with only what summaries
    /// such as the partner dashboard read: the accepted quote and the last status. The large answers (`created`,
    /// `verified`, `handed_in`, `registration`) and the addresses are left out (`None`, empty), which makes reading
    /// thousands of orders several times faster than [`Self::orders`].
    pub fn order_summaries(
        &self,
        network: Option<&str>,
    ) -> Result<Vec<JournalOrder>, JournalError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(&format!(
            "SELECT {SUMMARY_COLUMNS} FROM orders WHERE (?1 IS NULL OR network = ?1) AND order_id IS NOT NULL \
             ORDER BY local_id DESC"
        ))?;
        let rows = stmt.query_map(params![network], row_to_order)?;
        rows.map(|r| r.map_err(JournalError::from).and_then(|o| o))
            .collect()
    }

    /// A stamp per order of `network` the gateway has (an order id): its local id and what changes whenever the
    /// order does (last update, stage, status word), so a reader can keep what it derived from unchanged orders.
    pub fn order_stamps(&self, network: Option<&str>) -> Result<Vec<(i64, String)>, JournalError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT local_id, updated_at || '/' || stage || '/' || COALESCE(status_label, '') FROM orders \
             WHERE (?1 IS NULL OR network = ?1) AND order_id IS NOT NULL",
        )?;
        let rows = stmt.query_map(params![network], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.map(|r| r.map_err(JournalError::from)).collect()
    }

    /// [`Self::order_summaries`] of the orders `ids` only (those that exist), in no particular order.
    pub fn order_summaries_of(&self, ids: &[i64]) -> Result<Vec<JournalOrder>, JournalError> {
        let conn = self.lock();
        let mut found = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(500) {
            let marks = vec!["?"; chunk.len()].join(",");
            let mut stmt = conn.prepare(&format!(
                "SELECT {SUMMARY_COLUMNS} FROM orders WHERE local_id IN ({marks})"
            ))?;
            let rows = stmt.query_map(rusqlite::params_from_iter(chunk), row_to_order)?;
            for row in rows {
                found.push(row.map_err(JournalError::from).and_then(|o| o)?);
            }
        }
        Ok(found)
    }

    /// The orders of `network` with something left to do, oldest first, each with its one next step.
    pub fn unfinished(
        &self,
        network: Option<&str>,
    ) -> Result<Vec<(JournalOrder, NextStep)>, JournalError> {
        let mut list: Vec<(JournalOrder, NextStep)> = self
            .orders(network)?
            .into_iter()
            .filter_map(|o| o.next_step().map(|step| (o, step)))
            .collect();
        list.reverse();
        Ok(list)
    }

    /// The log of one order, in order.
    pub fn events(&self, id: i64) -> Result<Vec<JournalEvent>, JournalError> {
        let conn = self.lock();
        let mut stmt = conn.prepare(
            "SELECT seq, local_id, at, kind, payload FROM events WHERE local_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([id], |r| {
            let payload: String = r.get(4)?;
            Ok(JournalEvent {
                seq: r.get(0)?,
                local_id: r.get(1)?,
                at: r.get(2)?,
                kind: r.get(3)?,
                payload: serde_json::from_str(&payload).unwrap_or(Value::String(payload)),
            })
        })?;
        rows.map(|r| r.map_err(JournalError::from)).collect()
    }
}

/// How an order found after an uncertain creation is recorded ([`Journal::order_found`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found<'a> {
    /// Nothing was paid: given up with this reason (it names the gateway's order and says it will expire).
    Unpaid {
        /// Why the order was given up, as journaled and shown.
        reason: &'a str,
    },
    /// The gateway shows money moving: watched to its end (`terminal`: it has ended).
    Paid {
        /// The order has already reached an ending status (finished, not watched further).
        terminal: bool,
    },
}

fn append(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    at: i64,
    kind: &str,
    payload: &Value,
) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO events (local_id, at, kind, payload) VALUES (?1, ?2, ?3, ?4)",
        params![id, at, kind, payload.to_string()],
    )
    .map(|_| ())
}

fn read_order(conn: &Connection, id: i64) -> Result<JournalOrder, JournalError> {
    let sql = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE local_id = ?1");
    conn.query_row(&sql, [id], row_to_order)
        .optional()?
        .ok_or(JournalError::NotFound(id))?
}

fn json_column(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Option<Value>> {
    let text: Option<String> = r.get(i)?;
    Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
}

/// One row as an order; a value the journal cannot read is [`JournalError::Corrupt`] rather than a panic.
fn row_to_order(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<JournalOrder, JournalError>> {
    let version: String = r.get(2)?;
    let route: String = r.get(3)?;
    let stage: String = r.get(5)?;
    let addresses: String = r.get(6)?;
    let quote: String = r.get(7)?;
    let handed_in = json_column(r, 10)?;
    let (Some(api_version), Some(route_kind), Some(stage_kind)) = (
        parse_version(&version),
        parse_route(&route),
        Stage::parse(&stage),
    ) else {
        return Ok(Err(JournalError::Corrupt(format!(
            "order {}: version {version:?}, route {route:?}, stage {stage:?}",
            r.get::<_, i64>(0)?
        ))));
    };
    Ok(Ok(JournalOrder {
        local_id: r.get(0)?,
        network: r.get(1)?,
        api_version,
        route: route_kind,
        order_id: r.get(4)?,
        stage: stage_kind,
        addresses: serde_json::from_str(&addresses).unwrap_or_default(),
        quote: serde_json::from_str(&quote).unwrap_or(Value::String(quote)),
        created: json_column(r, 8)?,
        verified: json_column(r, 9)?,
        handed_in: handed_in.and_then(|v| serde_json::from_value(v).ok()),
        registration: json_column(r, 11)?,
        status: json_column(r, 12)?,
        status_label: r.get(13)?,
        last_error: r.get(14)?,
        created_at: r.get(15)?,
        updated_at: r.get(16)?,
        wallet_txs: json_column(r, 17)?
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn quote() -> Value {
        json!({"tokenSwap": {"inputAmount": {"amount": "5"}, "txTo": "0x1"}})
    }

    fn journal() -> Journal {
        Journal::open_in_memory().unwrap()
    }

    #[test]
    fn an_order_walks_every_stage_and_each_step_is_logged() {
        let j = journal();
        let id = j
            .accept_quote(
                "sandbox",
                ApiVersion::V3,
                RouteKind::TokenSwap,
                &["0xabc".into()],
                &quote(),
            )
            .unwrap();
        assert_eq!(j.order(id).unwrap().stage, Stage::Quoted);
        assert!(
            j.unfinished(None).unwrap().is_empty(),
            "nothing on the gateway yet"
        );
        assert_eq!(
            j.create_started(id).unwrap().next_step(),
            Some(NextStep::ConfirmCreation)
        );
        let created = json!({"tokenSwap": {"order_id": "o-1", "tx": {}}});
        let o = j.create_answered(id, "o-1", &created).unwrap();
        assert_eq!(
            (o.stage, o.order_id.as_deref()),
            (Stage::Created, Some("o-1"))
        );
        assert_eq!(o.next_step(), Some(NextStep::SignAndHandIn));
        j.verified(id, &json!({"to": "0x1"})).unwrap();
        let handed = HandedIn::SourceTx {
            chain: "bob".into(),
            hash: format!("0x{}", "1".repeat(64)),
        };
        assert_eq!(
            j.tx_handed_in(id, &handed).unwrap().next_step(),
            Some(NextStep::Register)
        );
        j.register_started(id, &json!({"tokenSwap": {}})).unwrap();
        assert_eq!(
            j.register_answered(id, &json!("ok")).unwrap().next_step(),
            Some(NextStep::Watch)
        );
        let seen = json!({"id": "o-1", "status": {"inProgress": {}}});
        assert!(j.status_seen(id, &seen, "inProgress", false).unwrap().1);
        assert!(
            !j.status_seen(id, &seen, "inProgress", false).unwrap().1,
            "unchanged: not logged again"
        );
        let done = json!({"id": "o-1", "status": {"success": {"received_tokens": []}}});
        let (o, changed) = j.status_seen(id, &done, "success", true).unwrap();
        assert!(changed);
        assert_eq!((o.stage, o.next_step()), (Stage::Finished, None));
        assert_eq!(o.handed_in, Some(handed));

        let kinds: Vec<String> = j.events(id).unwrap().into_iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                "quoteAccepted",
                "createStarted",
                "createAnswered",
                "verified",
                "txHandedIn",
                "registerStarted",
                "registerAnswered",
                "statusSeen",
                "statusSeen"
            ]
        );
        assert_eq!(j.find("sandbox", "o-1").unwrap().unwrap().local_id, id);
        assert!(j.find("production", "o-1").unwrap().is_none());

        // A success taken back (an offramp's payout evicted from the mempool) puts the order under way again; the
        // success seen again finishes it again.
        let (o, changed) = j.status_seen(id, &seen, "inProgress", false).unwrap();
        assert!(changed);
        assert_eq!(
            (o.stage, o.next_step()),
            (Stage::Registered, Some(NextStep::Watch))
        );
        let (o, _) = j.status_seen(id, &done, "success", true).unwrap();
        assert_eq!(o.stage, Stage::Finished);
    }

    #[test]
    fn a_wallet_transaction_is_journaled_before_broadcast_and_a_second_waits_for_the_first() {
        let j = journal();
        let id = j
            .accept_quote("sandbox", ApiVersion::V3, RouteKind::Offramp, &[], &quote())
            .unwrap();
        let tx = |hash: &str| WalletTx {
            kind: WalletTxKind::Approve,
            chain: "bob".into(),
            hash: hash.into(),
            raw: "0x02".into(),
            nonce: 0,
            state: WalletTxState::Signed,
            block: None,
            reason: None,
        };
        // Only a verified order takes one.
        assert!(j.wallet_tx_signed(id, &tx("0x1")).is_err());
        j.create_started(id).unwrap();
        j.create_answered(id, "o-1", &json!({"offramp": {"order_id": "o-1"}}))
            .unwrap();
        j.verified(id, &json!({})).unwrap();
        let o = j.wallet_tx_signed(id, &tx("0x1")).unwrap();
        assert_eq!(o.wallet_txs, vec![tx("0x1")]);
        // A second signature waits until the first has a receipt.
        assert!(j.wallet_tx_signed(id, &tx("0x2")).is_err());
        j.wallet_tx_update(id, "0x1", WalletTxState::Sent, None, None)
            .unwrap();
        assert!(j.wallet_tx_signed(id, &tx("0x2")).is_err());
        let o = j
            .wallet_tx_update(
                id,
                "0x1",
                WalletTxState::Reverted,
                Some(7),
                Some("allowance too low"),
            )
            .unwrap();
        assert!(o.last_error.unwrap().contains("allowance too low"));
        assert_eq!(o.wallet_txs[0].block, Some(7));
        let o = j.wallet_tx_signed(id, &tx("0x2")).unwrap();
        assert_eq!(o.wallet_txs.len(), 2);
        let kinds: Vec<String> = j.events(id).unwrap().into_iter().map(|e| e.kind).collect();
        assert!(kinds.ends_with(&[
            "walletTxSigned".into(),
            "walletTxSent".into(),
            "walletTxReverted".into(),
            "walletTxSigned".into()
        ]));
        assert!(
            j.wallet_tx_update(id, "0x9", WalletTxState::Mined, None, None)
                .is_err()
        );
    }

    #[test]
    fn steps_out_of_order_are_refused_and_change_nothing() {
        let j = journal();
        let id = j
            .accept_quote("sandbox", ApiVersion::V3, RouteKind::Onramp, &[], &quote())
            .unwrap();
        let err = j.register_started(id, &Value::Null).unwrap_err();
        assert!(
            matches!(
                err,
                JournalError::WrongStage {
                    stage: Stage::Quoted,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(j.events(id).unwrap().len(), 1);
        assert!(matches!(j.order(99), Err(JournalError::NotFound(99))));
    }

    #[test]
    fn ambiguous_failures_keep_the_order_and_refusals_give_it_back() {
        let j = journal();
        let id = j
            .accept_quote("sandbox", ApiVersion::V3, RouteKind::Onramp, &[], &quote())
            .unwrap();
        j.create_started(id).unwrap();
        let o = j
            .create_failed(id, "no answer", &Value::Null, true)
            .unwrap();
        assert_eq!(
            (o.stage, o.next_step()),
            (Stage::CreateUnknown, Some(NextStep::ConfirmCreation))
        );
        j.create_answered(id, "o-2", &json!({})).unwrap();
        j.verified(id, &Value::Null).unwrap();
        j.tx_handed_in(
            id,
            &HandedIn::BitcoinTxid {
                txid: "ab".repeat(32),
            },
        )
        .unwrap();
        j.register_started(id, &Value::Null).unwrap();
        let o = j.register_failed(id, "lost", &Value::Null, true).unwrap();
        assert_eq!(o.next_step(), Some(NextStep::Register));
        j.register_started(id, &Value::Null).unwrap();
        let o = j
            .register_failed(
                id,
                "underpaid",
                &json!({"expected": "2", "actual": "1"}),
                false,
            )
            .unwrap();
        assert_eq!(
            (o.stage, o.next_step()),
            (Stage::Verified, Some(NextStep::SignAndHandIn))
        );
        assert_eq!(o.last_error.as_deref(), Some("underpaid"));

        let other = j
            .accept_quote("sandbox", ApiVersion::V3, RouteKind::Onramp, &[], &quote())
            .unwrap();
        j.create_started(other).unwrap();
        let o = j
            .create_failed(other, "NO_ROUTE", &Value::Null, false)
            .unwrap();
        assert_eq!((o.stage, o.next_step()), (Stage::Abandoned, None));
    }

    /// A new order of `j` taken to `stage` (through the steps that lead there), with order id `o-<local id>`.
    fn order_at(j: &Journal, stage: Stage) -> i64 {
        let id = j
            .accept_quote("sandbox", ApiVersion::V3, RouteKind::Offramp, &[], &quote())
            .unwrap();
        let order_id = format!("o-{id}");
        if stage == Stage::Quoted {
            return id;
        }
        j.create_started(id).unwrap();
        match stage {
            Stage::Creating => return id,
            Stage::CreateUnknown => {
                j.create_failed(id, "lost", &Value::Null, true).unwrap();
                return id;
            }
            _ => {}
        }
        j.create_answered(id, &order_id, &json!({})).unwrap();
        match stage {
            Stage::Created => return id,
            Stage::Refused => {
                j.verify_failed(id, "another recipient").unwrap();
                return id;
            }
            _ => {}
        }
        j.verified(id, &json!({})).unwrap();
        if stage == Stage::Verified {
            return id;
        }
        let handed = HandedIn::SourceTx {
            chain: "bob".into(),
            hash: format!("0x{}", "1".repeat(64)),
        };
        j.tx_handed_in(id, &handed).unwrap();
        if stage == Stage::TxHandedIn {
            return id;
        }
        j.register_started(id, &Value::Null).unwrap();
        if stage == Stage::Registering {
            return id;
        }
        j.register_answered(id, &json!("ok")).unwrap();
        if stage == Stage::Registered {
            return id;
        }
        let failed = json!({"id": order_id, "status": {"failed": {"refund_tx": null}}});
        j.status_seen(id, &failed, "failed", true).unwrap();
        assert_eq!(j.order(id).unwrap().stage, Stage::Finished);
        id
    }

    fn wallet_tx(kind: WalletTxKind, hash: &str, state: WalletTxState) -> WalletTx {
        WalletTx {
            kind,
            chain: "bob".into(),
            hash: hash.into(),
            raw: "0x02".into(),
            nonce: 0,
            state,
            block: None,
            reason: None,
        }
    }

    #[test]
    fn the_person_abandons_an_order_only_while_no_money_can_have_moved() {
        let j = journal();
        for stage in [
            Stage::Quoted,
            Stage::CreateUnknown,
            Stage::Created,
            Stage::Verified,
            Stage::Refused,
        ] {
            let id = order_at(&j, stage);
            assert!(ABANDONABLE.contains(&stage));
            assert!(may_abandon(&j.order(id).unwrap()), "{stage:?}");
            let o = j.abandon_by_person(id).unwrap();
            assert_eq!(
                (o.stage, o.next_step()),
                (Stage::Abandoned, None),
                "{stage:?}"
            );
            let reason = o.last_error.unwrap();
            assert!(
                reason.starts_with("Abandoned by you"),
                "{stage:?}: {reason}"
            );
            let event = j.events(id).unwrap().pop().unwrap();
            assert_eq!(event.kind, "abandoned");
            assert_eq!(event.payload["by"], "person");
            assert_eq!(event.payload["reason"], reason.as_str());
            match stage {
                Stage::Quoted => assert!(
                    reason.contains("nothing was sent to the gateway"),
                    "{reason}"
                ),
                Stage::CreateUnknown => assert!(reason.contains("will expire unpaid"), "{reason}"),
                _ => assert!(
                    reason.contains(&format!("the gateway's order o-{id} will expire unpaid")),
                    "{stage:?}: {reason}"
                ),
            }
            // Again: nothing more is journaled.
            let events = j.events(id).unwrap().len();
            assert_eq!(j.abandon_by_person(id).unwrap().stage, Stage::Abandoned);
            assert_eq!(j.events(id).unwrap().len(), events);
        }

        // Once something was handed in, registered or finished, or while it is being created: refused, unchanged,
        // with a sentence saying what to do instead.
        for (stage, words) in [
            (Stage::Creating, "choose Continue first"),
            (Stage::TxHandedIn, "money may have moved"),
            (Stage::Registering, "money may have moved"),
            (Stage::Registered, "money moved"),
            (Stage::Finished, "finished"),
        ] {
            let id = order_at(&j, stage);
            let events = j.events(id).unwrap().len();
            let err = j.abandon_by_person(id).unwrap_err();
            assert!(
                matches!(&err, JournalError::Refused { local_id, reason } if *local_id == id && reason.contains(words)),
                "{stage:?}: {err}"
            );
            assert!(!may_abandon(&j.order(id).unwrap()));
            assert_eq!(j.order(id).unwrap().stage, stage);
            assert_eq!(
                j.events(id).unwrap().len(),
                events,
                "{stage:?}: nothing journaled"
            );
            assert!(j.abandon(id, "the app's reason").is_err(), "{stage:?}");
        }
    }

    #[test]
    fn a_signed_payment_or_a_reported_source_transaction_refuses_abandoning_but_an_approval_does_not()
     {
        let j = journal();
        // The payment signed (journaled before broadcast), sent or mined: refused. Reverted: it moved nothing.
        for state in [
            WalletTxState::Signed,
            WalletTxState::Sent,
            WalletTxState::Mined,
        ] {
            let id = order_at(&j, Stage::Verified);
            j.wallet_tx_signed(
                id,
                &wallet_tx(WalletTxKind::Pay, "0xpay", WalletTxState::Signed),
            )
            .unwrap();
            if state != WalletTxState::Signed {
                j.wallet_tx_update(id, "0xpay", state, Some(1), None)
                    .unwrap();
            }
            let err = j.abandon_by_person(id).unwrap_err().to_string();
            assert!(
                err.contains("signed this order's payment (0xpay)"),
                "{state:?}: {err}"
            );
            assert!(err.contains("Continue"), "{err}");
        }
        let id = order_at(&j, Stage::Verified);
        j.wallet_tx_signed(
            id,
            &wallet_tx(WalletTxKind::Pay, "0xpay", WalletTxState::Signed),
        )
        .unwrap();
        j.wallet_tx_update(
            id,
            "0xpay",
            WalletTxState::Reverted,
            Some(1),
            Some("out of gas"),
        )
        .unwrap();
        assert_eq!(j.abandon_by_person(id).unwrap().stage, Stage::Abandoned);

        // An approval waiting for its receipt: finish it first. Mined: allowed, and the reason says it stays.
        let id = order_at(&j, Stage::Verified);
        j.wallet_tx_signed(
            id,
            &wallet_tx(WalletTxKind::Approve, "0xapprove", WalletTxState::Signed),
        )
        .unwrap();
        j.wallet_tx_update(id, "0xapprove", WalletTxState::Sent, None, None)
            .unwrap();
        let err = j.abandon_by_person(id).unwrap_err().to_string();
        assert!(
            err.contains("approve transaction 0xapprove is still waiting"),
            "{err}"
        );
        j.wallet_tx_update(id, "0xapprove", WalletTxState::Mined, Some(3), None)
            .unwrap();
        let reason = j.abandon_by_person(id).unwrap().last_error.unwrap();
        assert!(reason.contains("will expire unpaid"), "{reason}");
        assert!(
            reason.contains("approval you signed (0xapprove) stays on chain"),
            "{reason}"
        );
        // Once abandoned, the wallet takes no transaction for it.
        assert!(
            j.wallet_tx_signed(
                id,
                &wallet_tx(WalletTxKind::Pay, "0xlate", WalletTxState::Signed)
            )
            .is_err()
        );

        // The gateway reports a source transaction (paid from another wallet, not handed in): refused.
        let id = order_at(&j, Stage::Verified);
        let paid = json!({"id": format!("o-{id}"), "srcInfo": {"txHash": "0xsrc"}, "status": {"inProgress": {}}});
        j.status_seen(id, &paid, "inProgress", false).unwrap();
        let err = j.abandon_by_person(id).unwrap_err().to_string();
        assert!(
            err.contains("reports a payment for this order (0xsrc)"),
            "{err}"
        );
        assert_eq!(gateway_payment(None), None);
        assert_eq!(
            gateway_payment(Some(
                &json!({"status": {"inProgress": {"pending_btc_payment": null}}})
            )),
            None
        );
        assert!(gateway_payment(Some(&json!({"status": "refunded"}))).is_some());
    }

    #[test]
    fn an_order_found_after_an_uncertain_creation_is_given_up_unpaid_or_watched_when_paid() {
        let j = journal();
        let listed = json!({"id": "g-1", "status": {"inProgress": {"refund_tx": null}}});
        let reason = "The gateway created this order (g-1) ... will expire.";
        // Only an uncertain creation takes it.
        let created = order_at(&j, Stage::Created);
        assert!(
            j.order_found(
                created,
                "g-1",
                &listed,
                "inProgress",
                Found::Unpaid { reason }
            )
            .is_err()
        );

        let id = order_at(&j, Stage::CreateUnknown);
        let o = j
            .order_found(id, "g-1", &listed, "inProgress", Found::Unpaid { reason })
            .unwrap();
        assert_eq!(
            (o.stage, o.order_id.as_deref(), o.last_error.as_deref()),
            (Stage::Abandoned, Some("g-1"), Some(reason))
        );
        assert_eq!(o.status.as_ref(), Some(&listed));
        let kinds: Vec<String> = j.events(id).unwrap().into_iter().map(|e| e.kind).collect();
        assert!(
            kinds.ends_with(&["orderFound".into(), "abandoned".into()]),
            "{kinds:?}"
        );
        assert_eq!(j.find("sandbox", "g-1").unwrap().unwrap().local_id, id);
        // It expires on the gateway: it stays abandoned, and that is not news.
        let expired = json!({"id": "g-1", "status": {"failed": {"refund_tx": null}}});
        let events = j.events(id).unwrap().len();
        let (o, changed) = j.status_seen(id, &expired, "failed", true).unwrap();
        assert!(!changed);
        assert_eq!(
            (o.stage, o.status.as_ref()),
            (Stage::Abandoned, Some(&listed))
        );
        assert_eq!(j.events(id).unwrap().len(), events);

        let id = order_at(&j, Stage::CreateUnknown);
        let paid =
            json!({"id": "g-2", "srcInfo": {"txHash": "0xsrc"}, "status": {"inProgress": {}}});
        let o = j
            .order_found(
                id,
                "g-2",
                &paid,
                "inProgress",
                Found::Paid { terminal: false },
            )
            .unwrap();
        assert_eq!(
            (o.stage, o.next_step()),
            (Stage::Registered, Some(NextStep::Watch))
        );
        assert_eq!(o.last_error, None);
        let id = order_at(&j, Stage::CreateUnknown);
        let o = j
            .order_found(id, "g-3", &paid, "success", Found::Paid { terminal: true })
            .unwrap();
        assert_eq!(o.stage, Stage::Finished);
    }

    #[test]
    fn an_abandoned_order_the_gateway_shows_paid_after_all_is_followed() {
        let j = journal();
        let id = order_at(&j, Stage::Verified);
        j.abandon_by_person(id).unwrap();
        let paid = json!({"id": format!("o-{id}"), "srcInfo": {"txHash": "0xsrc"}, "status": {"inProgress": {}}});
        let (o, _) = j.status_seen(id, &paid, "inProgress", false).unwrap();
        assert_eq!(o.stage, Stage::Registered);
        let done = json!({"id": format!("o-{id}"), "srcInfo": {"txHash": "0xsrc"}, "status": {"refunded": {"refunded_tokens": []}}});
        let (o, _) = j.status_seen(id, &done, "refunded", true).unwrap();
        assert_eq!(o.stage, Stage::Finished);
    }

    #[test]
    fn only_a_failed_or_refunded_order_is_acknowledged_and_only_once() {
        let j = journal();
        for stage in [Stage::Verified, Stage::Registered] {
            let id = order_at(&j, stage);
            let err = j.acknowledge(id).unwrap_err();
            assert!(matches!(err, JournalError::Refused { .. }), "{err}");
        }
        let id = order_at(&j, Stage::Registered);
        let done = json!({"id": format!("o-{id}"), "status": {"success": {"received_tokens": []}}});
        j.status_seen(id, &done, "success", true).unwrap();
        assert!(
            j.acknowledge(id).is_err(),
            "a success needs no acknowledgement"
        );

        let id = order_at(&j, Stage::Finished); // failed
        assert!(!is_acknowledged(&j.events(id).unwrap()));
        let o = j.acknowledge(id).unwrap();
        assert_eq!(o.stage, Stage::Finished);
        let events = j.events(id).unwrap();
        assert!(is_acknowledged(&events));
        assert_eq!(events.last().unwrap().kind, "acknowledged");
        j.acknowledge(id).unwrap();
        assert_eq!(j.events(id).unwrap().len(), events.len(), "journaled once");
    }

    #[test]
    fn unresolved_creations_are_those_being_created_or_uncertain() {
        let j = journal();
        let creating = order_at(&j, Stage::Creating);
        let unknown = order_at(&j, Stage::CreateUnknown);
        order_at(&j, Stage::Verified);
        order_at(&j, Stage::Quoted);
        let ids: Vec<i64> = j
            .unresolved_creations("sandbox")
            .unwrap()
            .into_iter()
            .map(|o| o.local_id)
            .collect();
        assert_eq!(ids, [creating, unknown]);
        assert!(j.unresolved_creations("production").unwrap().is_empty());
        j.abandon_by_person(unknown).unwrap();
        assert_eq!(j.unresolved_creations("sandbox").unwrap().len(), 1);
    }

    #[test]
    fn the_file_survives_reopening_and_refuses_a_newer_schema() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.sqlite3");
        let id = {
            let j = Journal::open(&path).unwrap();
            let id = j
                .accept_quote(
                    "sandbox",
                    ApiVersion::V2,
                    RouteKind::Offramp,
                    &["a".into()],
                    &quote(),
                )
                .unwrap();
            j.create_started(id).unwrap();
            id
        };
        let j = Journal::open(&path).unwrap();
        let unfinished = j.unfinished(Some("sandbox")).unwrap();
        assert_eq!(unfinished.len(), 1);
        assert_eq!(unfinished[0].0.local_id, id);
        assert_eq!(unfinished[0].0.api_version, ApiVersion::V2);
        assert_eq!(unfinished[0].1, NextStep::ConfirmCreation);
        drop(j);

        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        drop(conn);
        assert!(matches!(
            Journal::open(&path),
            Err(JournalError::Newer { found: 99, .. })
        ));
    }
}
