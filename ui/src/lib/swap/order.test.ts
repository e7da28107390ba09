import { describe, expect, it } from "vitest";
import { bip21, isRegistered, isStopped, readOnramp, readTxCall } from "./order";
import { DEPOSIT, OP_RETURN, ORDER_ID, PSBT_HEX, offrampOrder, onrampOrder } from "./testdata";

describe("reading an onramp order", () => {
  it("takes the verified facts and the PSBT", () => {
    const deposit = readOnramp(onrampOrder());
    expect(deposit).toMatchObject({
      orderId: ORDER_ID,
      address: DEPOSIT,
      amountSats: "250000",
      opReturnHex: OP_RETURN,
      psbtHex: PSBT_HEX,
    });
    expect(deposit?.sentence).toMatch(/^Pays 0.00250000 BTC/);
    expect(deposit?.psbt?.feeSats).toBe("1000");
    expect(readTxCall(onrampOrder())).toBeNull();
  });

  it("falls back to the create-order answer, and reads an order without a PSBT", () => {
    const deposit = readOnramp(
      onrampOrder({
        verified: undefined,
        created: { onramp: { order_id: "x", address: "bc1qdeposit", op_return_data: null } },
      }),
    );
    expect(deposit).toMatchObject({
      orderId: "x",
      address: "bc1qdeposit",
      amountSats: "250000",
      opReturnHex: null,
      psbtHex: null,
    });
    expect(readOnramp(onrampOrder({ verified: undefined, created: undefined, depositAddress: undefined }))).toBeNull();
  });

  it("writes the BIP21 URI", () => {
    expect(bip21(DEPOSIT, "0.0025")).toBe(`bitcoin:${DEPOSIT}?amount=0.0025`);
    expect(bip21(DEPOSIT, null)).toBe(`bitcoin:${DEPOSIT}`);
  });
});

describe("reading the call to sign", () => {
  it("reads an EVM call with its verified summary", () => {
    const call = readTxCall(offrampOrder());
    expect(call).toMatchObject({
      kind: "evm",
      chain: "bob",
      to: "0x5C1F7f15A8fc15AcE2b8C1bC1fF4E0c5aA5E1a4D",
      value: "0",
      valueText: "0 ETH",
      dataBytes: 36,
      selector: "0x095ea7b3",
    });
    expect(call && call.kind === "evm" ? call.data : "").toMatch(/^0x095ea7b3/);
  });

  it("reads a V1/V2 call without a type, a Tron call with its fee limit, and a Solana transaction", () => {
    const v2 = readTxCall(
      offrampOrder({
        verified: undefined,
        created: {
          layerZero: { order_id: "x", tx: { to: "0xabc", data: "0x", value: "184532011230000", chain: "bob" } },
        },
      }),
    );
    expect(v2).toMatchObject({ kind: "evm", to: "0xabc", value: "184532011230000", valueText: null });

    const tron = readTxCall(
      offrampOrder({
        route: "tokenSwap",
        verified: undefined,
        created: {
          tokenSwap: {
            order_id: "x",
            tx: {
              type: "tron",
              to: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
              data: "0xa9059cbb",
              value: "0",
              chain: "tron",
              feeLimit: "150000000",
            },
          },
        },
      }),
    );
    expect(tron).toMatchObject({ kind: "tron", feeLimitSun: "150000000", to: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" });

    const solana = readTxCall(
      offrampOrder({
        route: "tokenSwap",
        verified: {
          orderId: "x",
          sentence: "Solana transaction paid and signed by 9Wz…",
          payload: {
            type: "solana",
            feePayer: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
            programs: ["11111111111111111111111111111111"],
            instructionCount: 2,
            recentBlockhash: "EETubP5AKHgjPAhzPAFcb8BAY1hMH639CWCFTqi3hq1k",
            version: "v0",
          },
        },
        created: { tokenSwap: { order_id: "x", tx: { type: "solana", chainId: 792703809, transaction: "AQAAAA==" } } },
      }),
    );
    expect(solana).toMatchObject({
      kind: "solana",
      chainId: "792703809",
      transaction: "AQAAAA==",
      instructionCount: 2,
    });
  });

  it("returns null when there is nothing to read", () => {
    expect(readTxCall(offrampOrder({ created: undefined }))).toBeNull();
    expect(readTxCall(offrampOrder({ created: { offramp: { order_id: "x" } } }))).toBeNull();
  });
});

describe("stages", () => {
  it("tells stopped and registered orders apart", () => {
    expect(isStopped("refused")).toBe(true);
    expect(isStopped("abandoned")).toBe(true);
    expect(isStopped("verified")).toBe(false);
    expect(isRegistered("registered")).toBe(true);
    expect(isRegistered("finished")).toBe(true);
    expect(isRegistered("txHandedIn")).toBe(false);
  });
});
