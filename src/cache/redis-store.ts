import DataLoader from 'dataloader';
import type { ChainableCommander } from 'ioredis';
import type { Logger } from 'pino';
import { type Access, type KeyGroup, RedisConnection, type RedisState } from '../redis/connection.js';
import { DEFAULT_REDIS_GUARD, type RedisGuardSettings } from '../redis/guard.js';
import type { RedisTarget } from '../redis/url.js';
import { entryJson, type CacheEntry, type CacheStore } from './store.js';

const ACQUIRE = `
if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
return 0`;

const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** Extends the lease only while this process holds it (its id), never one another process took over. */
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/**
 * Writes entries kept while Redis was out (ARGV: json, t, ttl per key, all keys in one slot): each only
 * where Redis has none or an older one (a smaller `t`), so a newer value another replica stored wins.
 */
const RESTORE = `
local written = 0
for i, key in ipairs(KEYS) do
  local t = tonumber(ARGV[3 * i - 1])
  local current = redis.call('get', key)
  local currentT = current and tonumber(string.match(current, '"t":(%d+)}$'))
  if not current or (currentT and currentT < t) then
    redis.call('set', key, ARGV[3 * i - 2], 'PX', ARGV[3 * i])
    written = written + 1
  end
end
return written`;

const MAX_KEYS_PER_READ = 100;
/** An entry is the JSON of `{ v, x, t }`: its stored-at time closes it, so its last characters are enough. */
const STORED_AT = /"t":(\d+)\}$/;
const STORED_AT_TAIL = 32;

/** Where a store announces the entries it wrote, for the in-process tiers of other processes (tiered-store.ts). */
const REFRESHED_CHANNEL = 'lg:v2:refreshed';

/** Redis did not answer in time (or is being skipped): not the same as a miss. */
export const NO_ANSWER = Symbol('no answer');
export type NoAnswer = typeof NO_ANSWER;

/** An entry to write: its JSON (with `t` last) and how long Redis keeps it. */
export interface EntryWrite {
  key: string;
  json: string;
  t: number;
  ttlMs: number;
}

/**
 * The shared cache: several gateway processes read and write one Redis, a Redis Cluster or a Sentinel
 * set (REDIS_URL). Redis trouble never fails a lookup and never stalls one: every command has a short
 * deadline (REDIS_COMMAND_TIMEOUT_MS), a command that cannot run in time reads as a miss (the gateway
 * calls the upstream instead), and after a few misses in a row Redis, or the cluster shard in trouble,
 * is skipped altogether until a probe finds it answering again.
 *
 * The reads, stamp checks and writes issued in one tick each go as one round trip per Redis node: one
 * MGET per hash slot and one SET per key, pipelined per node, so no command spans two slots (CROSSSLOT).
 */
export class RedisStore implements CacheStore {
  readonly kind = 'redis';
  private readonly connection: RedisConnection;
  /** Tells this store's own announcements from other processes'. */
  readonly id = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private subscription: ReturnType<RedisConnection['subscriber']> | null = null;

  /**
   * Reads issued in one tick (the lookups of an operation, and of every operation running beside it)
   * go to Redis as one MGET per slot, one round trip per node, under one deadline, instead of one GET each.
   */
  private readonly reads = new DataLoader<string, string | null | NoAnswer>(
    async (keys) =>
      this.perGroup<string | null | NoAnswer>(
        keys,
        'read',
        NO_ANSWER,
        (pipeline, slotKeys) => pipeline.mget(...slotKeys),
        ([values]) => values as Array<string | null>,
      ),
    { cache: false, maxBatchSize: MAX_KEYS_PER_READ },
  );

  /**
   * When entries were stored, from their last characters (GETRANGE), for remembered results to check an
   * entry is still the one they were built from: one pipelined round trip per node per tick, and one read
   * per key however many requests ask at once (DataLoader's cache, cleared as each read settles), instead
   * of every request fetching the whole value.
   */
  private readonly stamps = new DataLoader<string, number | undefined | NoAnswer>(
    async (keys) => {
      const tails = await this.perGroup<string | null | NoAnswer>(
        keys,
        'read',
        NO_ANSWER,
        (pipeline, slotKeys) => {
          for (const key of slotKeys) pipeline.getrange(key, -STORED_AT_TAIL, -1);
        },
        (replies) => replies.map((tail) => (typeof tail === 'string' ? tail : null)),
      );
      // A tail without a stamp reads as unknown, which a replay takes as changed: the operation runs.
      return tails.map((tail) => {
        if (tail === NO_ANSWER) return NO_ANSWER;
        const match = STORED_AT.exec(tail ?? '');
        return match ? Number(match[1]) : undefined;
      });
    },
    { maxBatchSize: MAX_KEYS_PER_READ },
  );

