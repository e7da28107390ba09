// The window's colours: the chosen theme is resolved to light or dark and written to
// <html data-theme="…">, which app.css reads. "system" follows the system's setting as it changes.
import type { Theme } from "./bindings/Theme";

export type ResolvedTheme = "light" | "dark";

export const THEME_OPTIONS: readonly { value: Theme; label: string }[] = [
  { value: "system", label: "Same as the system" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

export function isTheme(value: string): value is Theme {
  return THEME_OPTIONS.some((o) => o.value === value);
}

/** Light or dark for `theme`; "system" (and anything unknown) follows `systemDark`. */
export function resolveTheme(theme: Theme | string | null | undefined, systemDark: boolean): ResolvedTheme {
  if (theme === "light" || theme === "dark") return theme;
  return systemDark ? "dark" : "light";
}

export const DARK_QUERY = "(prefers-color-scheme: dark)";

function darkQuery(): MediaQueryList | null {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return null;
  try {
    return window.matchMedia(DARK_QUERY);
  } catch {
    return null;
  }
}

let following: { query: MediaQueryList; listener: () => void } | null = null;

function stopFollowing(): void {
  if (following) following.query.removeEventListener("change", following.listener);
  following = null;
}

/**
 * Applies `theme` to the window at once: sets `data-theme` on `root` (the <html> element by default) to "light" or
 * "dark", and for "system" keeps following the system's changes until another theme is applied. Idempotent; gives
 * what was applied.
 */
export function applyTheme(
  theme: Theme | null | undefined,
  root: HTMLElement = document.documentElement,
  query: MediaQueryList | null = darkQuery(),
): ResolvedTheme {
  stopFollowing();
  const resolved = resolveTheme(theme, query?.matches ?? false);
  root.dataset.theme = resolved;
  if (resolved !== theme && query) {
    const listener = () => {
      root.dataset.theme = resolveTheme("system", query.matches);
    };
    query.addEventListener("change", listener);
    following = { query, listener };
  }
  return resolved;
}
