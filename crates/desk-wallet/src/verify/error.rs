//! Why a create-order answer (or a signed transaction) was refused: one complete sentence per reason.

use std::fmt;

use gateway_client::wire::RouteKind;

use super::text::{btc_text, native_text};
#[cfg(doc)]
use super::{MAX_OP_RETURN_BYTES, fee_cap_sats};

/// Which transaction a Bitcoin payment problem was found in: the gateway's PSBT, or what the user signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxSubject {
    /// The PSBT of the create-order answer.
    Gateway,
    /// The signed transaction the user handed back.
    Signed,
}

impl TxSubject {
    /// What to do about a problem in this transaction.
    pub(super) fn advice(self) -> &'static str {
        match self {
            Self::Gateway => "Do not sign it; ask for a new quote.",
            Self::Signed => {
                "Do not send it; sign the transaction the app checked, without changing it, and paste that one."
            }
        }
    }
}

impl fmt::Display for TxSubject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Gateway => "The gateway's transaction",
            Self::Signed => "The signed transaction",
        })
    }
}

/// Why a create-order answer (or a signed transaction) was refused. Each message is a complete sentence that tells
/// the user not to sign (or send) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The answer is for another kind of order than the quote.
    #[error(
        "The gateway created {} order, but the quote you accepted is for {}. Do not sign anything; ask for a new quote.",
        answered.described(), quoted.described()
    )]
    RouteMismatch {
        /// The quote's route.
        quoted: RouteKind,
        /// The answer's route.
        answered: RouteKind,
    },
    /// A field of the quote itself cannot be read, so nothing can be compared with it.
    #[error(
        "The quote's {field} ({value:?}) cannot be read, so the gateway's transaction cannot be checked against it. \
         Do not sign anything; ask for a new quote."
    )]
    QuoteUnreadable {
        /// The quote field, e.g. `inputAmount.amount`, `txTo`, `sender`.
        field: &'static str,
        /// Its value.
        value: String,
    },

    // ---- the quote against the request ----
    /// The quote repeats something other than what was asked.
    #[error(
        "The gateway's quote has {what} {quoted:?}, but you asked for {asked:?}. Do not accept it; check the form and \
         ask again (if it happens again, the gateway cannot be trusted)."
    )]
    QuoteDiffersFromRequest {
        /// What differs, e.g. `recipient`.
        what: &'static str,
        /// What was asked.
        asked: String,
        /// What the quote says.
        quoted: String,
    },
    /// The quote charges an affiliate that was not asked for.
    #[error(
        "The gateway's quote pays an affiliate fee to {address}, which you did not ask for. Do not accept it; ask \
         again (if it happens again, the gateway cannot be trusted)."
    )]
    UnaskedAffiliate {
        /// The affiliate's address.
        address: String,
    },
    /// The quote's slippage is above the one asked for.
    #[error(
        "The gateway's quote allows a slippage of {quoted} bps, more than the {asked} bps you asked for. Do not accept \
         it; ask again."
    )]
    SlippageAboveAsked {
        /// Asked, bps.
        asked: u32,
        /// Quoted, bps.
        quoted: u32,
    },
    /// The quote's own figures contradict one another (issue 30): it could hide a loss behind them.
    #[error(
        "The quote contradicts itself: {what}. Its figures cannot all be right, so the loss the app computes from \
         them cannot be trusted. Do not accept it; ask for a new quote."
    )]
    QuoteContradicts {
        /// What disagrees, with the numbers.
        what: String,
    },
    /// What is received is less than half of what is sent.
    #[error(
        "With this quote you would receive {percent} % less than you send, computed by the app from the quote's own \
         amounts. The app refuses a loss over half. Do not accept it; ask for a new quote, or a larger amount if fees \
         are most of it."
    )]
    GrossLoss {
        /// The loss, percent with two decimals.
        percent: String,
    },

    /// A loss above the confirmation threshold was not confirmed.
    #[error(
        "With this quote you would receive {percent} % less than you send. Do not go on unless you confirm that loss \
         in numbers; otherwise ask for a new quote."
    )]
    LossNotConfirmed {
        /// The loss, percent with two decimals.
        percent: String,
    },

    /// A PSBT fee above the confirmation share was not accepted.
    #[error(
        "The gateway's transaction pays a network fee of {fee_sats} sats, {percent} % of the amount. Do not sign it \
         unless you accept that fee in numbers; otherwise ask for a new quote."
    )]
    FeeNotConfirmed {
        /// The fee, in sats.
        fee_sats: u64,
        /// Its share of the amount, percent with two decimals.
        percent: String,
    },

    // ---- onramp ----
    /// The deposit address is not a Bitcoin address of the gateway's network.
    #[error(
        "The gateway's deposit address {address:?} is not a valid Bitcoin address here: {reason} \
         Do not pay it; ask for a new quote."
    )]
    DepositAddressInvalid {
        /// The address given.
        address: String,
        /// Why it is not valid, a sentence.
        reason: String,
    },
    /// The quote's sender is not a Bitcoin address of the gateway's network.
    #[error(
        "The quote's sender {address:?} is not a valid Bitcoin address here: {reason} So the coins the gateway's \
         transaction spends cannot be checked. Do not sign it; ask for a new quote with your own address as sender."
    )]
    SenderInvalid {
        /// The sender given.
        address: String,
        /// Why it is not valid, a sentence.
        reason: String,
    },
    /// `op_return_data` is not hex of at most [`MAX_OP_RETURN_BYTES`] bytes.
    #[error(
        "The gateway's OP_RETURN data {data:?} is not usable: {reason}. Do not pay the order; ask for a new quote."
    )]
    OpReturnDataInvalid {
        /// The data given.
        data: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The quote named a sender but the answer carries no PSBT.
    #[error(
        "The quote names {sender} as the sender, but the gateway sent no transaction to sign. \
         Do not pay the order; ask for a new quote."
    )]
    MissingPsbt {
        /// The quote's sender.
        sender: String,
    },
    /// The answer carries a PSBT although the quote named no sender: nothing says whose coins it spends.
    #[error(
        "The gateway sent a transaction to sign although the quote names no sender, so nothing says whose coins it \
         spends. Do not sign it; ask for a new quote."
    )]
    UnexpectedPsbt,
    /// The PSBT cannot be decoded.
    #[error(
        "The gateway's transaction cannot be read ({reason}). Do not sign it; ask for a new quote."
    )]
    PsbtUnreadable {
        /// What went wrong.
        reason: String,
    },
    /// No output pays the deposit address.
    #[error("{subject} does not pay the deposit address {address}. {}", subject.advice())]
    NoDepositOutput {
        /// Which transaction.
        subject: TxSubject,
        /// The deposit address.
        address: String,
    },
    /// More than one output pays the deposit address.
    #[error(
        "{subject} pays the deposit address {address} in {count} outputs instead of one. {}",
        subject.advice()
    )]
    DepositPaidInSeveralOutputs {
        /// Which transaction.
        subject: TxSubject,
        /// The deposit address.
        address: String,
        /// How many outputs pay it.
        count: usize,
    },
    /// The deposit output's value is not the quoted amount.
    #[error(
        "{subject} pays {} to the deposit address, but the quote says {}. {}",
        btc_text(*paid_sats), btc_text(*quoted_sats), subject.advice()
    )]
    WrongDepositAmount {
        /// Which transaction.
        subject: TxSubject,
        /// What the output pays, in sats.
        paid_sats: u64,
        /// What the quote says, in sats.
        quoted_sats: u64,
    },
    /// No OP_RETURN output although the order has OP_RETURN data.
    #[error(
        "{subject} has no OP_RETURN output, so the payment would not be tied to your order (it should carry {expected}). {}",
        subject.advice()
    )]
    OpReturnMissing {
        /// Which transaction.
        subject: TxSubject,
        /// The order's OP_RETURN data, hex.
        expected: String,
    },
    /// The OP_RETURN output carries other data than the order's.
    #[error(
        "{subject} carries the OP_RETURN data {found}, but the order's is {expected}: the payment would not be tied to \
         your order. {}",
        subject.advice()
    )]
    OpReturnMismatch {
        /// Which transaction.
        subject: TxSubject,
        /// The order's OP_RETURN data, hex.
        expected: String,
        /// What the output carries, hex.
        found: String,
    },
    /// More than one OP_RETURN output.
    #[error("{subject} has {count} OP_RETURN outputs where the order expects one. {}", subject.advice())]
    SeveralOpReturns {
        /// Which transaction.
        subject: TxSubject,
        /// How many there are.
        count: usize,
    },
    /// An OP_RETURN output with a value: money burnt.
    #[error("{subject} burns {} in an OP_RETURN output. {}", btc_text(*sats), subject.advice())]
    OpReturnBurns {
        /// Which transaction.
        subject: TxSubject,
        /// The value burnt, in sats.
        sats: u64,
    },
    /// An output pays neither the deposit address nor the sender.
    #[error(
        "The gateway's transaction also pays {} to {recipient}, which is neither the order's deposit address nor your \
         own address. Do not sign it; ask for a new quote.",
        btc_text(*value_sats)
    )]
    PaysStranger {
        /// The output's index.
        output_index: usize,
        /// Who it pays: an address, or `script <hex>`.
        recipient: String,
        /// Its value, in sats.
        value_sats: u64,
    },
    /// The PSBT spends nothing.
    #[error(
        "The gateway's transaction spends no coins at all. Do not sign it; ask for a new quote."
    )]
    NoInputs,
    /// An input's previous output is not given, so what it spends (and the fee) cannot be known.
    #[error(
        "The gateway's transaction spends the coin {outpoint} (input {input_index}) without saying what that coin is, \
         so the app cannot tell what this spends or what fee it pays. Do not sign it; ask for a new quote."
    )]
    UnknownPrevout {
        /// The input's index.
        input_index: usize,
        /// `txid:vout` of the coin.
        outpoint: String,
    },
    /// An input's `non_witness_utxo` is not the transaction its outpoint names, or disagrees with its
    /// `witness_utxo`.
    #[error(
        "The gateway's transaction describes the coin {outpoint} (input {input_index}) with a previous transaction \
         that is not that coin's, so its value and owner cannot be trusted. Do not sign it; ask for a new quote."
    )]
    PrevoutMismatch {
        /// The input's index.
        input_index: usize,
        /// `txid:vout` of the coin.
        outpoint: String,
    },
    /// An input spends a coin that is not the sender's.
    #[error(
        "The gateway's transaction spends the coin {outpoint} of {owner}, which is not the quote's sender {sender}. \
         Do not sign it; ask for a new quote."
    )]
    InputNotSender {
        /// The input's index.
        input_index: usize,
        /// `txid:vout` of the coin.
        outpoint: String,
        /// Who owns the coin: an address, or `script <hex>`.
        owner: String,
        /// The quote's sender.
        sender: String,
    },
    /// An input asks for a sighash type that would let the transaction be changed after signing.
    #[error(
        "The gateway's transaction asks you to sign input {input_index} with sighash type {sighash}, which would let \
         its outputs be changed after you sign. Do not sign it; ask for a new quote."
    )]
    UnsafeSighash {
        /// The input's index.
        input_index: usize,
        /// The sighash type, as rust-bitcoin names it.
        sighash: String,
    },
    /// The outputs add up to more than the inputs: the transaction could never be valid.
    #[error(
        "The gateway's transaction pays out {} but spends only {}, so it can never be valid. \
         Do not sign it; ask for a new quote.",
        btc_text(*outputs_sats), btc_text(*inputs_sats)
    )]
    FeeNegative {
        /// Sum of the inputs, in sats.
        inputs_sats: u64,
        /// Sum of the outputs, in sats.
        outputs_sats: u64,
    },
    /// The fee is above the cap ([`fee_cap_sats`]).
    #[error(
        "The gateway's transaction pays a fee of {fee_sats} sats ({}), more than the {cap_sats} sats this app accepts \
         for this amount. Do not sign it; ask for a new quote.",
        btc_text(*fee_sats)
    )]
    AbsurdFee {
        /// The fee, in sats.
        fee_sats: u64,
        /// The cap, in sats.
        cap_sats: u64,
    },
    /// The signed transaction pasted back cannot be read.
    #[error("The signed transaction cannot be used. {reason}")]
    SignedTxUnreadable {
        /// What went wrong and what to do, in sentences.
        reason: String,
    },
    /// An input of the signed transaction carries no signature.
    #[error(
        "Input {input_index} of the transaction carries no signature: this is not the signed transaction. \
         Sign it in your wallet and paste the result."
    )]
    NotSigned {
        /// The input's index.
        input_index: usize,
    },
    /// The signed transaction is not the PSBT's transaction.
    #[error(
        "The signed transaction is not the one the app checked: {difference}. Do not send it; sign the transaction \
         the app checked, without changing it, and paste that one."
    )]
    SignedTxNotApproved {
        /// What differs, a clause.
        difference: String,
    },

    // ---- offramp and token swap ----
    /// The transaction is of a kind that cannot run on the quote's source chain.
    #[error(
        "The gateway sent {found}, but the quote pays from {chain}. Do not sign it; ask for a new quote."
    )]
    WrongTxKind {
        /// The quote's source chain.
        chain: String,
        /// What was sent, e.g. "an EVM call".
        found: &'static str,
    },
    /// The call is for another chain than the quote's source chain.
    #[error(
        "The gateway's transaction is for {found}, but the quote pays from {quoted}. Do not sign it; ask for a new quote."
    )]
    WrongChain {
        /// The quote's source chain.
        quoted: String,
        /// The transaction's chain.
        found: String,
    },
    /// The call's `to` is not a valid address of its chain.
    #[error(
        "The gateway's transaction calls {value:?}, which is not a valid {family} address. \
         Do not sign it; ask for a new quote."
    )]
    BadTxAddress {
        /// The `to` given.
        value: String,
        /// "EVM" or "Tron".
        family: &'static str,
    },
    /// The call goes to another contract than the quote's `txTo`.
    #[error(
        "The gateway's transaction calls {found}, but the quote says your funds go to {quoted}. \
         Do not sign it; ask for a new quote."
    )]
    WrongContract {
        /// The quote's `txTo`.
        quoted: String,
        /// The transaction's `to`.
        found: String,
    },
    /// The call's `value` is not a whole number.
    #[error(
        "The gateway's transaction sends a native value {value:?} that is not a whole number. \
         Do not sign it; ask for a new quote."
    )]
    BadValue {
        /// The value given.
        value: String,
    },
    /// The native value sent is not the quoted input amount.
    #[error(
        "The gateway's transaction sends {} with the call, but the quote says {}. Do not sign it; ask for a new quote.",
        native_text(chain, found),
        native_text(chain, quoted)
    )]
    WrongNativeValue {
        /// The chain.
        chain: String,
        /// The value sent, smallest units.
        found: String,
        /// The quoted input amount, smallest units.
        quoted: String,
    },
    /// The call sends native value although the quote pays in a token.
    #[error(
        "The gateway's transaction also sends {} with the call, which the quote does not mention (you pay in a \
         token). Do not sign it; ask for a new quote.",
        native_text(chain, found)
    )]
    UnquotedNativeValue {
        /// The chain.
        chain: String,
        /// The value sent, smallest units.
        found: String,
    },
    /// The calldata is not `0x` hex of at least one byte.
    #[error(
        "The gateway's transaction data is not usable: {reason}. Do not sign it; ask for a new quote."
    )]
    BadCalldata {
        /// What is wrong with it.
        reason: String,
    },

    /// A token function as the main call: it would hand over tokens or the right to move them.
    #[error(
        "The gateway's transaction is a token call, {function}, instead of the gateway's own function: it would hand \
         your tokens, or the right to move them, to whoever it names. Do not sign it; ask for a new quote."
    )]
    TokenCallAsMain {
        /// The function's name.
        function: &'static str,
    },
    /// The call goes to a token contract the app knows.
    #[error(
        "The gateway's transaction calls {contract}, the {symbol} token contract, not a gateway contract. \
         Do not sign it; ask for a new quote."
    )]
    CallsTokenContract {
        /// The contract called.
        contract: String,
        /// The token's symbol.
        symbol: String,
    },
    /// On a network whose gateway contracts are known, the call goes elsewhere.
    #[error(
        "The gateway's transaction calls {found}, which is not this network's gateway contract {expected}. \
         Do not sign it; ask for a new quote."
    )]
    NotTheGatewayContract {
        /// The contract called.
        found: String,
        /// The network's gateway contract.
        expected: String,
    },
    /// Off the Sandbox, the source chain has no published entry contract, so no call from it can be checked.
    #[error(
        "The gateway's transaction calls {found} on {chain}, but the app knows no published gateway contract on          {chain} (the gateway's own SDK pins one per chain, and none on {chain}), so it cannot tell the gateway's          contract from any other. Do not sign it; choose a route from another chain."
    )]
    NoPublishedEntry {
        /// The source chain.
        chain: String,
        /// The contract called.
        found: String,
    },
    /// The real service's entry call (AllowanceHolder's `exec`) matches the quote, but the gateway's inner call is
    /// not decoded, the call is not run on the chain here (another wallet signs it), and blind signing is off.
    #[error(
        "The gateway's transaction calls its entry contract's exec, which lets {target} take exactly {amount} of \
         {token} (the quote's amount and token: checked), but what {target} then does is the gateway's own call, \
         which is not public and was not decoded, and here nothing runs it on the chain before you sign. Sign it with \
         the app's wallet (which runs it first), or, if you trust this gateway, with blind signing turned on for this \
         network (`--blind-signing`)."
    )]
    InnerCallNotDecoded {
        /// The gateway's contract `exec` calls.
        target: String,
        /// The amount it may take, smallest units.
        amount: String,
        /// The token it may take.
        token: String,
    },
    /// The calldata is of no function the app can decode, and blind signing is off.
    #[error(
        "The gateway's transaction calls a function the app cannot decode (selector {selector}), so what it moves and \
         to whom cannot be checked. Do not sign it; ask for a new quote. If you trust this gateway and check calls \
         yourself, blind signing can be turned on for this network in Settings."
    )]
    UndecodableCall {
        /// The 4-byte selector, or `none`.
        selector: String,
    },
    /// The decoded function is of another route.
    #[error(
        "The gateway's transaction calls {function}, which is not the function of {}. Do not sign it; ask for a new \
         quote.",
        route.described()
    )]
    WrongFunction {
        /// The function called.
        function: &'static str,
        /// The quote's route.
        route: RouteKind,
    },
    /// A decoded argument differs from the quote.
    #[error(
        "The gateway's transaction {what} {found}, but the quote says {quoted}. Do not sign it; ask for a new quote."
    )]
    CallDiffers {
        /// What the argument does, e.g. `takes`, `delivers to`.
        what: &'static str,
        /// The call's value.
        found: String,
        /// The quote's.
        quoted: String,
    },
    /// The call's minimum output is below the quote's output less its slippage.
    #[error(
        "The gateway's transaction accepts as little as {found} (smallest units) in return, below the {floor} the \
         quote promises after slippage. Do not sign it; ask for a new quote."
    )]
    MinimumBelowQuote {
        /// The call's minimum.
        found: String,
        /// The quote's output less slippage.
        floor: String,
    },
    /// The Bitcoin fee rate is above the network's ceiling.
    #[error(
        "The gateway's transaction pays {fee_sats} sats for about {vsize} vbytes, {rate} sat/vB, more than the \
         {ceiling} sat/vB this app accepts now (a few times the network's fast rate). Do not sign it; ask for a new \
         quote."
    )]
    FeeRateTooHigh {
        /// The fee, in sats.
        fee_sats: u64,
        /// The signed size estimate, in vbytes.
        vsize: u32,
        /// The fee rate, sat/vB, rounded up.
        rate: u64,
        /// The ceiling, sat/vB.
        ceiling: u64,
    },
    /// A refusal only one added family's transaction can earn (Tron's fee limit; Solana's fee payer, signers,
    /// programs and instructions): the family's own, in its file ([`super::FamilyRefusal`]).
    #[error(transparent)]
    Family(super::FamilyRefusal),
}

/// The first sentence of a message (validation errors end with advice that does not fit here).
pub(super) fn first_sentence(message: &str) -> String {
    match message.find(". ") {
        Some(end) => message[..=end].to_owned(),
        None => message.to_owned(),
    }
}