  /** Writes of one tick: one SET per key, pipelined per node with one announcement; true where Redis answered. */
  private readonly writes = new DataLoader<EntryWrite, boolean, EntryWrite>(
    async (entries) => {
      const keys = entries.map((entry) => entry.key);
      return this.perGroup(
        keys,
        'write',
        false,
        (pipeline, _slotKeys, indices) => {
          for (const index of indices)
            pipeline.set(entries[index]!.key, entries[index]!.json, 'PX', entries[index]!.ttlMs);
        },
        (_replies, count) => Array.from({ length: count }, () => true),
        (pipeline, indices) =>
          pipeline.publish(REFRESHED_CHANNEL, this.announcement(indices.map((index) => entries[index]!))),
      );
    },
    { cache: false, maxBatchSize: MAX_KEYS_PER_READ },
  );

  constructor(url: string | RedisTarget, logger: Logger, settings: RedisGuardSettings = DEFAULT_REDIS_GUARD) {
    this.connection = new RedisConnection(url, settings, logger, 'cache', {
      down: 'cache: Redis unreachable or not answering in time; serving from the upstream until it answers',
      back: 'cache: Redis answers; caching in Redis',
    });
  }

  /** Resolves once connected, or after `timeoutMs` (the store works either way). */
  ready(timeoutMs = 1000): Promise<void> {
    return this.connection.ready(timeoutMs);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return parseEntry(await this.read(key));
  }

  /** The entry's JSON, null for a miss, NO_ANSWER when Redis did not answer in time. */
  read(key: string): Promise<string | null | NoAnswer> {
    return this.reads.load(key);
  }

  async storedAt(key: string): Promise<number | undefined> {
    const stamp = await this.stamp(key);
    return stamp === NO_ANSWER ? undefined : stamp;
  }

