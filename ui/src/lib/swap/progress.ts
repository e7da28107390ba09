// How far an order is after registration, for the Swap view's progress bar: the time since the transaction was
// registered against the quote's estimate, the remaining time in words, and the step the order is at. Pure; the
// component brings the clock. An estimate is the gateway's, so a late order says so instead of a bar stuck at 100%.
import type { OrderView } from "../bindings/OrderView";

export interface Progress {
  /** 0..1 for the bar; 1 only when the order has ended. */
  fraction: number;
  /** `About 8 min left`, `Taking longer than the 10 min estimate`, `Done`, … */
  remaining: string;
  /** The timeline entry the order is at, in words. */
  step: string;
  ended: boolean;
  /** The order ended as it should (success). */
  succeeded: boolean;
}

function minutes(secs: number): string {
  if (secs < 60) return `${Math.max(1, Math.ceil(secs))} s`;
  return `${Math.ceil(secs / 60)} min`;
}

/** When the order's transaction was registered (unix seconds), or its creation, or null. */
export function startedAt(order: OrderView): number | null {
  const registered = order.timeline.find((e) => e.key === "registered")?.at;
  return registered ?? order.createdAt ?? null;
}

export function progressOf(order: OrderView, estimatedSecs: number | null, nowSecs: number): Progress {
  const step = order.timeline.at(-1)?.text ?? order.statusText;
  const ended = order.finished;
  if (ended) {
    const succeeded = order.status === "success";
    return { fraction: 1, remaining: succeeded ? "Done" : order.statusText, step, ended, succeeded };
  }
  const start = startedAt(order);
  if (estimatedSecs === null || estimatedSecs <= 0 || start === null) {
    return { fraction: 0, remaining: "The gateway gave no time estimate", step, ended, succeeded: false };
  }
  const elapsed = Math.max(0, nowSecs - start);
  const left = estimatedSecs - elapsed;
  if (left <= 0) {
    return {
      fraction: 0.97,
      remaining: `Taking longer than the ${minutes(estimatedSecs)} estimate; the gateway is still working on it`,
      step,
      ended,
      succeeded: false,
    };
  }
  return {
    fraction: Math.min(0.97, elapsed / estimatedSecs),
    remaining: `About ${minutes(left)} left (estimate: ${minutes(estimatedSecs)})`,
    step,
    ended,
    succeeded: false,
  };
}
