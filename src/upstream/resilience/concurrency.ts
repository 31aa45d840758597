// Own, not cockatiel's bulkhead: fair shares per client and per action, and a start-by time that sheds at once; cockatiel queues FIFO.
import { ActionError, type ShedReason } from '../../kernel/errors.js';
import { cancelledError } from './deadline.js';

interface Waiter {
  action: string;
  client: string;
  grant(): void;
}

export interface FairnessLimits {
  /** In-flight plus queued calls one client may hold (MAX_PER_CLIENT); Infinity: no cap. */
  maxPerClient: number;
  /** In-flight calls one client may hold (half of UPSTREAM_MAX_IN_FLIGHT); more wait their turn. */
  maxInFlightPerClient: number;
  /** In-flight calls one action may hold (UPSTREAM_MAX_IN_FLIGHT_PER_ACTION), its bulkhead; Infinity: no cap. */
  maxPerAction: number;
}

/** What holds a queued call back longest: the gateway's slots, its action's bulkhead, or its client's share. */
type Bound = 'gateway' | 'action' | 'client';

const ANONYMOUS = '';
/** Weight of the newest call in the moving averages of how long a call holds its slot. */
const HOLD_WEIGHT = 0.2;
/** `retryAfter` stays within 1..this many seconds. */
const MAX_RETRY_AFTER_S = 30;

