// @vitest-environment happy-dom
// The call to sign as the window shows it: a decoded gateway call under its checks, and the real service's entry call
// (AllowanceHolder's exec) with its token and amount checked and the gateway's own inner call marked as not decoded,
// never under a "checked" line.
import { describe, expect, it } from "vitest";
import type { AmountView } from "../../bindings/AmountView";
import type { CallToSign } from "../../bindings/CallToSign";
import { byId, mountedPerTest, text } from "../../testing";
import TxCallDetails from "./TxCallDetails.svelte";

const { show: mountShown } = mountedPerTest();

/** What the order sends and receives, as quoted: 0.001 WBTC on BOB for about 0.000873 BTC. */
const SEND: AmountView = {
  token: {
    chain: "bob",
    address: "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c",
    symbol: "WBTC",
    name: null,
    decimals: 8,
  },
  amount: "100000",
  text: "0.001 WBTC",
};
const RECEIVE: AmountView = {
  token: { chain: "bitcoin", address: "BTC", symbol: "BTC", name: null, decimals: 8 },
  amount: "87300",
  text: "0.000873 BTC",
};

function show(call: CallToSign) {
  mountShown(TxCallDetails, { call, send: SEND, receive: RECEIVE });
}

const ENTRY = "0x8fd545b348e84deb145f0179a00c671f0b9519c3";
const TARGET = "0x7777777777777777777777777777777777777777";
const WBTC = "0x0555E30da8f98308EdB960aa94C0Db47230d2B9c";
/** An EVM call to the entry contract on BOB, sending no value. */
const ON_BOB = { kind: "evm", chain: "bob", to: ENTRY, value: "0", valueText: "0 ETH", valueShown: "0 ETH" } as const;

describe("TxCallDetails", () => {
  it("shows the entry call's checked token and amount, and its inner call as built by the gateway, not decoded", () => {
    show({
      ...ON_BOB,
      data: "0x2213bc0b",
      dataBytes: 260,
      selector: "0x2213bc0b",
      decoded: null,
      entry: {
        function: "exec",
        token: WBTC,
        amount: "100000",
        operator: TARGET,
        target: TARGET,
        innerBytes: 7,
        innerSelector: "0xa993cd99",
      },
    });
    expect(text("tx-entry")).toBe(
      `exec of the gateway's entry contract: lets ${TARGET} take exactly 0.001 WBTC (token ${WBTC}) (token and amount compared with the quote)`,
    );
    expect(text("tx-inner-not-checked")).toBe(
      `Built by the gateway, not decoded: what ${TARGET} does with it (7 bytes, function 0xa993cd99) is the gateway's own call: its bytes are not compared with the quote; what it moves is shown by the chain's simulation before this app's wallet signs it; signed with another wallet, the app does not check it.`,
    );
    expect(byId("tx-decoded")).toBeNull();
    expect(byId("tx-not-checked")).toBeNull();
    expect(byId("tx-inner-not-checked")?.classList.contains("not-checked")).toBe(true);
  });

  it("shows a call decoded whole under its checks, with no inner call", () => {
    show({
      ...ON_BOB,
      data: "0x",
      dataBytes: 4,
      selector: "0x12345678",
      decoded: {
        function: "offrampToBitcoin",
        token: WBTC,
        amount: "100000",
        minOut: "87300",
        recipient: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        dstChain: null,
      },
      entry: null,
    });
    // In the tokens' units, never smallest units (issue 31); the exact amount on hover.
    expect(text("tx-decoded")).toContain(`offrampToBitcoin: takes 0.001 WBTC (token ${WBTC}), delivers at least`);
    expect(text("tx-decoded")).not.toContain("100000");
    expect(byId("tx-decoded")?.querySelector("[title]")?.getAttribute("title")).toBe(
      "0.001 WBTC (100000 of the smallest unit)",
    );
    expect(byId("tx-entry")).toBeNull();
    expect(byId("tx-inner-not-checked")).toBeNull();
  });

  it("labels a Solana gateway instruction of no public layout as not decoded, and a decoded one not at all", () => {
    const solana = (gatewayDecoded: boolean | null): CallToSign => ({
      kind: "solana",
      chain: "solana",
      chainId: "792703809",
      transaction: "AQID",
      feePayer: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      programs: ["ComputeBudget111111111111111111111111111111"],
      instructionCount: 2,
      recentBlockhash: "11111111111111111111111111111111",
      version: "v0",
      gatewayDecoded,
    });
    show(solana(false));
    expect(text("tx-whole-not-decoded")).toMatch(
      /^Built by the gateway, not decoded: its program's layout is not public/,
    );
    show(solana(true));
    expect(byId("tx-whole-not-decoded")).toBeNull();
  });
});
