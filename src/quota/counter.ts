import { LRUCache } from 'lru-cache';

/** One client's counter in one window: `start`/`end` of the window (epoch ms). */
export interface CounterKey {
  id: string;
  start: number;
  end: number;
}

/** Whether a call may be paid for, and the window's use once it is counted. */
export interface Reservation {
  granted: boolean;
  /** Calls counted in the window (this one included when granted). */
  used: number;
  /** Takes the call back (granted only): it was never sent. */
  refund?: () => Promise<void>;
}

/** Where quotas are counted: in this process, or shared by every replica through Redis. */
export interface QuotaCounter {
  /** Counts one call when the window still has room for it under `limit`; atomic, whatever the number of callers. */
  reserve(key: CounterKey, limit: number): Promise<Reservation>;
  /** Calls counted in the window so far. */
  used(key: CounterKey): Promise<number>;
  close(): Promise<void>;
}

/** Clients tracked at once; the least recently seen beyond it start again from their counter in Redis, or from zero. */
const MAX_COUNTERS = 100_000;

/** The counters of this process alone (no REDIS_URL, and while Redis is out: see redis-counter.ts). */
export class MemoryQuotaCounter implements QuotaCounter {
  // Bounded by maxSize (one per client and window), not max: lru-cache preallocates max slots.
  private readonly counts = new LRUCache<string, number>({ maxSize: MAX_COUNTERS, sizeCalculation: () => 1 });

  async reserve(key: CounterKey, limit: number): Promise<Reservation> {
    return this.reserveNow(key, limit);
  }

  reserveNow(key: CounterKey, limit: number): Reservation {
    const name = nameOf(key);
    const used = this.counts.get(name) ?? 0;
    if (used + 1 > limit) return { granted: false, used };
    this.counts.set(name, used + 1, { ttl: Math.max(1, key.end - Date.now()) });
    return { granted: true, used: used + 1, refund: async () => this.add(key, -1) };
  }

  /** Adds `calls` (negative: takes them back) to the window's count, never below zero. */
  add(key: CounterKey, calls: number): void {
    const name = nameOf(key);
    const used = Math.max(0, (this.counts.get(name) ?? 0) + calls);
    this.counts.set(name, used, { ttl: Math.max(1, key.end - Date.now()) });
  }

  async used(key: CounterKey): Promise<number> {
    return this.counts.get(nameOf(key)) ?? 0;
  }

  async close() {}
}

export function nameOf(key: CounterKey): string {
  return `${key.id}:${key.start}`;
}
