import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { RedisConnection } from '../redis/connection.js';
import { DEFAULT_REDIS_GUARD, type RedisGuardSettings } from '../redis/guard.js';
import type { PersistedQuerySettings } from './settings.js';

/** Registered automatic persisted queries: query text by the lower-case hex sha256 of that text. */
export interface PersistedQueryStore {
  /** The query registered under `hash`, or null (never registered, expired, evicted, or the store does not answer). */
  get(hash: string): string | null | Promise<string | null>;
  /** Registers `query` under `hash` (its sha256); never throws. */
  set(hash: string, query: string): void | Promise<void>;
  /** Forgets the query registered under `hash`, if any; never throws. */
  delete(hash: string): void | Promise<void>;
  close(): Promise<void>;
}

/**
 * What one registration costs, as the budget counts it: its key (the 64-character hash, with the
 * prefix in Redis), its text, and the bookkeeping beside them (an LRU node here; in Redis the key's
 * own overhead, an index member and a size field).
 */
export const ENTRY_OVERHEAD_BYTES = 256;
export const entryCost = (query: string): number => 64 + Buffer.byteLength(query) + ENTRY_OVERHEAD_BYTES;

/** One process's queries, bounded by what their entries cost (entryCost); the least recently used go first. */
export class MemoryPersistedQueries implements PersistedQueryStore {
  private readonly queries: LRUCache<string, string>;

  constructor(maxBytes: number, ttlMs: number) {
    this.queries = new LRUCache({ maxSize: maxBytes, sizeCalculation: entryCost, ttl: ttlMs });
  }

  get(hash: string): string | null {
    return this.queries.get(hash) ?? null;
  }

  set(hash: string, query: string): void {
    this.queries.set(hash, query);
  }

  delete(hash: string): void {
    this.queries.delete(hash);
  }

  async close(): Promise<void> {}
}

/**
 * Registers a query and evicts the oldest registrations past the byte budget or the TTL, atomically:
 * an index (sorted set by registration time), the size of each entry, their total, and one key per
 * query (with the TTL itself, so a read never sees an expired entry).
 */
const REGISTER = `
local index, sizes, total, entry = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local hash, query, ttl, now, max, entries, size = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
local function drop(member)
  redis.call('decrby', total, tonumber(redis.call('hget', sizes, member) or '0'))
  redis.call('hdel', sizes, member)
  redis.call('zrem', index, member)
  redis.call('del', entries .. member)
end
for _, member in ipairs(redis.call('zrangebyscore', index, '-inf', now - ttl, 'LIMIT', 0, 100)) do drop(member) end
if redis.call('zscore', index, hash) then drop(hash) end
redis.call('set', entry, query, 'PX', ttl)
redis.call('zadd', index, now, hash)
redis.call('hset', sizes, hash, size)
local used = redis.call('incrby', total, size)
while used > max do
  local oldest = redis.call('zrange', index, 0, 0)[1]
  if not oldest or oldest == hash then break end
  drop(oldest)
  used = tonumber(redis.call('get', total))
end
return used`;

/** Forgets one registration and its share of the total. */
const FORGET = `
local index, sizes, total, entry, hash = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1]
redis.call('decrby', total, tonumber(redis.call('hget', sizes, hash) or '0'))
redis.call('hdel', sizes, hash)
redis.call('zrem', index, hash)
redis.call('del', entry)`;

/**
 * Queries shared by every gateway process through Redis (REDIS_URL, beside the cache), within the
 * same byte budget there, with this process's memory in front: a hit in memory costs no round trip,
 * and when Redis does not answer in time (REDIS_COMMAND_TIMEOUT_MS) a query not in memory reads as not
 * registered, so the client sends its text again; nothing fails.
 */
class RedisPersistedQueries implements PersistedQueryStore {
  private readonly connection: RedisConnection;
  private readonly memory: MemoryPersistedQueries;
  /** Every key under one hash tag: the registration script touches four keys, which a Redis Cluster allows only within one slot. */
  private readonly tagged: string;

  constructor(
    url: string,
    private readonly settings: Pick<PersistedQuerySettings, 'maxBytes' | 'ttlMs' | 'redisPrefix'>,
    logger: Logger,
    guardSettings: RedisGuardSettings = DEFAULT_REDIS_GUARD,
  ) {
    this.memory = new MemoryPersistedQueries(settings.maxBytes, settings.ttlMs);
    this.tagged = settings.redisPrefix.includes('{') ? settings.redisPrefix : `{${settings.redisPrefix}}`;
    // As the cache's and the rate limit's connections (any REDIS_URL form): a command for a Redis that is not connected fails at once.
    this.connection = new RedisConnection(url, guardSettings, logger, 'persistedQueries', {
      down: 'persisted queries: Redis unreachable; registered queries are kept in this process only until it answers',
      back: 'persisted queries: Redis answers again',
    });
  }

  async get(hash: string): Promise<string | null> {
    const local = this.memory.get(hash);
    if (local !== null) return local;
    const key = this.key(hash);
    const shared = await this.connection.run(
      this.connection.shardOf(key, 'read'),
      () => this.connection.client.get(key),
      null,
    );
    if (shared !== null) this.memory.set(hash, shared);
    return shared;
  }

  async set(hash: string, query: string): Promise<void> {
    this.memory.set(hash, query);
    const { ttlMs, maxBytes } = this.settings;
    const prefix = this.tagged;
    const key = this.key(hash);
    await this.connection.run(
      this.connection.shardOf(key, 'write'),
      () =>
        this.connection.client.eval(
          REGISTER,
          4,
          `${prefix}index`,
          `${prefix}sizes`,
          `${prefix}bytes`,
          key,
          hash,
          query,
          ttlMs,
          Date.now(),
          maxBytes,
          `${prefix}q:`,
          entryCost(query),
        ),
      null,
    );
  }

  async delete(hash: string): Promise<void> {
    this.memory.delete(hash);
    const prefix = this.tagged;
    const key = this.key(hash);
    await this.connection.run(
      this.connection.shardOf(key, 'write'),
      () => this.connection.client.eval(FORGET, 4, `${prefix}index`, `${prefix}sizes`, `${prefix}bytes`, key, hash),
      null,
    );
  }

  async close(): Promise<void> {
    this.connection.close();
  }

  private key(hash: string): string {
    return `${this.tagged}q:${hash}`;
  }
}

export function createPersistedQueryStore(
  settings: PersistedQuerySettings,
  logger: Logger,
  guard?: RedisGuardSettings,
): PersistedQueryStore {
  return settings.redisUrl
    ? new RedisPersistedQueries(settings.redisUrl, settings, logger, guard)
    : new MemoryPersistedQueries(settings.maxBytes, settings.ttlMs);
}