/**
 * At most `maxInFlight` upstream calls at once; up to `maxQueued` more wait their turn, each until the
 * `startBy` its caller gives (its share of the operation's time and QUEUE_TIMEOUT_MS).
 * A call that cannot start by then is shed, never left to pile up: at once when the queue is full or
 * when the calls ahead of it (in the round robin, at the slots' recent pace) would hold it past
 * `startBy`, else when `startBy` comes. Shed calls fail with OVERLOADED, or with RATE_LIMITED when
 * it is their own client's share that is full, and say in `retryAfter` when to come back. Shared fairly:
 *  - a client (API key, forwarded token or address) holds at most `maxPerClient` calls in flight
 *    and queued together, and `maxInFlightPerClient` in flight; the others are untouched by its excess;
 *  - each action has a bulkhead of `maxPerAction` calls in flight, so one slow action cannot take
 *    the slots of the others;
 *  - a freed slot goes to the clients in turn (round robin), each client's calls in FIFO order,
 *    skipping calls whose action is at its bulkhead.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private waitingCount = 0;
  private readonly queues = new Map<string, Waiter[]>();
  private readonly held = new Map<string, number>();
  private readonly actionActive = new Map<string, number>();
  private readonly actionQueued = new Map<string, number>();
  private readonly clientActive = new Map<string, number>();
  /** How long a call has held its slot lately (moving average, ms), overall and per action; unknown until one ended. */
  private holdMs: number | undefined;
  private readonly actionHoldMs = new Map<string, number>();
  private readonly limits: FairnessLimits;

  constructor(
    readonly maxInFlight: number,
    readonly maxQueued: number,
    limits: Partial<FairnessLimits> = {},
  ) {
    this.limits = {
      maxPerClient: limits.maxPerClient ?? Infinity,
      maxInFlightPerClient: limits.maxInFlightPerClient ?? Infinity,
      maxPerAction: limits.maxPerAction ?? Infinity,
    };
  }

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waitingCount;
  }

  /** Clients holding calls now (in flight or queued). */
  get clients(): number {
    return this.held.size;
  }

  /**
   * Resolves with a release function once a slot is held (call it exactly once when the call ends),
   * or rejects: shed (see the class), or cancelled with `signal`. `startBy` is epoch ms.
   */
  acquire(action: string, startBy: number, signal?: AbortSignal, client: string = ANONYMOUS): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelledError(action));
    const holding = this.held.get(client) ?? 0;
    if (client !== ANONYMOUS && holding >= this.limits.maxPerClient) {
      return Promise.reject(this.shed('client-share', action, this.expectedWait(action, client)?.ms));
    }
    if (this.active < this.maxInFlight && this.fits(action, client)) {
      this.take(action, client);
      return Promise.resolve(this.releaser(action, client, Date.now()));
    }
    if (this.waitingCount >= this.maxQueued) {
      return Promise.reject(
        this.shed(
          'queue-full',
          action,
          this.holdMs === undefined ? undefined : ((this.waitingCount + 1) * this.holdMs) / this.maxInFlight,
        ),
      );
    }
    const budget = startBy - Date.now();
    const expected = this.expectedWait(action, client);
    if (budget <= 0 || (expected && expected.ms > budget)) {
      return Promise.reject(
        this.shed(expected?.bound === 'client' ? 'client-share' : 'no-slot-in-time', action, expected?.ms),
      );
    }
    this.held.set(client, holding + 1);
    return new Promise((resolve, reject) => {
      const leave = (granted: boolean) => {
        clearTimeout(timer);
        unfollow?.();
        const queue = this.queues.get(client);
        const index = queue ? queue.indexOf(waiter) : -1;
        if (index >= 0) {
          queue!.splice(index, 1);
          this.waitingCount -= 1;
          bump(this.actionQueued, action, -1);
          if (queue!.length === 0) this.queues.delete(client);
        }
        if (!granted) this.unhold(client);
      };
      const cancelled = () => {
        leave(false);
        reject(cancelledError(action));
      };
      const expire = () => {
        leave(false);
        // Its own share held it (all its in-flight calls out while the gateway had room): the client's limit, not the gateway's.
        const ownShare =
          client !== ANONYMOUS &&
          this.active < this.maxInFlight &&
          (this.clientActive.get(client) ?? 0) >= this.limits.maxInFlightPerClient;
        reject(this.shed(ownShare ? 'client-share' : 'wait-expired', action, this.expectedWait(action, client)?.ms));
      };
      const timer = Number.isFinite(budget) ? setTimeout(expire, budget) : undefined;
      const waiter: Waiter = {
        action,
        client,
        grant: () => {
          leave(true);
          this.active += 1;
          bump(this.actionActive, action, 1);
          if (client !== ANONYMOUS) bump(this.clientActive, client, 1);
          resolve(this.releaser(action, client, Date.now()));
        },
      };
      signal?.addEventListener('abort', cancelled, { once: true });
      const unfollow = signal ? () => signal.removeEventListener('abort', cancelled) : undefined;
      let queue = this.queues.get(client);
      if (!queue) {
        queue = [];
        this.queues.set(client, queue);
      }
      queue.push(waiter);
      this.waitingCount += 1;
      bump(this.actionQueued, action, 1);
    });
  }

  /**
   * How long a call queued now would wait for its slot, from the calls ahead of it and how long calls
   * hold their slots lately: ahead in the round robin are the client's own queued calls and, of every
   * other client, as many as that. Undefined before any call has ended (no pace to go by).
   */
  private expectedWait(action: string, client: string): { ms: number; bound: Bound } | undefined {
    const holdMs = this.holdMs;
    if (holdMs === undefined) return undefined;
    const own = this.queues.get(client)?.length ?? 0;
    let wait: { ms: number; bound: Bound } = { ms: 0, bound: 'gateway' };
    if (this.active >= this.maxInFlight) {
      let ahead = own;
      for (const [other, queue] of this.queues) if (other !== client) ahead += Math.min(queue.length, own + 1);
      wait = { ms: ((ahead + 1) * holdMs) / this.maxInFlight, bound: 'gateway' };
    }
    if ((this.actionActive.get(action) ?? 0) >= this.limits.maxPerAction) {
      const ms =
        (((this.actionQueued.get(action) ?? 0) + 1) * (this.actionHoldMs.get(action) ?? holdMs)) /
        this.limits.maxPerAction;
      if (ms > wait.ms) wait = { ms, bound: 'action' };
    }
    if (client !== ANONYMOUS && (this.clientActive.get(client) ?? 0) >= this.limits.maxInFlightPerClient) {
      const ms = ((own + 1) * holdMs) / this.limits.maxInFlightPerClient;
      if (ms > wait.ms) wait = { ms, bound: 'client' };
    }
    return wait;
  }

  /** The refusal of a call that cannot start in time; `waitMs`, when known, says when to come back. */
  private shed(reason: ShedReason, action: string, waitMs: number | undefined): ActionError {
    const retryAfter = Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil((waitMs ?? 1000) / 1000)));
    const load = `${this.active} upstream calls in flight, ${this.waitingCount} waiting`;
    if (reason === 'client-share') {
      return new ActionError(
        'RATE_LIMITED',
        `This client's share of the gateway's upstream calls is full (at most ${this.limits.maxInFlightPerClient} in flight and ${this.limits.maxPerClient} in flight or waiting); retry in ${retryAfter} s`,
        { action, retryAfter, shed: reason },
      );
    }
    const why =
      reason === 'queue-full'
        ? `its queue is full (${load}, at most ${this.maxInFlight} and ${this.maxQueued})`
        : `this lookup could not start in time (${load})`;
    return new ActionError('OVERLOADED', `The gateway is busy: ${why}; retry in ${retryAfter} s`, {
      action,
      retryAfter,
      shed: reason,
    });
  }

  /** Whether a call may start now as far as its action's bulkhead and its client's share go. */
  private fits(action: string, client: string): boolean {
    if ((this.actionActive.get(action) ?? 0) >= this.limits.maxPerAction) return false;
    return client === ANONYMOUS || (this.clientActive.get(client) ?? 0) < this.limits.maxInFlightPerClient;
  }

  private take(action: string, client: string): void {
    this.active += 1;
    bump(this.actionActive, action, 1);
    if (client !== ANONYMOUS) bump(this.clientActive, client, 1);
    bump(this.held, client, 1);
  }

  private unhold(client: string): void {
    bump(this.held, client, -1);
  }

  private releaser(action: string, client: string, startedAt: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      bump(this.actionActive, action, -1);
      if (client !== ANONYMOUS) bump(this.clientActive, client, -1);
      this.unhold(client);
      this.observeHold(action, Date.now() - startedAt);
      this.grantNext();
    };
  }

  private observeHold(action: string, ms: number): void {
    this.holdMs = this.holdMs === undefined ? ms : this.holdMs + HOLD_WEIGHT * (ms - this.holdMs);
    const before = this.actionHoldMs.get(action);
    this.actionHoldMs.set(action, before === undefined ? ms : before + HOLD_WEIGHT * (ms - before));
  }

  /** Hands free slots to waiting calls, one client at a time in turn. */
  private grantNext(): void {
    while (this.active < this.maxInFlight && this.waitingCount > 0) {
      let granted = false;
      // The map's order is the turn: a client served goes to the back.
      for (const [client, queue] of this.queues) {
        const waiter = queue.find((w) => this.fits(w.action, client));
        if (!waiter) continue;
        // Its remaining calls (if any) queue again behind the other clients.
        this.queues.delete(client);
        if (queue.length > 0) this.queues.set(client, queue);
        waiter.grant();
        granted = true;
        break;
      }
      if (!granted) return; // everything waiting is for actions at their bulkhead or clients at their share
    }
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
