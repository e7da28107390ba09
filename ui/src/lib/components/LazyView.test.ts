// @vitest-environment happy-dom
// A view opened for the first time: a line while its file is read, the view once read, and when the read fails a
// sentence with what to do and a button that tries again.
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetLoadedViews, type ViewModule } from "../lazy-views";
import { byId, click, mountedPerTest, settle, text } from "../testing";
import { viewInfo } from "../views";
import LazyView from "./LazyView.svelte";
import OpenedView from "./testdata/OpenedView.svelte";

const { show, hide } = mountedPerTest();

afterEach(() => forgetLoadedViews());

function deferred() {
  let resolve!: (m: ViewModule) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<ViewModule>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function start(load: () => Promise<ViewModule>) {
  show(LazyView, { view: viewInfo("partner"), loaders: { partner: load } });
}

describe("LazyView", () => {
  it("says the view is opening until its file is read, then shows it", async () => {
    const read = deferred();
    start(() => read.promise);
    await settle();
    expect(text("view-loading")).toBe("Opening Partner…");
    expect(byId("opened-view")).toBeNull();
    read.resolve({ default: OpenedView });
    await settle();
    expect(byId("view-loading")).toBeNull();
    expect(byId("opened-view")).not.toBeNull();
  });

  it("shows a view read before at once", async () => {
    start(async () => ({ default: OpenedView }));
    await settle();
    hide();
    const never = vi.fn(() => new Promise<ViewModule>(() => {}));
    start(never);
    expect(byId("opened-view")).not.toBeNull();
    expect(byId("view-loading")).toBeNull();
    await settle();
    expect(never).not.toHaveBeenCalled();
  });

  it("says when the file cannot be read, with what to do, and tries again", async () => {
    const first = deferred();
    const second = deferred();
    const read = vi.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    start(read);
    first.reject(new TypeError("Importing a module script failed."));
    await settle();
    expect(byId("view-loading")).toBeNull();
    expect(byId("view-load-failed")?.querySelector("h1")?.textContent).toBe("Partner");
    expect(text("view-load-error")).toBe(
      "The Partner view could not be opened: Importing a module script failed. The app's files may be damaged: try again, and if it fails again, reinstall the app.",
    );
    await click("view-load-retry");
    second.resolve({ default: OpenedView });
    await settle();
    expect(read).toHaveBeenCalledTimes(2);
    expect(byId("view-load-failed")).toBeNull();
    expect(byId("opened-view")).not.toBeNull();
  });
});
