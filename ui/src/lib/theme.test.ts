import { afterEach, describe, expect, it } from "vitest";
import { applyTheme, isTheme, resolveTheme } from "./theme";

/** A stand-in for matchMedia("(prefers-color-scheme: dark)") whose answer a test can change. */
function fakeQuery(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  return {
    query: query as unknown as MediaQueryList,
    listeners,
    set(value: boolean) {
      query.matches = value;
      for (const l of listeners) l();
    },
  };
}

function fakeRoot() {
  return { dataset: {} as Record<string, string> } as unknown as HTMLElement;
}

afterEach(() => {
  applyTheme("light", fakeRoot(), null);
});

describe("theme", () => {
  it("resolves system from the system's setting", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
    expect(resolveTheme("sepia", true)).toBe("dark");
    expect(resolveTheme(undefined, false)).toBe("light");
    expect(isTheme("dark")).toBe(true);
    expect(isTheme("auto")).toBe(false);
  });

  it("sets data-theme and follows the system while the theme is system", () => {
    const media = fakeQuery(false);
    const root = fakeRoot();
    expect(applyTheme("system", root, media.query)).toBe("light");
    expect(root.dataset.theme).toBe("light");
    media.set(true);
    expect(root.dataset.theme).toBe("dark");

    applyTheme("light", root, media.query);
    expect(root.dataset.theme).toBe("light");
    expect(media.listeners.size).toBe(0);
    media.set(false);
    media.set(true);
    expect(root.dataset.theme).toBe("light");
  });

  it("listens only once however often it is applied", () => {
    const media = fakeQuery(true);
    const root = fakeRoot();
    applyTheme("system", root, media.query);
    applyTheme("system", root, media.query);
    expect(media.listeners.size).toBe(1);
    expect(applyTheme("dark", root, media.query)).toBe("dark");
    expect(media.listeners.size).toBe(0);
  });

  it("falls back to light without matchMedia", () => {
    const root = fakeRoot();
    expect(applyTheme("system", root, null)).toBe("light");
    expect(root.dataset.theme).toBe("light");
  });
});
