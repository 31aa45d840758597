/**
 * A quota's spec (`5000/day`) and its windows: fixed UTC windows (a minute, an hour, a day from
 * midnight, a calendar month), the same in every replica, so each window is one counter.
 */

const QUOTA_WINDOWS = ['minute', 'hour', 'day', 'month'] as const;
export type QuotaWindow = (typeof QUOTA_WINDOWS)[number];

/** Paid upstream calls allowed per window. */
export interface QuotaSpec {
  limit: number;
  window: QuotaWindow;
}

/** The most calls a quota may allow: far beyond any real plan, and exact in a Lua number. */
const MAX_QUOTA = 1_000_000_000;

/** `N/window` (e.g. `5000/day`), or `none` for no quota (null); a problem sentence otherwise. */
export function parseQuota(text: string): QuotaSpec | null | { problem: string } {
  const value = text.trim().toLowerCase();
  if (value === 'none') return null;
  const match = /^(\d+)\s*\/\s*([a-z]+)$/.exec(value);
  const limit = match ? Number(match[1]) : Number.NaN;
  const window = match?.[2] as QuotaWindow | undefined;
  if (!match || !QUOTA_WINDOWS.includes(window!) || limit < 1 || limit > MAX_QUOTA) {
    return {
      problem: `a quota is N/${QUOTA_WINDOWS.join('|')} with N from 1 to ${MAX_QUOTA} (e.g. 5000/day), or none; got "${text.trim()}"`,
    };
  }
  return { limit, window: window! };
}

export function formatQuota(spec: QuotaSpec | null): string {
  return spec ? `${spec.limit}/${spec.window}` : 'none';
}

const FIXED_MS: Record<Exclude<QuotaWindow, 'month'>, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** The window holding `now` (epoch ms): from `start` (included) to `end` (excluded). */
export function windowAt(window: QuotaWindow, now: number): { start: number; end: number } {
  if (window === 'month') {
    const date = new Date(now);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth();
    return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
  }
  const size = FIXED_MS[window];
  const start = Math.floor(now / size) * size;
  return { start, end: start + size };
}

/** Where a client stands in its current window, as headers and `extensions.gateway.quota` report it. */
export interface QuotaState {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the quota is whole again (at least 1). */
  resetSeconds: number;
  /** The window's length in seconds (a month's varies). */
  windowSeconds: number;
}

export function stateAt(spec: QuotaSpec, used: number, now: number): QuotaState {
  const { start, end } = windowAt(spec.window, now);
  return {
    limit: spec.limit,
    remaining: Math.max(0, spec.limit - used),
    resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)),
    windowSeconds: (end - start) / 1000,
  };
}

/**
 * The response fields of draft-ietf-httpapi-ratelimit-headers-10: `RateLimit-Policy` names the
 * policy with its quota (`q`) and window in seconds (`w`); `RateLimit` the same policy's remaining
 * quota (`r`) and seconds until it resets (`t`). The policy is named "calls": it counts paid upstream calls.
 */
export function rateLimitHeaders(state: QuotaState): { 'RateLimit-Policy': string; RateLimit: string } {
  return {
    'RateLimit-Policy': `"calls";q=${state.limit};w=${state.windowSeconds}`,
    RateLimit: `"calls";r=${state.remaining};t=${state.resetSeconds}`,
  };
}
