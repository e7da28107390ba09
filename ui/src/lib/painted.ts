// The window tells the app once that its first view is painted (the app logs the start-up time, `cargo xtask bench`
// reads it, and the app then returns its free memory). The first view is Swap on a first start, else the view the
// person left: Routes and Swap tell it once their routes are on screen, any other view once it is shown.
import { tick } from "svelte";
import { windowPainted } from "./ipc";
import type { ViewId } from "./views";

/** The views that tell it themselves, once their routes are drawn. */
export const PAINTED_WITH_ROUTES: readonly ViewId[] = ["routes", "swap"];

let reported = false;

/** Tells the app, the first time only, after the frame that draws what was just put on the page. */
export async function reportPainted(): Promise<void> {
  if (reported) return;
  reported = true;
  await tick();
  requestAnimationFrame(() => requestAnimationFrame(() => void windowPainted().catch(() => {})));
}
