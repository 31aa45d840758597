// Own, not cockatiel's retry: only never-sent calls and a retry-after that fits the deadline are retried, within a budget of calls.
import type { ResponseFacts } from '../client.js';
import { ActionError } from '../../kernel/errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt, at most. */
  maxRetries: number;
  /** Back-off before retry n is drawn from [base·2^(n-1) / 2, base·2^(n-1)]. */
  baseDelayMs: number;
}

/** Jittered exponential back-off ("equal jitter"): half fixed, half random, doubling per retry. */
export function backoffDelay(retry: number, baseDelayMs: number, random: () => number = Math.random): number {
  const ceiling = baseDelayMs * 2 ** Math.max(0, retry - 1);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * How long to wait before retrying a failed attempt, or null when it must not be retried. Safe to
 * retry on a paid, rate-limited upstream: a request that provably never reached it, and a 503 or
 * 429 that says when to come back (`retry-after`; the caller checks that it fits in the deadline).
 * Everything else may have run, and been charged, upstream, or gives no sign of when to try again.
 */
export function retryDelay(
  error: unknown,
  facts: ResponseFacts | undefined,
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | null {
  if (!(error instanceof ActionError)) return null;
  const backoff = backoffDelay(retry, policy.baseDelayMs, random);
  if (error.neverSent) return backoff;
  const retryAfter = facts?.retryAfter ?? error.retryAfter;
  if (retryAfter === undefined) return null;
  if (facts?.status === 503) return Math.max(retryAfter * 1000, backoff);
  if (facts?.status === 429) {
    // After the reset, plus jitter so that calls held by the same 429 do not return in one burst.
    return retryAfter * 1000 + Math.round(random() * policy.baseDelayMs) + 5;
  }
  return null;
}

/** Events in a sliding window, counted in buckets so that memory stays constant under load. */
export class SlidingCount {
  private readonly buckets: number[];
  private readonly bucketMs: number;
  private currentSlot = 0;

  constructor(
    readonly windowMs: number,
    bucketCount = 10,
    private readonly now: () => number = Date.now,
  ) {
    this.buckets = new Array<number>(bucketCount).fill(0);
    this.bucketMs = windowMs / bucketCount;
    this.currentSlot = Math.floor(this.now() / this.bucketMs);
  }

  add(n = 1): void {
    this.advance();
    this.buckets[this.currentSlot % this.buckets.length]! += n;
  }

  total(): number {
    this.advance();
    return this.buckets.reduce((sum, n) => sum + n, 0);
  }

  private advance(): void {
    const slot = Math.floor(this.now() / this.bucketMs);
    const stale = Math.min(slot - this.currentSlot, this.buckets.length);
    for (let i = 1; i <= stale; i += 1) this.buckets[(this.currentSlot + i) % this.buckets.length] = 0;
    this.currentSlot = Math.max(slot, this.currentSlot);
  }
}

export interface RetryBudgetOptions {
  /** Retries allowed as a share of calls in the window, 0 to 1. */
  ratio: number;
  windowMs: number;
  /** Retries always allowed per window, so that a quiet gateway can still retry. */
  minPerWindow: number;
  now?: () => number;
}

/**
 * Keeps retries to a fraction of calls over a sliding window (plus a small floor), so that an
 * upstream in trouble never sees a retry storm from this gateway.
 */
export class RetryBudget {
  private readonly calls: SlidingCount;
  private readonly retries: SlidingCount;

  constructor(private readonly options: RetryBudgetOptions) {
    this.calls = new SlidingCount(options.windowMs, 10, options.now);
    this.retries = new SlidingCount(options.windowMs, 10, options.now);
  }

  /** Counts a call (its first attempt). */
  recordCall(): void {
    this.calls.add();
  }

  /** Spends a retry if the budget allows one now. */
  tryRetry(): boolean {
    const allowed = Math.max(this.options.minPerWindow, this.options.ratio * this.calls.total());
    if (this.retries.total() + 1 > allowed) return false;
    this.retries.add();
    return true;
  }

  snapshot(): { windowMs: number; calls: number; retries: number } {
    return { windowMs: this.options.windowMs, calls: this.calls.total(), retries: this.retries.total() };
  }
}
