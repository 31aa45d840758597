import cluster, { type Worker } from 'node:cluster';
import { answer, askPrimary } from '../kernel/cluster-ipc.js';
import { MemoryStore } from './memory-store.js';
import type { CacheEntry, CachePart, CacheStore } from './store.js';

const GET = 'cache:get';
const SET = 'cache:set';
const LEASE = 'cache:lease';
const RELEASE = 'cache:release';
const RENEW = 'cache:renew';
const HELD = 'cache:held';
/** How long a worker waits for the primary; without an answer it goes on alone (its own tier, its own call). */
const PRIMARY_ANSWER_MS = 250;
/** How long a copy the primary confirmed is served from the worker's own tier without asking again. */
const LOCAL_TTL_MS = 2_000;

/** An entry as the primary holds it: its value's JSON, its stored-at time and the time it has left. */
interface Held {
  json: string;
  t: number;
  ttlMs: number;
}

/**
 * The cache of a worker of WORKERS > 1 without REDIS_URL: the primary holds the entries and the leases every
 * worker shares (`shareCacheForWorkers`), so a lookup one worker fetched is a hit in the others and two
 * workers asking for the same lookup at once make one call, as replicas do through Redis. A copy the primary
 * confirmed is served from the worker's own tier for 2 s without a round trip. While the primary does not
 * answer (within 250 ms), the worker serves what it holds and calls for the rest itself: never a failed
 * lookup, at worst a call another worker also made.
 */
export class WorkerGroupStore implements CacheStore {
  readonly kind = 'workers';
  private readonly near: MemoryStore;

  constructor(maxBytes: number) {
    this.near = new MemoryStore(maxBytes);
  }

  peek(key: string): CacheEntry | undefined {
    return this.near.peekConfirmed(key, Date.now() - LOCAL_TTL_MS);
  }

  peekStoredAt(key: string): number | undefined {
    return this.near.peekStoredAtConfirmed(key, Date.now() - LOCAL_TTL_MS);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const confirmed = this.peek(key);
    if (confirmed !== undefined) return confirmed;
    const held = await askPrimary<Held | null>(GET, key, PRIMARY_ANSWER_MS);
    if (held === undefined) return this.near.peek(key);
    if (held === null) return undefined;
    const entry: CacheEntry = { v: JSON.parse(held.json), t: held.t };
    this.near.put(key, entry, held.ttlMs, held.json, Date.now());
    return entry;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<void> {
    if (ttlMs <= 0) return;
    const json = valueJson ?? JSON.stringify(entry.v);
    this.near.put(key, entry, ttlMs, json, Date.now());
    await askPrimary(SET, { key, json, t: entry.t, ttlMs } satisfies Held & { key: string }, PRIMARY_ANSWER_MS);
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    // No answer: this worker calls itself rather than wait for a holder nobody can name.
    return (await askPrimary<boolean>(LEASE, { key, ttlMs }, PRIMARY_ANSWER_MS)) ?? true;
  }

  async releaseLease(key: string): Promise<void> {
    await askPrimary(RELEASE, key, PRIMARY_ANSWER_MS);
  }

  async renewLeases(keys: readonly string[], ttlMs: number): Promise<void> {
    await askPrimary(RENEW, { keys, ttlMs }, PRIMARY_ANSWER_MS);
  }

  async leaseHeld(key: string): Promise<boolean> {
    return (await askPrimary<boolean>(HELD, key, PRIMARY_ANSWER_MS)) ?? false;
  }

  parts(): CachePart[] {
    return this.near.parts();
  }

  healthy(): boolean {
    return true;
  }

  async close(): Promise<void> {}
}

/**
 * In the primary of WORKERS > 1 without REDIS_URL: the entries (bounded by CACHE_MAX_MB, as a worker's own
 * tier is) and the leases every worker's WorkerGroupStore shares. A worker's leases go with it when it dies,
 * so a waiter in another worker calls at once instead of waiting for them to run out.
 */
export function shareCacheForWorkers(maxBytes: number): void {
  const entries = new MemoryStore(maxBytes);
  const leases = new Map<string, { worker: number; until: number }>();
  const holderOf = (key: string) => {
    const lease = leases.get(key);
    if (lease && lease.until <= Date.now()) leases.delete(key);
    return lease && lease.until > Date.now() ? lease : undefined;
  };
  answer(GET, (key) => {
    if (typeof key !== 'string') return undefined;
    const held = entries.peekJson(key);
    return held ? ({ json: held.json, t: held.t, ttlMs: entries.remainingTtl(key) } satisfies Held) : null;
  });
  answer(SET, (payload) => {
    const { key, json, t, ttlMs } = payload as Partial<Held & { key: string }>;
    if (typeof key !== 'string' || typeof json !== 'string' || !Number.isFinite(t) || !Number.isFinite(ttlMs))
      return undefined;
    entries.put(key, { v: undefined, t: t! }, ttlMs!, json, Date.now());
    return true;
  });
  answer(LEASE, (payload, worker) => {
    const { key, ttlMs } = payload as { key?: unknown; ttlMs?: unknown };
    if (typeof key !== 'string' || typeof ttlMs !== 'number' || !worker) return undefined;
    const holder = holderOf(key);
    if (holder && holder.worker !== worker.id) return false;
    leases.set(key, { worker: worker.id, until: Date.now() + ttlMs });
    return true;
  });
  answer(RELEASE, (key, worker) => {
    if (typeof key === 'string' && worker && holderOf(key)?.worker === worker.id) leases.delete(key);
    return true;
  });
  answer(RENEW, (payload, worker) => {
    const { keys, ttlMs } = payload as { keys?: unknown; ttlMs?: unknown };
    if (!Array.isArray(keys) || typeof ttlMs !== 'number' || !worker) return undefined;
    for (const key of keys) {
      const holder = typeof key === 'string' ? holderOf(key) : undefined;
      if (holder?.worker === worker.id) holder.until = Date.now() + ttlMs;
    }
    return true;
  });
  answer(HELD, (key) => (typeof key === 'string' ? holderOf(key) !== undefined : undefined));
  cluster.on('exit', (worker: Worker) => {
    for (const [key, lease] of leases) if (lease.worker === worker.id) leases.delete(key);
  });
}
