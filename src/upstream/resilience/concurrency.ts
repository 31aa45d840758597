import type { CallDeadline } from '../client.js';
import { ActionError } from '../errors.js';
import { cancelledError, deadlineError } from './deadline.js';

interface Waiter {
  grant(): void;
}

/**
 * At most `maxInFlight` upstream calls at once; up to `maxQueued` more wait their turn in FIFO
 * order (spending their own deadline, cancelled with their request); beyond that, calls fail at
 * once with UPSTREAM_UNAVAILABLE instead of piling up.
 */
export class ConcurrencyLimiter {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly maxInFlight: number,
    readonly maxQueued: number,
  ) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is held; call it exactly once when the call ends. */
  acquire(action: string, deadline: CallDeadline, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelledError(action));
    if (this.active < this.maxInFlight) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxQueued) {
      return Promise.reject(
        new ActionError(
          'UPSTREAM_UNAVAILABLE',
          `The gateway is at its limit of ${this.maxInFlight} upstream calls with ${this.maxQueued} waiting; try again shortly`,
          { action },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
      };
      const onAbort = () => {
        leave();
        reject(cancelledError(action));
      };
      const timer = setTimeout(() => {
        leave();
        reject(deadlineError(action, deadline, 'waiting for a free upstream slot'));
      }, Math.max(0, deadline.at - Date.now()));
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve(this.releaser());
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting[0];
      if (next) next.grant(); // the slot passes straight to the next waiter: `active` stays the same
      else this.active -= 1;
    };
  }
}
