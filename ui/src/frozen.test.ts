// @vitest-environment happy-dom
// The window runs with frozen prototypes (tauri.conf.json `freezePrototype`). A library that assigns a property
// named like one of Object.prototype's (`toString`, say) throws there and leaves the window blank, although every
// other test passes. This loads the whole app with Object.prototype frozen, as the window does.
import { expect, it } from "vitest";

it("the app loads and renders with frozen prototypes", async () => {
  Object.freeze(Object.prototype);
  document.body.innerHTML = '<div id="app"></div>';
  await import("./main");
  expect(document.querySelector("[data-testid=nav-swap]")).not.toBeNull();
});
