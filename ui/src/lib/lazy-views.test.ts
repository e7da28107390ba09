// Views loaded when first opened: each is read once and kept, a failed read is tried again, Routes is the only view
// the window loads with it, and the window's entry does not import a view loaded on demand.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VIEWS } from "./views";
import { VIEW_LOADERS, forgetLoadedViews, loadView, loadedView, type ViewModule } from "./lazy-views";
import OpenedView from "./components/testdata/OpenedView.svelte";

afterEach(() => forgetLoadedViews());

describe("views loaded on demand", () => {
  it("are every view but Routes, which comes with the window", () => {
    const onDemand = Object.keys(VIEW_LOADERS).sort();
    expect(onDemand).toEqual(
      VIEWS.map((v) => v.id)
        .filter((id) => id !== "routes")
        .sort(),
    );
    expect(onDemand).not.toContain("routes");
  });

  it("are not imported by the window's entry, which would put them back in the first file", () => {
    const app = readFileSync(new URL("../App.svelte", import.meta.url), "utf8");
    const imports = [...app.matchAll(/^\s*import\s.*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(5);
    for (const file of ["SwapView", "OrdersView", "WalletView", "PartnerView", "SupportView", "SettingsPanel"]) {
      expect(
        imports.filter((i) => i.includes(file)),
        file,
      ).toEqual([]);
    }
  });

  it("are read once and kept; a failed read is tried again the next time", async () => {
    const read = vi
      .fn<() => Promise<ViewModule>>()
      .mockRejectedValueOnce(new Error("Failed to fetch dynamically imported module"))
      .mockResolvedValue({ default: OpenedView });
    const loaders = { partner: read };
    expect(loadedView("partner")).toBeUndefined();
    await expect(loadView("partner", loaders)).rejects.toThrow("dynamically imported");
    expect(loadedView("partner")).toBeUndefined();
    expect(await loadView("partner", loaders)).toBe(OpenedView);
    expect(await loadView("partner", loaders)).toBe(OpenedView);
    expect(read).toHaveBeenCalledTimes(2);
    expect(loadedView("partner")).toBe(OpenedView);
  });

  it("refuse a view that is not loaded on demand", async () => {
    await expect(loadView("routes")).rejects.toThrow("not loaded on demand");
  });

  it("each load a view whose module has a component", async () => {
    for (const [id, load] of Object.entries(VIEW_LOADERS)) {
      const module = await load();
      expect(typeof module.default, id).toBe("function");
    }
  });
});
