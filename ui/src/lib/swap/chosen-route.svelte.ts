// A route chosen in the Routes view to swap on (the "Swap" button of its row), waiting for the swap form. The Swap
// view's file is read only when it first opens, and its routes may still be on their way: the choice waits here (a
// few lines the window loads with Routes, rather than the whole swap state) until SwapState takes it, once the
// network's routes are in.
import type { TokenView } from "../bindings/TokenView";

export interface ChosenRoute {
  src: TokenView;
  dst: TokenView;
}

export class RouteChoice {
  /** The route to put in the swap form, until the form takes it. */
  route = $state.raw<ChosenRoute | null>(null);

  choose(route: ChosenRoute): void {
    this.route = { src: route.src, dst: route.dst };
  }

  /** The chosen route, forgotten here once taken. */
  take(): ChosenRoute | null {
    const route = this.route;
    this.route = null;
    return route;
  }
}

/** The window's one choice. */
export const routeChoice = new RouteChoice();
