import type { Logger } from 'pino';
import type { MemoryStore } from './memory-store.js';
import type { RedisState } from '../redis/connection.js';
import { type EntryWrite, NO_ANSWER, type RedisStore } from './redis-store.js';
import { entryJson, type CacheEntry, type CachePart, type CacheStore } from './store.js';

/** The in-process tier in front of Redis (its TTL and write-behind bound are constants, src/cache/settings.ts; bounded by CACHE_MAX_MB). */
export interface TierSettings {
  /** How long an entry Redis confirmed is served from this process without asking Redis again; 0: every lookup asks. */
  localTtlMs: number;
  /** Entries stored while Redis was out, kept (their keys; the values are in the tier) to be written when it is back. */
  writeBehindMax: number;
}

/** The tier's own state in /healthz, beside Redis's. */
export interface TierState extends RedisState {
  /** Entries stored while Redis (or their cluster shard) was out, waiting to be written to it. */
  pendingWrites: number;
  /** Such entries dropped because more were waiting than CACHE_WRITE_BEHIND_MAX (each costs at most a later upstream call). */
  droppedWrites: number;
}

const RESTORE_BATCH = 100;
/** While entries wait and Redis answers (a lost write, not an outage), they are tried again this often. */
const RETRY_MS = 1000;
/** How long an entry kept under a stand-in key lives: long enough to bridge a failover (its own key is written back after). */
const STAND_IN_TTL_MS = 60_000;

/**
 * Redis with an in-process tier in front (the same keys, bounded by CACHE_MAX_MB, each entry kept until
 * it expires in Redis):
 *
 * - a hot key is served from this process for LOCAL_TTL_MS (2 s) after Redis last confirmed it, with no
 *   round trip; a newer entry another process stores (a @fresh read, a refresh after expiry) is announced
 *   on a Redis channel and ends that at once;
 * - while Redis, or the cluster shard of a key, does not answer (an outage, a freeze, a failover), what
 *   this process holds is served from here: it never pays the upstream twice for a lookup it holds; while
 *   a cluster shard fails over, entries for its keys go under a stand-in key on another master (leases
 *   too: redis-store.ts), so the processes still share what they fetch and still coalesce;
 * - what it stored meanwhile is written to Redis when it answers again (write-behind, bounded by
 *   CACHE_WRITE_BEHIND_MAX), where Redis has nothing newer; an entry Redis lost (restarted empty, failed
 *   over before replicating) is written back the same way the first time this process misses it there.
 *
 * Coalescing across processes is Redis's lease, unchanged; @fresh reads skip both tiers and refresh both.
 */
