// Test data for the Swap view's tests: routes, quote cards and orders shaped like the Rust side's answers
// (the create-order answers follow crates/gateway-client/tests/fixtures/examples/v3). Used only by tests.
import type { OrderView } from "../bindings/OrderView";
import type { QuoteCard } from "../bindings/QuoteCard";
import type { RouteView } from "../bindings/RouteView";
import type { TokenView } from "../bindings/TokenView";
import type { Verified } from "../bindings/Verified";
import { withPhase } from "../orders/fixtures";

export const BTC: TokenView = {
  chain: "bitcoin",
  address: "0x0000000000000000000000000000000000000000",
  symbol: "BTC",
  name: "Bitcoin",
  decimals: 8,
};
export const USDC_BASE: TokenView = {
  chain: "base",
  address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  symbol: "USDC",
  name: "USD Coin",
  decimals: 6,
};
export const WBTC_BOB: TokenView = {
  chain: "bob",
  address: "0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3",
  symbol: "WBTC",
  name: "Wrapped BTC",
  decimals: 8,
};
export const USDT_TRON: TokenView = {
  chain: "tron",
  address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  symbol: "USDT",
  name: "Tether USD",
  decimals: 6,
};
export const USDC_SOL: TokenView = {
  chain: "solana",
  address: "EPjFWdd5AufqSSo1kWmG4Zk3z4GrZ6oRNHf6ELdAJ9x6",
  symbol: "USDC",
  name: "USD Coin",
  decimals: 6,
};

export const ROUTES: RouteView[] = [
  { kind: "onramp", src: BTC, dst: USDC_BASE, defaultSlippageBps: 100 },
  { kind: "onramp", src: BTC, dst: WBTC_BOB, defaultSlippageBps: 50 },
  { kind: "offramp", src: WBTC_BOB, dst: BTC, defaultSlippageBps: 50 },
  { kind: "tokenSwap", src: USDT_TRON, dst: USDC_BASE, defaultSlippageBps: 100 },
  { kind: "tokenSwap", src: USDC_SOL, dst: USDC_BASE, defaultSlippageBps: 100 },
];

export const EVM_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
export const BTC_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
export const SENDER_BTC = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
export const SOL_ADDRESS = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
export const ORDER_ID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";
export const DEPOSIT = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
export const OP_RETURN = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
export const PSBT_HEX = "70736274ff0100520200000001aa";

export function onrampCard(over: Partial<QuoteCard> = {}): QuoteCard {
  return {
    route: "onramp",
    send: { token: BTC, amount: "250000", text: "0.0025 BTC", usd: "240.10" },
    receive: { token: USDC_BASE, amount: "238500000", text: "238.5 USDC", usd: "238.50" },
    totalFees: { token: BTC, amount: "1650", text: "0.0000165 BTC", usd: "1.60" },
    totalFeesUsd: "1.60",
    feeLines: [
      { name: "solver fee", amount: { token: BTC, amount: "1000", text: "0.00001 BTC", usd: "0.97" }, network: false },
      {
        name: "protocol fee",
        amount: { token: BTC, amount: "650", text: "0.0000065 BTC", usd: "0.63" },
        network: false,
      },
    ],
    priceImpact: "-0.66%",
    priceImpactUsd: "-1.60",
    impact: { bps: 0, text: "0.00%" },
    largeImpact: false,
    minReceive: { token: USDC_BASE, amount: "231345000", text: "231.345 USDC" },
    estimatedSecs: 600,
    estimatedText: "about 10 minutes",
    // As desk-core reads it (crates/desk-core/src/views/own_fee.rs): 196 vB at the Sandbox's 12 sat/vB, priced at
    // the send's own $240.10 for 0.0025 BTC.
    ownFee: {
      place: "Bitcoin",
      kind: "about",
      text: "0.0000236 BTC",
      amount: "2352",
      usd: "2.26",
      basis:
        "About 196 vB, a payment from one coin of your wallet with the order's OP_RETURN and change, at 12 sat/vB, the Sandbox's fee rate. The gateway's PSBT sets the exact fee, shown at the Sign step.",
      totalUsd: "3.86",
      totalText: "About $3.86 in all: the gateway's fees ($1.60) and your network fee on Bitcoin (about $2.26).",
    },
    slippageBps: 300,
    recipient: EVM_ADDRESS,
    sender: SENDER_BTC,
    affiliates: [],
    affiliatesRequested: [],
    raw: { onramp: { inputAmount: { amount: "250000" }, signature: "sig" } },
    ...over,
  };
}

