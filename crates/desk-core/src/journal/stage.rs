//! The stage model: where an order is in the flow ([`Stage`]) and the one next step of an unfinished one
//! ([`NextStep`]); the diagram is in the journal's module documentation.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where an order is in the swap flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Stage.ts")]
pub enum Stage {
    /// A quote was accepted; no order was asked for yet.
    Quoted,
    /// create-order was sent; its answer is not recorded.
    Creating,
    /// create-order failed in a way that leaves unknown whether the order exists.
    CreateUnknown,
    /// The gateway created the order; what it asks to be signed is not checked yet.
    Created,
    /// What the gateway asks to be signed matches the quote.
    Verified,
    /// What the gateway asks to be signed does not match the quote: not to be signed.
    Refused,
    /// The user handed in the signed transaction (or its hash); not registered yet.
    TxHandedIn,
    /// register-tx was sent; its answer is not recorded.
    Registering,
    /// The gateway has the transaction; the order is being watched.
    Registered,
    /// The order reached success, failed or refunded.
    Finished,
    /// Given up before anything reached the gateway (or the user discarded it).
    Abandoned,
}

impl Stage {
    /// The stage's key, as the journal stores it and the window's `Stage` type spells it (`createUnknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Quoted => "quoted",
            Self::Creating => "creating",
            Self::CreateUnknown => "createUnknown",
            Self::Created => "created",
            Self::Verified => "verified",
            Self::Refused => "refused",
            Self::TxHandedIn => "txHandedIn",
            Self::Registering => "registering",
            Self::Registered => "registered",
            Self::Finished => "finished",
            Self::Abandoned => "abandoned",
        }
    }

    /// The stage a key names ([`Self::as_str`]), if any.
    pub fn parse(text: &str) -> Option<Self> {
        [
            Self::Quoted,
            Self::Creating,
            Self::CreateUnknown,
            Self::Created,
            Self::Verified,
            Self::Refused,
            Self::TxHandedIn,
            Self::Registering,
            Self::Registered,
            Self::Finished,
            Self::Abandoned,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }

    /// The one next step of an order at this stage, or `None` when nothing is left to do.
    pub fn next_step(self) -> Option<NextStep> {
        match self {
            Self::Creating | Self::CreateUnknown => Some(NextStep::ConfirmCreation),
            Self::Created | Self::Verified => Some(NextStep::SignAndHandIn),
            Self::TxHandedIn | Self::Registering => Some(NextStep::Register),
            Self::Registered => Some(NextStep::Watch),
            Self::Quoted | Self::Refused | Self::Finished | Self::Abandoned => None,
        }
    }
}

/// What an unfinished order needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "NextStep.ts")]
pub enum NextStep {
    /// create-order may or may not have created the order: find out (the app looks for it among the address's
    /// orders) before anything else.
    ConfirmCreation,
    /// Sign what the gateway asks (the PSBT, the transaction), or pay the address, and hand in the result.
    SignAndHandIn,
    /// Register the transaction already handed in.
    Register,
    /// Nothing to do but wait: the order is being watched.
    Watch,
}

impl NextStep {
    /// The step in a sentence for the person.
    pub fn sentence(self) -> &'static str {
        match self {
            Self::ConfirmCreation => {
                "The gateway's answer to creating this order was lost, so the app does not know whether it exists. Choose Continue: the app looks for it among the address's orders (and asks the gateway again if it is not there). Or abandon it: nothing was paid."
            }
            Self::SignAndHandIn => {
                "Sign the transaction the gateway prepared (or pay the deposit address), then hand in the signed transaction or its id."
            }
            Self::Register => {
                "Register the transaction you already handed in, so the gateway can follow it."
            }
            Self::Watch => "Nothing to do: the app is watching the order until it completes.",
        }
    }
}
