// Own: reads the upstream's own rate-limit headers and holds calls until its reset; no resilience library knows these headers.
import type { ResponseFacts } from '../client.js';
import { ActionError } from '../../kernel/errors.js';

/** How long to hold calls when the upstream says its budget is spent but not until when (its documented window is a minute). */
const DEFAULT_HOLD_MS = 60_000;
/** The longest hold by default, whatever the upstream says (RETRY_AFTER_MAX_SECONDS). */
const DEFAULT_MAX_HOLD_MS = 60_000;

export type BudgetLevel = 'unknown' | 'ok' | 'low' | 'out';

export interface RateLimitStatus {
  level: BudgetLevel;
  limit: number | null;
  remaining: number | null;
  /** When the upstream's window resets, ISO 8601, when it said. */
  resetAt: string | null;
  /** Whether calls are being refused without reaching the upstream, and for how many more seconds. */
  holding: boolean;
  retryAfter: number | null;
  /** After a hold, the next call is a probe: `due` until one goes, `in-flight` while it is out (the others are refused). */
  probe: 'none' | 'due' | 'in-flight';
}

interface GateLog {
  warn(facts: Record<string, unknown>, message: string): void;
  info(facts: Record<string, unknown>, message: string): void;
}

export interface RateLimitGateOptions {
  log: GateLog;
  /** Names the budget in log lines (never the token itself). */
  budget?: string;
  holdMs?: number;
  /** No hold lasts longer than this, whatever the upstream says; then one probe call decides. */
  maxHoldMs?: number;
  now?: () => number;
}

/**
 * Reads the upstream's rate-limit headers from every response. When they say the budget is spent
 * (remaining 0, or a 429), further calls fail at once with RATE_LIMITED and `retryAfter`, without
 * touching the upstream, until the reset, but never longer than `maxHoldMs`: one answer, however
 * wrong, cannot stop calls for an hour. After the hold one probe call decides (the others are refused
 * while it is out): an answer that is not a hold releases the gate, another hold holds again. A 429
 * that says the token has calls left (`ratelimit-remaining` above 0) holds only the input it answered.
 * Logs when the budget runs low, runs out and comes back.
 */
export class RateLimitGate {
  private limit: number | undefined;
  private remaining: number | undefined;
  private resetAt: number | undefined;
  private holdUntil = 0;
  private probe: 'none' | 'due' | 'in-flight' = 'none';
  /** Inputs held alone (action and input → until): a 429 that said the token still had calls left. */
  private readonly inputHolds = new Map<string, number>();
  private level: BudgetLevel = 'unknown';
  private readonly now: () => number;

