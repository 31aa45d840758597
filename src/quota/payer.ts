import { ActionError } from '../kernel/errors.js';
import type { QuotaCounter } from './counter.js';
import { type QuotaSpec, type QuotaState, stateAt, windowAt } from './window.js';

/** A client as quotas count it (src/security/auth.ts tells who a request is). */
export interface QuotaAccount {
  /** Where its quota is counted: its name, else an id that is no secret. */
  id: string;
  /** Its name for metrics and logs; null when the keys file gives none. */
  name: string | null;
  /** Its own quota (null: none); undefined: CLIENT_QUOTA. */
  quota: QuotaSpec | null | undefined;
}

/** Told of each call a client was charged for, and of its remaining quota as last seen. */
export type QuotaObserver = (client: string, charged: number, remaining: number | null) => void;

/** Settles a reserved call once it is over: `sent` false gives it back (it never reached the upstream). */
export type Settle = (sent: boolean) => void;

/** The `extensions` of a QUOTA_EXCEEDED error and `extensions.gateway.quota`. */
export function quotaFields(state: QuotaState): { limit: number; remaining: number; resetSeconds: number } {
  return { limit: state.limit, remaining: state.remaining, resetSeconds: state.resetSeconds };
}

/**
 * One request's client with a quota: reserves each upstream call at the moment it is paid for (the
 * counter checks and counts atomically) and gives it back when it was never sent.
 */
export class Payer {
  /** The client's state as this request last saw it. */
  private last: QuotaState | null = null;
  private lastAt = 0;

  constructor(
    readonly account: QuotaAccount,
    readonly spec: QuotaSpec,
    private readonly counter: QuotaCounter,
    private readonly observe: QuotaObserver,
    private readonly now: () => number = Date.now,
  ) {}

  /** How the client is named in metrics: its name, or what kind of client it is. */
  get label(): string {
    return this.account.name ?? (this.account.id.startsWith('token:') ? 'forwarded' : 'unnamed');
  }

  /** Counts one call, or throws QUOTA_EXCEEDED (nothing is sent) when the window has no room for it. */
  async reserve(action: string): Promise<Settle> {
    const now = this.now();
    const key = { id: this.account.id, ...windowAt(this.spec.window, now) };
    const reservation = await this.counter.reserve(key, this.spec.limit);
    const state = this.seen(stateAt(this.spec, reservation.used, now), now);
    if (!reservation.granted) throw quotaExceeded(action, state, this.spec);
    return (sent) => {
      if (sent) {
        this.observe(this.label, 1, this.account.name ? state.remaining : null);
        return;
      }
      void reservation.refund?.();
      if (this.last === state) this.last = { ...state, remaining: Math.min(state.limit, state.remaining + 1) };
    };
  }

  /** The client's state now: as this request last saw it in this window, else read from the counter. */
  async state(): Promise<QuotaState> {
    const now = this.now();
    if (this.last && windowAt(this.spec.window, this.lastAt).end > now)
      return { ...this.last, resetSeconds: stateAt(this.spec, 0, now).resetSeconds };
    const used = await this.counter.used({ id: this.account.id, ...windowAt(this.spec.window, now) });
    return this.seen(stateAt(this.spec, used, now), now);
  }

  /** Keeps the lowest remaining seen in the window: the lookups of one request reserve concurrently and finish in any order. */
  private seen(fresh: QuotaState, now: number): QuotaState {
    const sameWindow =
      this.last !== null && windowAt(this.spec.window, this.lastAt).start === windowAt(this.spec.window, now).start;
    const state =
      sameWindow && this.last!.remaining < fresh.remaining ? { ...fresh, remaining: this.last!.remaining } : fresh;
    this.last = state;
    this.lastAt = now;
    if (this.account.name) this.observe(this.label, 0, state.remaining);
    return state;
  }
}

function quotaExceeded(action: string, state: QuotaState, spec: QuotaSpec): ActionError {
  return new ActionError(
    'QUOTA_EXCEEDED',
    `This client's quota of ${spec.limit} upstream calls a ${spec.window} is spent; it is whole again in ${state.resetSeconds} s. Lookups the cache holds are still answered.`,
    { action, retryAfter: state.resetSeconds, shed: 'quota', refused: true, extensions: quotaFields(state) },
  );
}
