import type { CallDeadline } from '../client.js';
import { ActionError } from '../../kernel/errors.js';
import { cancelledError, deadlineError } from './deadline.js';

interface Waiter {
  action: string;
  client: string;
  grant(): void;
}

export interface FairnessLimits {
  /** In-flight plus queued calls one client may hold (UPSTREAM_MAX_PER_CLIENT); Infinity: no cap. */
  maxPerClient: number;
  /** In-flight calls one client may hold (UPSTREAM_MAX_IN_FLIGHT_PER_CLIENT); more wait their turn. */
  maxInFlightPerClient: number;
  /** In-flight calls one action may hold (UPSTREAM_MAX_IN_FLIGHT_PER_ACTION), its bulkhead; Infinity: no cap. */
  maxPerAction: number;
}

const ANONYMOUS = '';

/**
 * At most `maxInFlight` upstream calls at once; up to `maxQueued` more wait their turn (spending
 * their own deadline, cancelled with their request); beyond that, calls fail at once with
 * UPSTREAM_UNAVAILABLE instead of piling up. Shared fairly:
 *  - a client (API key, forwarded token or address) holds at most `maxPerClient` calls in flight
 *    and queued together; past it its calls fail at once with RATE_LIMITED, the others untouched;
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
  private readonly clientActive = new Map<string, number>();
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

  /** Resolves with a release function once a slot is held; call it exactly once when the call ends. */
  acquire(action: string, deadline: CallDeadline, signal?: AbortSignal, client: string = ANONYMOUS): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelledError(action));
    const holding = this.held.get(client) ?? 0;
    if (client !== ANONYMOUS && holding >= this.limits.maxPerClient) {
      return Promise.reject(
        new ActionError(
          'RATE_LIMITED',
          `This client already has ${this.limits.maxPerClient} upstream calls in flight or waiting (its share of the gateway's); retry when they finish`,
          { action, retryAfter: 1 },
        ),
      );
    }
    if (this.active < this.maxInFlight && this.fits(action, client)) {
      this.take(action, client);
      return Promise.resolve(this.releaser(action, client));
    }
    if (this.waitingCount >= this.maxQueued) {
      return Promise.reject(
        new ActionError(
          'UPSTREAM_UNAVAILABLE',
          `The gateway is at its limit of ${this.maxInFlight} upstream calls with ${this.maxQueued} waiting; try again shortly`,
          { action },
        ),
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
          if (queue!.length === 0) this.queues.delete(client);
        }
        if (!granted) this.unhold(client);
      };
      const cancelled = () => {
        leave(false);
        reject(cancelledError(action));
      };
      const timer = setTimeout(
        () => {
          leave(false);
          reject(deadlineError(action, deadline, 'waiting for a free upstream slot'));
        },
        Math.max(0, deadline.at - Date.now()),
      );
      const waiter: Waiter = {
        action,
        client,
        grant: () => {
          leave(true);
          this.active += 1;
          bump(this.actionActive, action, 1);
          if (client !== ANONYMOUS) bump(this.clientActive, client, 1);
          resolve(this.releaser(action, client));
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

  private releaser(action: string, client: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
      bump(this.actionActive, action, -1);
      if (client !== ANONYMOUS) bump(this.clientActive, client, -1);
      this.unhold(client);
      this.grantNext();
    };
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
