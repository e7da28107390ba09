// @vitest-environment happy-dom
// The receipt of an ended order as desk-core writes it: what arrived or came back with its exact amount and
// transaction link, the time taken against the estimate, and a failed or refunded order's explanation.
import { describe, expect, it } from "vitest";
import { RECEIPTS } from "../../orders/fixtures";
import { allById, byId, mountedPerTest, text } from "../../testing";
import Receipt from "./Receipt.svelte";

const { show } = mountedPerTest();

describe("Receipt", () => {
  it("shows what arrived in the token's units on its chain, the exact amount, the link and the time taken", () => {
    show(Receipt, { receipt: RECEIPTS.arrived });
    const receipt = byId("receipt")!;
    expect(receipt.dataset.kind).toBe("arrived");
    expect(receipt.textContent).toContain("Arrived");
    const [line] = allById("receipt-arrived");
    expect(text("receipt-amount", line)).toBe("24.91 USDT on BOB ($24.91)");
    // The exact amount, in smallest units, on hover and to copy.
    expect(byId("receipt-amount", line)?.getAttribute("title")).toBe("24910000 in the token's smallest units");
    const labels = [...line.querySelectorAll("button")].map((b) => b.getAttribute("aria-label"));
    expect(labels[0]).toBe("Copy the exact amount, 24910000 in the token's smallest units");
    expect(labels[1]).toMatch(/^Copy transaction hash 0xabcdef0123/);
    const link = byId<HTMLAnchorElement>("receipt-tx-link", line)!;
    expect(link.getAttribute("href")).toBe(
      "https://explorer.gobob.xyz/tx/0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
    );
    expect(link.getAttribute("rel")).toBe("noreferrer");
    expect(text("receipt-took")).toBe("Took 6 min 12 s, estimate 10 min");
    expect(byId("receipt-explanation")).toBeNull();
    expect(byId("receipt-unreported")).toBeNull();
  });

  it("shows what came back and the same explanation the Orders view gives", () => {
    show(Receipt, { receipt: RECEIPTS.refunded });
    expect(byId("receipt")?.dataset.kind).toBe("refunded");
    expect(byId("receipt")?.textContent).toContain("Came back");
    expect(text("receipt-amount")).toBe("0.0025 BTC on Bitcoin");
    // The Sandbox's transactions have no explorer page: the id is shown and copied, no link.
    expect(byId("receipt-tx-link")).toBeNull();
    expect(text("receipt-took")).toBe("Took 10 min 40 s, estimate 10 min");
    const explanation = byId("receipt-explanation")!;
    expect(text("receipt-outcome-happened", explanation)).toBe(RECEIPTS.refunded.explanation.happened);
    expect(text("receipt-outcome-where", explanation)).toBe(
      `Where the money is: ${RECEIPTS.refunded.explanation.where}`,
    );
    expect(text("receipt-outcome-next", explanation)).toBe(`What to do: ${RECEIPTS.refunded.explanation.next}`);
  });

  it("shows a failure's explanation under the test id its container asks for, and no lines", () => {
    show(Receipt, { receipt: RECEIPTS.failed, outcomeTestid: "order-outcome" });
    expect(allById("receipt-arrived")).toHaveLength(0);
    expect(text("receipt-took")).toBe("Took 5 min, estimate 10 min");
    expect(text("order-outcome-happened", byId("receipt-explanation")!)).toContain(
      "failed before anything was paid in",
    );
    expect(byId("receipt-outcome")).toBeNull();
  });

  it("says so when the gateway did not report what arrived, and names no time it does not know", () => {
    show(Receipt, { receipt: RECEIPTS.unreported });
    expect(allById("receipt-arrived")).toHaveLength(0);
    expect(text("receipt-unreported")).toBe(RECEIPTS.unreported.unreported);
    expect(byId("receipt-took")).toBeNull();
  });
});