  /** When the entry for `key` was stored (its `t`), undefined for a miss, NO_ANSWER when Redis did not answer. */
  stamp(key: string): Promise<number | undefined | NoAnswer> {
    const stamp = this.stamps.load(key);
    const forget = () => this.stamps.clear(key);
    void stamp.then(forget, forget);
    return stamp;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<void> {
    await this.write(key, entry, ttlMs, valueJson);
  }

  /** Stores the entry (a lost write only costs a later upstream call); false when Redis did not take it. */
  async write(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<boolean> {
    if (ttlMs <= 0) return true;
    return this.writes.load({ key, json: jsonOf(entry, ttlMs, valueJson), t: entry.t, ttlMs });
  }

  /**
   * Writes entries this process kept while Redis was out, where Redis has none or an older one: one
   * script per slot, pipelined per node. Returns the keys Redis did not answer for.
   */
  async restore(entries: EntryWrite[]): Promise<string[]> {
    const answered = await this.perGroup(
      entries.map((entry) => entry.key),
      'write',
      false,
      (pipeline, slotKeys, indices) =>
        pipeline.eval(
          RESTORE,
          slotKeys.length,
          ...slotKeys,
          ...indices.flatMap((index) => [entries[index]!.json, entries[index]!.t, entries[index]!.ttlMs]),
        ),
      (_written, count) => Array.from({ length: count }, () => true),
      (pipeline, indices) =>
        pipeline.publish(REFRESHED_CHANNEL, this.announcement(indices.map((index) => entries[index]!))),
    );
    return entries.filter((_, index) => !answered[index]).map((entry) => entry.key);
  }

  /** The JSON of an entry as this store writes it, for a write kept to be written later. */
  static entryJson(entry: CacheEntry, ttlMs: number, valueJson?: string): string {
    return jsonOf(entry, ttlMs, valueJson);
  }

  /**
   * Calls `listener` with the entries other processes write (key and `t`), announced on a Redis
   * channel, so an in-process copy of an older entry is not served past it. Best effort: an
   * announcement lost in an outage leaves the copy to its own short lifetime.
   */
  onRefreshed(listener: (key: string, t: number) => void): void {
    if (this.subscription) return;
    const subscriber = this.connection.subscriber();
    this.subscription = subscriber;
    subscriber.on('message', (_channel: string, message: string) => {
      const lines = message.split('\n');
      if (lines[0] === this.id) return;
      for (const line of lines.slice(1)) {
        const tab = line.lastIndexOf('\t');
        if (tab > 0) listener(line.slice(0, tab), Number(line.slice(tab + 1)));
      }
    });
    void subscriber.subscribe(REFRESHED_CHANNEL).catch(() => undefined);
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    // No answer: this process calls itself (coalescing across processes is lost, never a lookup).
    // A lease already held under this process's own id is stale: within the process only the
    // in-flight owner (the caller) gets here for a key. It comes from a SET that timed out here and
    // ran later (a Redis frozen and thawed) and would otherwise hold every caller off for the lease time.
    const lease = this.leaseKey(key);
    return this.connection.run(
      this.connection.shardOf(lease, 'write'),
      async () => (await this.connection.client.eval(ACQUIRE, 1, lease, this.id, ttlMs)) === 1,
      true,
    );
  }

  async releaseLease(key: string): Promise<void> {
    // Only the holder releases, so an expired lease taken over by another process stays theirs.
    // Without an answer the lease expires by itself.
    const lease = this.leaseKey(key);
    await this.connection.run(
      this.connection.shardOf(lease, 'write'),
      () => this.connection.client.eval(RELEASE, 1, lease, this.id),
      0,
    );
  }

  /** One script per lease, pipelined per node: one round trip per node however many keys are held. */
  async renewLeases(keys: readonly string[], ttlMs: number): Promise<void> {
    const leases = keys.map((key) => this.leaseKey(key));
    await this.perGroup(
      leases,
      'write',
      false,
      (pipeline, slotKeys) => {
        for (const lease of slotKeys) pipeline.eval(RENEW, 1, lease, this.id, ttlMs);
      },
      (replies) => replies.map((renewed) => renewed === 1),
    );
  }

  async leaseHeld(key: string): Promise<boolean> {
    const lease = this.leaseKey(key);
    return this.connection.run(
      this.connection.shardOf(lease, 'read'),
      async () => (await this.connection.client.exists(lease)) === 1,
      false,
    );
  }

  /** The key to use for `key`'s entry and lease while its cluster shard takes no writes (src/redis/connection.ts). */
  standInFor(key: string): string | undefined {
    return this.connection.standInFor(key);
  }

  /** Where a reader also looks for `key` after missing it (src/redis/connection.ts). */
  standInToRead(key: string): string | undefined {
    return this.connection.standInToRead(key);
  }

  /** Whether Redis is asked for `key` now (false while it, or its cluster shard, is skipped). */
  answers(key: string, access: Access): boolean {
    return this.connection.answers(key, access);
  }

  /** Called when Redis, or a cluster shard, answers again. */
  onBack(listener: () => void): void {
    this.connection.onBack(listener);
  }

  healthy(): boolean {
    return this.connection.healthy();
  }

  health(): RedisState {
    return this.connection.health();
  }

  async close(): Promise<void> {
    this.connection.close();
    this.subscription?.disconnect();
  }

  /**
   * The lease of `key`: `<key>:lease`, in a slot of its own, or while that slot's master fails over its
   * stand-in on another master, so processes still coalesce (src/redis/connection.ts).
   */
  private leaseKey(key: string): string {
    const lease = `${key}:lease`;
    return this.connection.standInFor(lease) ?? lease;
  }

  private announcement(entries: EntryWrite[]): string {
    return [this.id, ...entries.map((entry) => `${entry.key}\t${entry.t}`)].join('\n');
  }

  /**
   * One round trip per node for `keys`: `command` adds each slot's commands (given that slot's keys and
   * their indices) and `after` a last command per node to one pipeline; `replies` turns a slot's
   * replies into one result per key. A key whose node did not answer gets `fallback`.
   */
  private async perGroup<R>(
    keys: readonly string[],
    access: Access,
    fallback: R,
    command: (pipeline: ChainableCommander, slotKeys: string[], indices: number[]) => unknown,
    replies: (slotReplies: unknown[], count: number) => R[],
    after?: (pipeline: ChainableCommander, indices: number[]) => unknown,
  ): Promise<R[]> {
    const results: R[] = keys.map(() => fallback);
    const client = this.connection.client;
    await Promise.all(
      this.connection.groups(keys, access).map(async (group: KeyGroup) => {
        const answered = await this.connection.run(
          group.shard,
          async () => {
            const pipeline = client.pipeline();
            const sizes = group.slots.map((indices) => {
              const before = pipeline.length;
              command(
                pipeline,
                indices.map((index) => keys[index]!),
                indices,
              );
              return pipeline.length - before;
            });
            after?.(pipeline, group.slots.flat());
            const settled = (await pipeline.exec()) ?? [];
            let at = 0;
            return sizes.map((size, slot) => {
              const slotSettled = settled.slice(at, at + size);
              at += size;
              for (const [error] of slotSettled) if (error) throw error;
              return replies(
                slotSettled.map(([, reply]) => reply),
                group.slots[slot]!.length,
              );
            });
          },
          null,
        );
        if (!answered) return;
        group.slots.forEach((indices, slot) => {
          indices.forEach((index, position) => {
            results[index] = answered[slot]![position] ?? fallback;
          });
        });
      }),
    );
    return results;
  }
}

function jsonOf(entry: CacheEntry, ttlMs: number, valueJson?: string): string {
  const expires = Date.now() + ttlMs;
  return entryJson(valueJson ?? JSON.stringify(entry.v), entry.t, expires);
}

function parseEntry(text: string | null | NoAnswer): CacheEntry | undefined {
  if (text === null || text === NO_ANSWER) return undefined;
  try {
    return JSON.parse(text) as CacheEntry;
  } catch {
    return undefined;
  }
}