export class TieredStore implements CacheStore {
  readonly kind = 'redis';
  /** Keys to write to Redis when it answers, oldest first (a Map keeps insertion order). */
  private readonly pending = new Map<string, true>();
  private dropped = 0;
  private warnedFull = false;
  private flushing = false;
  private flushAgain = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly near: MemoryStore,
    private readonly shared: RedisStore,
    private readonly settings: TierSettings,
    private readonly logger: Logger,
  ) {
    shared.onBack(() => this.flushSoon());
    shared.onRefreshed((key, t) => {
      const held = near.peekStoredAt(key);
      if (held !== undefined && held !== t) near.doubt(key);
    });
  }

  /** Resolves once Redis is connected, or after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void> {
    return this.shared.ready(timeoutMs);
  }

  peek(key: string): CacheEntry | undefined {
    if (this.settings.localTtlMs > 0) {
      const confirmed = this.near.peekConfirmed(key, Date.now() - this.settings.localTtlMs);
      if (confirmed !== undefined) return confirmed;
    }
    return this.shared.answers(key, 'read') ? undefined : this.near.peek(key);
  }

  peekStoredAt(key: string): number | undefined {
    if (this.settings.localTtlMs > 0) {
      const confirmed = this.near.peekStoredAtConfirmed(key, Date.now() - this.settings.localTtlMs);
      if (confirmed !== undefined) return confirmed;
    }
    return this.shared.answers(key, 'read') ? undefined : this.near.peekStoredAt(key);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    let text = await this.shared.read(key);
    if (text === NO_ANSWER || text === null) {
      // Its shard failing over, or just failed over: another process may have kept the entry under the stand-in key.
      const standIn = this.shared.standInToRead(key);
      if (standIn !== undefined) {
        const kept = await this.shared.read(standIn);
        if (typeof kept === 'string') text = kept;
      }
    }
    if (text === NO_ANSWER) return this.near.peek(key);
    if (text === null) return this.heldAfterMiss(key);
    let entry: CacheEntry;
    try {
      entry = JSON.parse(text) as CacheEntry;
    } catch {
      return undefined;
    }
    this.keep(key, entry);
    return entry;
  }

  async storedAt(key: string): Promise<number | undefined> {
    const stamp = await this.shared.stamp(key);
    const held = this.near.peekStoredAt(key);
    if (stamp === NO_ANSWER) return held;
    if (stamp === undefined) {
      if (held !== undefined) this.queue(key, true);
      return held;
    }
    if (held !== undefined && !this.near.confirm(key, stamp)) this.near.doubt(key);
    return stamp;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<void> {
    if (ttlMs <= 0) return;
    this.near.put(key, entry, ttlMs, valueJson, Date.now());
    const standIn = this.shared.standInFor(key);
    const keepUnder = (other: string) => this.shared.write(other, entry, Math.min(ttlMs, STAND_IN_TTL_MS), valueJson);
    const [written] = await Promise.all([
      this.shared.write(key, entry, ttlMs, valueJson),
      standIn === undefined ? true : keepUnder(standIn),
    ]);
    if (written) return;
    this.queue(key, false);
    // Its master died while this write was on its way: the stand-in takes it.
    const late = this.shared.standInFor(key);
    if (late !== undefined && late !== standIn) await keepUnder(late);
  }

  acquireLease(key: string, ttlMs: number): Promise<boolean> {
    return this.shared.acquireLease(key, ttlMs);
  }

  releaseLease(key: string): Promise<void> {
    return this.shared.releaseLease(key);
  }

  renewLeases(keys: readonly string[], ttlMs: number): Promise<void> {
    return this.shared.renewLeases(keys, ttlMs);
  }

  leaseHeld(key: string): Promise<boolean> {
    return this.shared.leaseHeld(key);
  }

  parts(): CachePart[] {
    return this.near.parts();
  }

  healthy(): boolean {
    return this.shared.healthy();
  }

  health(): TierState {
    return { ...this.shared.health(), pendingWrites: this.pending.size, droppedWrites: this.dropped };
  }

  async close(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    await this.shared.close();
    await this.near.close();
  }

  /** An entry Redis sent: kept here until it expires there, confirmed now. */
  private keep(key: string, entry: CacheEntry): void {
    if (this.near.confirm(key, entry.t)) return;
    // An entry without its expiry (written by an older gateway) is kept only as long as it is served unasked.
    const ttlMs = entry.x === undefined ? this.settings.localTtlMs : Math.floor(entry.x - Date.now());
    this.near.put(key, { v: entry.v, t: entry.t }, ttlMs, undefined, Date.now());
  }

  /** Redis answered that it has no entry where this process holds one: Redis lost it, so it is written back. */
  private heldAfterMiss(key: string): CacheEntry | undefined {
    const held = this.near.peek(key);
    if (held !== undefined) this.queue(key, true);
    return held;
  }

  /** Keeps `key` to be written to Redis; `now`: Redis answers, write it at once. */
  private queue(key: string, now: boolean): void {
    if (this.settings.writeBehindMax === 0) return;
    this.pending.delete(key);
    this.pending.set(key, true);
    if (this.pending.size > this.settings.writeBehindMax) {
      const oldest = this.pending.keys().next().value!;
      this.pending.delete(oldest);
      this.dropped += 1;
      if (!this.warnedFull) {
        this.warnedFull = true;
        this.logger.warn(
          { cache: 'redis', writeBehindMax: this.settings.writeBehindMax },
          'cache: more entries wait for Redis than CACHE_WRITE_BEHIND_MAX; dropping the oldest (they stay in this process)',
        );
      }
    }
    if (now || this.shared.answers(key, 'write')) this.flushSoon();
  }

  private flushSoon(): void {
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = true;
    setImmediate(() => void this.flush());
  }

  /** Writes the kept entries, a batch at a time, while their shards answer. */
  private async flush(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch: EntryWrite[] = [];
        for (const key of this.pending.keys()) {
          if (!this.shared.answers(key, 'write')) continue;
          this.pending.delete(key);
          const held = this.near.peekJson(key);
          const ttlMs = this.near.remainingTtl(key);
          if (held === undefined || ttlMs <= 0) continue;
          batch.push({ key, json: entryJson(held.json, held.t, Date.now() + ttlMs), t: held.t, ttlMs });
          if (batch.length >= RESTORE_BATCH) break;
        }
        if (batch.length === 0) break;
        const unanswered = await this.shared.restore(batch);
        for (const key of unanswered) this.pending.set(key, true);
        if (unanswered.length === batch.length) break;
      }
      if (this.pending.size === 0) this.warnedFull = false;
    } finally {
      this.flushing = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        this.flushSoon();
      } else if (this.pending.size > 0 && !this.retry) {
        // Also when Redis never went unhealthy (a write that timed out alone) there is no "back" to wait for.
        this.retry = setTimeout(() => {
          this.retry = null;
          this.flushSoon();
        }, RETRY_MS);
        this.retry.unref();
      }
    }
  }
}