  constructor(private readonly options: RateLimitGateOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Throws RATE_LIMITED while the upstream budget is spent, while the probe after a hold is out, or while `input` is held. */
  check(action: string, input?: string): void {
    const key = input === undefined ? undefined : inputKey(action, input);
    const inputLeft = key === undefined ? 0 : (this.inputHolds.get(key) ?? 0) - this.now();
    if (inputLeft > 0) {
      const retryAfter = Math.max(1, Math.ceil(inputLeft / 1000));
      throw new ActionError('RATE_LIMITED', `The upstream refused this lookup for now; retry in ${retryAfter} s`, {
        action,
        retryAfter,
      });
    }
    if (key !== undefined) this.inputHolds.delete(key);
    const wait = this.holdUntil - this.now();
    if (wait > 0) {
      const retryAfter = Math.max(1, Math.ceil(wait / 1000));
      throw new ActionError(
        'RATE_LIMITED',
        `The upstream rate limit is spent; the gateway is holding calls for ${retryAfter} s`,
        { action, retryAfter },
      );
    }
    if (this.probe === 'in-flight') {
      throw new ActionError(
        'RATE_LIMITED',
        'The upstream rate limit was spent; the gateway is trying one call before it sends more',
        {
          action,
          retryAfter: 1,
        },
      );
    }
  }

  /** Checks a call about to be sent; true when it is the probe after a hold (hand it back to `settle`). */
  admit(action: string, input?: string): boolean {
    this.check(action, input);
    if (this.probe !== 'due') return false;
    this.probe = 'in-flight';
    return true;
  }

  /** A probe ended: unless its answer decided (released, or held again), the next call probes. */
  settle(probe: boolean): void {
    if (probe && this.probe === 'in-flight') this.probe = 'due';
  }

  /** A response's headers; `input` names the call it answered (a 429 may hold that input alone). */
  observe(facts: ResponseFacts, input?: string): void {
    const now = this.now();
    if (facts.limit !== undefined) this.limit = facts.limit;
    if (facts.remaining !== undefined) this.remaining = facts.remaining;
    if (facts.resetAt !== undefined) this.resetAt = facts.resetAt;
    const resetIn = facts.resetAt !== undefined ? facts.resetAt - now : undefined;
    const retryIn = facts.retryAfter !== undefined ? facts.retryAfter * 1000 : undefined;
    const holdMs = this.options.holdMs ?? DEFAULT_HOLD_MS;
    const maxHoldMs = this.options.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
    if (facts.status === 429 && facts.remaining !== undefined && facts.remaining > 0 && input !== undefined) {
      // The token still has calls left: what was refused is this lookup, not the token's budget.
      if (this.inputHolds.size >= 10_000) this.inputHolds.delete(this.inputHolds.keys().next().value!);
      this.inputHolds.set(inputKey(facts.action, input), now + Math.min(Math.max(0, retryIn ?? holdMs), maxHoldMs));
      return;
    }
    let holdFor: number | undefined;
    if (facts.status === 429) holdFor = retryIn ?? resetIn ?? holdMs;
    else if (facts.remaining === 0) holdFor = resetIn ?? retryIn ?? holdMs;
    if (holdFor !== undefined) {
      holdFor = Math.min(Math.max(0, holdFor), maxHoldMs);
      this.holdUntil = Math.max(this.holdUntil, now + holdFor);
      this.probe = 'due';
    } else if (this.probe !== 'none' && now >= this.holdUntil) {
      this.probe = 'none'; // an answer after the hold that holds nothing: the budget is back
    }

    const level = this.levelOf(facts, holdFor !== undefined);
    if (level !== this.level) this.report(level, now, facts.retryAfter);
  }

  status(): RateLimitStatus {
    const wait = this.holdUntil - this.now();
    return {
      level: this.level,
      limit: this.limit ?? null,
      remaining: this.remaining ?? null,
      resetAt: this.resetAt !== undefined ? new Date(this.resetAt).toISOString() : null,
      holding: wait > 0,
      retryAfter: wait > 0 ? Math.ceil(wait / 1000) : null,
      probe: this.probe,
    };
  }

  private levelOf(facts: ResponseFacts, spent: boolean): BudgetLevel {
    if (spent) return 'out';
    if (facts.remaining === undefined) return this.level === 'out' && facts.status < 400 ? 'ok' : this.level;
    const low = this.limit !== undefined ? Math.max(1, Math.floor(this.limit / 10)) : 2;
    return facts.remaining <= low ? 'low' : 'ok';
  }

  private report(level: BudgetLevel, now: number, retryAfterSaid: number | undefined): void {
    const previous = this.level;
    this.level = level;
    const facts = {
      upstreamRateLimit: {
        budget: this.options.budget ?? 'ACTION_TOKEN',
        limit: this.limit ?? null,
        remaining: this.remaining ?? null,
        resetInSeconds: this.resetAt !== undefined ? Math.max(0, Math.ceil((this.resetAt - now) / 1000)) : null,
        ...(level === 'out'
          ? { holdingSeconds: Math.ceil((this.holdUntil - now) / 1000), retryAfterSaid: retryAfterSaid ?? null }
          : {}),
      },
    };
    if (level === 'out')
      this.options.log.warn(facts, 'upstream rate limit spent: holding upstream calls, then one probe');
    else if (level === 'low') this.options.log.warn(facts, 'upstream rate limit running low');
    else if (previous === 'low' || previous === 'out') this.options.log.info(facts, 'upstream rate limit recovered');
  }
}

/**
 * The upstream counts its budget per token: the gateway's own (ACTION_TOKEN) and, separately, each
 * token a request brings. One gate per token, the least recently used dropped beyond `maxTokens`.
 */
export class RateLimitGates {
  private readonly shared: RateLimitGate;
  private readonly perToken = new Map<string, RateLimitGate>();

  constructor(
    private readonly options: RateLimitGateOptions,
    private readonly maxTokens = 1_000,
  ) {
    this.shared = new RateLimitGate({ ...options, budget: 'ACTION_TOKEN' });
  }

  /** The gate of a request's own token, or the gateway's when it brought none. */
  forToken(token: string | undefined): RateLimitGate {
    if (!token) return this.shared;
    let gate = this.perToken.get(token);
    if (gate) {
      this.perToken.delete(token);
    } else {
      gate = new RateLimitGate({ ...this.options, budget: 'a request token' });
      if (this.perToken.size >= this.maxTokens) this.perToken.delete(this.perToken.keys().next().value!);
    }
    this.perToken.set(token, gate);
    return gate;
  }

  /** The gateway's own budget, and how many request tokens are being held now. */
  status(): RateLimitStatus & { requestTokensHolding: number } {
    let holding = 0;
    for (const gate of this.perToken.values()) if (gate.status().holding) holding += 1;
    return { ...this.shared.status(), requestTokensHolding: holding };
  }
}

function inputKey(action: string, input: string): string {
  return `${action}\u0000${input}`;
}