export function offrampCard(over: Partial<QuoteCard> = {}): QuoteCard {
  return {
    route: "offramp",
    send: { token: WBTC_BOB, amount: "1000000", text: "0.01 WBTC" },
    receive: { token: BTC, amount: "990000", text: "0.0099 BTC" },
    feeLines: [
      { name: "solver fee", amount: { token: WBTC_BOB, amount: "10000", text: "0.0001 WBTC" }, network: false },
    ],
    largeImpact: true,
    impact: { bps: -420, text: "-4.20%" },
    minReceive: { token: BTC, amount: "980100", text: "0.009801 BTC" },
    priceImpact: "-4.20%",
    slippageBps: 100,
    recipient: BTC_ADDRESS,
    owner: EVM_ADDRESS,
    affiliates: [{ address: EVM_ADDRESS, bps: 25 }],
    affiliatesRequested: [],
    txTo: "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D",
    raw: { offramp: { quote: 1 } },
    ...over,
  };
}

const ONRAMP_VERIFIED: Verified = {
  orderId: ORDER_ID,
  sentence: `Pays 0.00250000 BTC to ${DEPOSIT} with OP_RETURN e3b0…b855, change 0.0001 BTC back to you, fee 0.00001000 BTC`,
  payload: {
    type: "onramp",
    address: DEPOSIT,
    amountSats: "250000",
    opReturnHex: OP_RETURN,
    psbt: {
      unsignedTxid: "b".repeat(64),
      inputs: [{ outpoint: `${"c".repeat(64)}:0`, valueSats: "261000", address: SENDER_BTC }],
      outputs: [
        { kind: "payment", address: DEPOSIT, valueSats: "250000", dataHex: null },
        { kind: "opReturn", address: null, valueSats: "0", dataHex: OP_RETURN },
        { kind: "change", address: SENDER_BTC, valueSats: "10000", dataHex: null },
      ],
      feeSats: "1000",
      vsizeEstimate: 153,
      feeShareBps: 40,
      feeSharePercent: "0.40",
      feeNeedsConfirmation: false,
    },
  },
};

export function onrampOrder(over: Partial<OrderView> = {}): OrderView {
  const card = onrampCard();
  return withPhase({
    localId: 7,
    orderId: ORDER_ID,
    network: "sandbox",
    route: "onramp",
    stage: "verified",
    send: card.send,
    receive: card.receive,
    statusText: "Waiting for your Bitcoin payment",
    timeline: [],
    received: [],
    refunded: [],
    depositAddress: DEPOSIT,
    verified: ONRAMP_VERIFIED,
    created: {
      onramp: { order_id: ORDER_ID, address: DEPOSIT, op_return_data: `6a20${OP_RETURN}`, psbt_hex: PSBT_HEX },
    },
    // What desk-core reads from the above (crates/desk-core/src/views/to_sign.rs).
    toPay: {
      orderId: ORDER_ID,
      address: DEPOSIT,
      amountSats: "250000",
      opReturnHex: OP_RETURN,
      psbtHex: PSBT_HEX,
      psbt: ONRAMP_VERIFIED.payload.type === "onramp" ? ONRAMP_VERIFIED.payload.psbt : null,
      // 1,000 sats at the send's $240.10 for 250,000 sats: $0.9604, rounded up.
      feeText: "0.00001 BTC",
      feeUsd: "0.97",
      sentence: ONRAMP_VERIFIED.sentence,
    },
    toSign: null,
    execution: null,
    finished: false,
    attention: "goSign",
    abandonQuestion: null,
    outcome: null,
    ...over,
  });
}

export function offrampOrder(over: Partial<OrderView> = {}): OrderView {
  const card = offrampCard();
  return withPhase({
    localId: 8,
    orderId: ORDER_ID,
    network: "sandbox",
    route: "offramp",
    stage: "verified",
    send: card.send,
    receive: card.receive,
    statusText: "Waiting for your transaction",
    timeline: [],
    received: [],
    refunded: [],
    verified: {
      orderId: ORDER_ID,
      sentence: "Calls 0x5C1F…1a4D on bob with no value (36 bytes of data, function 0x095ea7b3)",
      payload: {
        type: "evm",
        chain: "bob",
        to: "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D",
        value: "0",
        valueText: "0 ETH",
        dataBytes: 36,
        selector: "0x095ea7b3",
        decoded: null,
        rawData: null,
      },
    } satisfies Verified,
    created: {
      offramp: {
        order_id: ORDER_ID,
        tx: {
          type: "evm",
          to: "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D",
          data: "0x095ea7b3000000000000000000000000000000000000000000000000000000000000000a",
          value: "0",
          chain: "bob",
        },
      },
    },
    // What desk-core reads from the above (crates/desk-core/src/views/to_sign.rs).
    toPay: null,
    toSign: {
      kind: "evm",
      chain: "bob",
      to: "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D",
      value: "0",
      valueText: "0 ETH",
      valueShown: "0 ETH",
      data: "0x095ea7b3000000000000000000000000000000000000000000000000000000000000000a",
      dataBytes: 36,
      selector: "0x095ea7b3",
      decoded: null,
      entry: null,
    },
    execution: null,
    finished: false,
    attention: "goSign",
    abandonQuestion: null,
    outcome: null,
    ...over,
  });
}
