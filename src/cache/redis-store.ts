import DataLoader from 'dataloader';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DEFAULT_REDIS_GUARD, RedisGuard, type RedisGuardSettings, type RedisHealth } from './redis-guard.js';
import { entryJson, type CacheEntry, type CacheStore } from './store.js';

const ACQUIRE = `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
return 0`;

const MAX_KEYS_PER_READ = 100;
/** An entry is the JSON of `{ v, t }`: its stored-at time closes it, so its last characters are enough. */
const STORED_AT = /"t":(\d+)\}$/;
const STORED_AT_TAIL = 32;

/**
 * The shared cache: several gateway processes read and write one Redis. Redis trouble never fails a
 * lookup and never stalls one: every command has a short deadline (REDIS_COMMAND_TIMEOUT_MS), a
 * command that cannot run in time reads as a miss (the gateway calls the upstream instead), and after
 * a few misses in a row Redis is skipped altogether until a probe finds it answering again.
 */
export class RedisStore implements CacheStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly guard: RedisGuard;
  private readonly leaseOwner = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  /**
   * Reads issued in one tick (the lookups of an operation, and of every operation running beside it)
   * go to Redis as one MGET: one round trip, under one deadline, instead of one GET each.
   */
  private readonly reads = new DataLoader<string, string | null>(
    async (keys) => (await this.guard.run(() => this.redis.mget(...keys), null)) ?? keys.map(() => null),
    { cache: false, maxBatchSize: MAX_KEYS_PER_READ },
  );

  /**
   * When entries were stored, from their last characters (GETRANGE), for remembered results to check an
   * entry is still the one they were built from: one pipelined round trip per tick, and one read per key
   * however many requests ask at once (DataLoader's cache, cleared as each read settles), instead of
   * every request fetching the whole value.
   */
  private readonly stamps = new DataLoader<string, number | undefined>(
    async (keys) => {
      const tails =
        (await this.guard.run(async () => {
          const replies = (await keys.reduce((pipeline, key) => pipeline.getrange(key, -STORED_AT_TAIL, -1), this.redis.pipeline()).exec()) ?? [];
          return replies.map(([error, tail]) => (error || typeof tail !== 'string' ? null : tail));
        }, null)) ?? [];
      // No answer reads as unknown, which a replay takes as changed: the operation runs.
      return keys.map((_, index) => {
        const match = STORED_AT.exec(tails[index] ?? '');
        return match ? Number(match[1]) : undefined;
      });
    },
    { maxBatchSize: MAX_KEYS_PER_READ },
  );

  constructor(url: string, logger: Logger, settings: RedisGuardSettings = DEFAULT_REDIS_GUARD) {
    this.redis = new Redis(url, {
      lazyConnect: false,
      // A command for a Redis that is not connected fails at once instead of waiting in a queue.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: Math.max(settings.commandTimeoutMs, 200),
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.guard = new RedisGuard(this.redis, settings, logger, 'cache', {
      down: 'cache: Redis unreachable or not answering in time; serving from the upstream until it answers',
      back: 'cache: Redis answers; caching in Redis',
    });
  }

  /** Resolves once connected, or after `timeoutMs` (the store works either way). */
  async ready(timeoutMs = 1000): Promise<void> {
    if (this.guard.healthy()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const text = await this.reads.load(key);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as CacheEntry;
    } catch {
      return undefined;
    }
  }

  storedAt(key: string): Promise<number | undefined> {
    const stamp = this.stamps.load(key);
    const forget = () => this.stamps.clear(key);
    void stamp.then(forget, forget);
    return stamp;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<void> {
    if (ttlMs <= 0) return;
    const json = valueJson === undefined ? JSON.stringify(entry) : entryJson(valueJson, entry.t);
    // A lost write only costs a later upstream call.
    await this.guard.run(() => this.redis.set(key, json, 'PX', ttlMs), null);
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    // No answer: this process calls itself (coalescing across processes is lost, never a lookup).
    // A lease already held under this process's own id is stale: within the process only the
    // in-flight owner (the caller) gets here for a key. It comes from a SET that timed out here and
    // ran later (a Redis frozen and thawed) and would otherwise hold every caller off for the lease time.
    return this.guard.run(async () => (await this.redis.eval(ACQUIRE, 1, `${key}:lease`, this.leaseOwner, ttlMs)) === 1, true);
  }

  async releaseLease(key: string): Promise<void> {
    // Only the holder releases, so an expired lease taken over by another process stays theirs.
    // Without an answer the lease expires by itself.
    await this.guard.run(
      () =>
        this.redis.eval(
          "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
          1,
          `${key}:lease`,
          this.leaseOwner,
        ),
      0,
    );
  }

  async leaseHeld(key: string): Promise<boolean> {
    return this.guard.run(async () => (await this.redis.exists(`${key}:lease`)) === 1, false);
  }

  healthy(): boolean {
    return this.guard.healthy();
  }

  health(): RedisHealth {
    return this.guard.health();
  }

  async close(): Promise<void> {
    this.guard.close();
    this.redis.disconnect();
  }
}
