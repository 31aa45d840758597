import { LRUCache } from 'lru-cache';
import { answer, askPrimary } from '../kernel/cluster-ipc.js';
import { ActionError } from '../kernel/errors.js';
import { type CounterKey, MemoryQuotaCounter, nameOf, type QuotaCounter, type Reservation } from './counter.js';

const RESERVE = 'quota:reserve';
const ADD = 'quota:add';
const USED = 'quota:used';
/** How long a worker waits for the primary's count of a call before it refuses the call. */
const PRIMARY_ANSWER_MS = 500;

interface Counted {
  granted: boolean;
  used: number;
}

/**
 * In a worker of WORKERS > 1 without Redis: every worker's calls are counted in one counter per client
 * and window, held by the primary (`countQuotasForWorkers`), so a quota of 3 a day allows 3 calls
 * whatever the number of workers. Fails closed: a call the primary does not count within 500 ms is not
 * made (OVERLOADED, retry in 1 s), so nothing is paid that the shared count did not see.
 */
export class PrimaryQuotaCounter implements QuotaCounter {
  /** The use each counter had when the primary last answered for it, for a look while it does not. */
  private readonly lastSeen = new LRUCache<string, number>({ maxSize: 100_000, sizeCalculation: () => 1 });

  async reserve(key: CounterKey, limit: number): Promise<Reservation> {
    const counted = await askPrimary<Counted>(RESERVE, { key, limit }, PRIMARY_ANSWER_MS);
    if (!counted) {
      throw new ActionError(
        'OVERLOADED',
        "The gateway is busy: this call could not be counted against the client's quota in time; retry in 1 s",
        { retryAfter: 1 },
      );
    }
    this.lastSeen.set(nameOf(key), counted.used);
    return counted.granted
      ? {
          granted: true,
          used: counted.used,
          // A give-back that is lost leaves the call counted: the client pays one call too many, never one too few.
          refund: async () => void (await askPrimary(ADD, { key, calls: -1 }, PRIMARY_ANSWER_MS)),
        }
      : { granted: false, used: counted.used };
  }

  async used(key: CounterKey): Promise<number> {
    const used = await askPrimary<number>(USED, key, PRIMARY_ANSWER_MS);
    if (used === undefined) return this.lastSeen.get(nameOf(key)) ?? 0;
    this.lastSeen.set(nameOf(key), used);
    return used;
  }

  async close() {}
}

/** In the primary of WORKERS > 1 without Redis: holds the quota counters every worker's PrimaryQuotaCounter counts in. */
export function countQuotasForWorkers(): void {
  const counter = new MemoryQuotaCounter();
  answer(RESERVE, (payload) => {
    const { key, limit } = payload as { key: CounterKey; limit: number };
    if (!validKey(key) || !Number.isInteger(limit)) return undefined;
    const { granted, used } = counter.reserveNow(key, limit);
    return { granted, used } satisfies Counted;
  });
  answer(ADD, (payload) => {
    const { key, calls } = payload as { key: CounterKey; calls: number };
    if (!validKey(key) || !Number.isInteger(calls)) return undefined;
    counter.add(key, calls);
    return true;
  });
  answer(USED, (key) => (validKey(key) ? counter.used(key as CounterKey) : undefined));
}

function validKey(key: unknown): key is CounterKey {
  const { id, start, end } = (key ?? {}) as Partial<CounterKey>;
  return typeof id === 'string' && Number.isFinite(start) && Number.isFinite(end);
}
