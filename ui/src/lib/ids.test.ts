import { describe, expect, it } from "vitest";
import { SHORT_ID_EXAMPLES } from "./bindings/facts";
import { shortId } from "./ids";

describe("shortening an id", () => {
  it("gives what desk-core's short_id gives, for every generated example", () => {
    expect(SHORT_ID_EXAMPLES.length).toBeGreaterThan(5);
    for (const [id, short] of SHORT_ID_EXAMPLES) expect(shortId(id), id).toBe(short);
  });

  it("keeps short ids whole and a 0x prefix in front", () => {
    expect(shortId("short-id")).toBe("short-id");
    expect(shortId("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
  });
});
