import { describe, expect, it } from "vitest";
import { DEFAULT_VIEW, VIEWS, VIEW_STORAGE_KEY, firstView, isViewId, rememberView } from "./views";

function memory(entries: Record<string, string> = {}) {
  const kept = new Map(Object.entries(entries));
  return { kept, getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v) };
}

describe("the first view", () => {
  it("is Swap on a first start", () => {
    expect(DEFAULT_VIEW).toBe("swap");
    expect(firstView(memory())).toBe("swap");
    expect(firstView(null)).toBe("swap");
  });

  it("is the view the person left on later starts", () => {
    const storage = memory();
    for (const view of VIEWS) {
      rememberView(view.id, storage);
      expect(storage.kept.get(VIEW_STORAGE_KEY)).toBe(view.id);
      expect(firstView(storage)).toBe(view.id);
    }
  });

  it("falls back to Swap when what was kept is not a view id", () => {
    for (const value of ["", "dashboard", "Routes", " routes", "null", "{}"]) {
      expect(firstView(memory({ [VIEW_STORAGE_KEY]: value })), value).toBe("swap");
      expect(isViewId(value), value).toBe(false);
    }
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(firstView(broken)).toBe("swap");
    expect(() => rememberView("orders", { setItem: broken.getItem })).not.toThrow();
  });
});
