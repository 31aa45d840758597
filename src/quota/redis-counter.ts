import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { RedisConnection, type RedisState } from '../redis/connection.js';
import { DEFAULT_REDIS_GUARD, type RedisGuardSettings } from '../redis/guard.js';
import { type CounterKey, nameOf, type QuotaCounter, type Reservation } from './counter.js';

/** Kept past the window's end, so that `npm run quota -- show` right after a reset still finds nothing stale. */
const GRACE_MS = 60_000;

// Check and count in one step: no replica can slip a call in between. A counter missing from Redis (a
// Redis restarted empty, or flushed) starts from what this replica last saw of it (ARGV[3]), written back
// in the same step, so a Redis that lost its data does not hand a client its quota again.
const RESERVE = `
local current = redis.call('GET', KEYS[1])
local used = tonumber(current or ARGV[3])
if used + 1 > tonumber(ARGV[1]) then
  if not current and used > 0 then redis.call('SET', KEYS[1], used, 'PXAT', ARGV[2]) end
  return { 0, used }
end
used = used + 1
redis.call('SET', KEYS[1], used, 'PXAT', ARGV[2])
return { 1, used }`;

// Adds calls counted elsewhere (negative: takes back calls never sent), never below zero; a missing
// counter starts from what this replica last saw of it (ARGV[3]), as in RESERVE.
const ADD = `
local used = tonumber(redis.call('GET', KEYS[1]) or ARGV[3]) + tonumber(ARGV[1])
if used < 0 then used = 0 end
redis.call('SET', KEYS[1], used, 'PXAT', ARGV[2])
return used`;

/** Calls a replica counted alone while Redis did not answer, for one client and window. */
interface LocalSpend {
  key: CounterKey;
  /** Calls this replica may make alone in the window: its share of what it last knew was left. */
  share: number;
  spent: number;
}

/**
 * Quotas shared by every replica through Redis (any REDIS_URL form: one client's window is one key,
 * so one cluster slot), counted by a script that checks and counts in one step.
 *
 * When Redis (or the shard holding a counter) does not answer in time, this replica counts alone,
 * within its local share of the window: what it last read was left, divided by QUOTA_REPLICAS,
 * rounded down, fixed for as long as Redis stays out. So each replica spends at most
 * floor(limit / QUOTA_REPLICAS) alone per client and window, and nothing once it has seen the quota
 * spent. What it spent alone is added to the counter in Redis once Redis answers again.
 *
 * A counter Redis no longer has (restarted without persistence, or flushed) is written back by the
 * first replica to count in it, from the use it last saw, within the same script: a client's spent
 * quota is not handed back by a Redis that lost its data, and the hot path costs no extra round trip.
 */
export class RedisQuotaCounter implements QuotaCounter {
  private readonly connection: RedisConnection;
  /** The use each counter had when Redis last answered for it. */
  private readonly lastSeen = new LRUCache<string, number>({ maxSize: 100_000, sizeCalculation: () => 1 });
  /** Calls counted alone and not yet added in Redis. */
  private readonly alone = new Map<string, LocalSpend>();

  constructor(
    url: string,
    private readonly prefix: string,
    /** QUOTA_REPLICAS. */
    private readonly replicas: number,
    logger: Logger,
    settings: RedisGuardSettings = DEFAULT_REDIS_GUARD,
  ) {
    this.connection = new RedisConnection(url, settings, logger, 'quota', {
      down: 'quota: Redis unreachable or not answering in time; each replica spends at most its local share of a quota until it answers',
      back: 'quota: Redis answers; counting in Redis',
    });
    this.connection.onBack(() => void this.writeBack());
  }

  async reserve(key: CounterKey, limit: number): Promise<Reservation> {
    const reply = (await this.counted(RESERVE, key, limit)) as [number, number] | null;
    if (reply) {
      const [granted, used] = reply;
      this.lastSeen.set(nameOf(key), used);
      if (this.alone.has(nameOf(key))) void this.writeBack();
      return granted === 1
        ? { granted: true, used, refund: async () => void (await this.add(key, -1)) }
        : { granted: false, used };
    }
    return this.reserveAlone(key, limit);
  }

  async used(key: CounterKey): Promise<number> {
    const redisKey = this.redisKey(key);
    const value = await this.connection.run(
      this.connection.shardOf(redisKey, 'read'),
      () => this.connection.client.get(redisKey),
      undefined,
    );
    const alone = this.alone.get(nameOf(key))?.spent ?? 0;
    // No answer, or a counter Redis lost (restarted empty): what this replica last saw, which the next
    // reservation writes back.
    if (value === undefined || value === null) return (this.lastSeen.get(nameOf(key)) ?? 0) + alone;
    const used = Number(value);
    this.lastSeen.set(nameOf(key), used);
    return used + alone;
  }

  /**
   * The counter is reset (`npm run quota -- reset`): the window starts again from zero. It is set to 0,
   * not deleted: a missing counter is one Redis lost, which replicas write back from what they saw.
   */
  async reset(key: CounterKey): Promise<void> {
    await this.connection.client.set(this.redisKey(key), 0, 'PXAT', key.end + GRACE_MS);
  }

  health(): RedisState {
    return this.connection.health();
  }

  /** Resolves once connected, or after `timeoutMs` (quotas work either way). */
  ready(timeoutMs = 1000): Promise<void> {
    return this.connection.ready(timeoutMs);
  }

  async close() {
    await this.writeBack();
    this.connection.close();
  }

  private reserveAlone(key: CounterKey, limit: number): Reservation {
    const name = nameOf(key);
    let local = this.alone.get(name);
    if (!local) {
      local = { key, share: Math.floor(Math.max(0, limit - (this.lastSeen.get(name) ?? 0)) / this.replicas), spent: 0 };
      this.alone.set(name, local);
    }
    const entry = local;
    // What this replica knows is left: its share, less what it spent alone.
    const used = limit - (entry.share - entry.spent);
    if (entry.spent + 1 > entry.share) return { granted: false, used };
    entry.spent += 1;
    return {
      granted: true,
      used: used + 1,
      refund: async () => {
        if (this.alone.get(name) === entry && entry.spent > 0) entry.spent -= 1;
        else await this.add(key, -1);
      },
    };
  }

  /**
   * Runs a counting script on `key`'s counter with `argument`, its expiry and the count this replica last
   * saw (written back when Redis lost the counter); null when Redis did not answer.
   */
  private counted(script: string, key: CounterKey, argument: number): Promise<unknown> {
    const redisKey = this.redisKey(key);
    return this.connection.run(
      this.connection.shardOf(redisKey, 'write'),
      () =>
        this.connection.client.eval(
          script,
          1,
          redisKey,
          argument,
          key.end + GRACE_MS,
          this.lastSeen.get(nameOf(key)) ?? 0,
        ),
      null,
    );
  }

  /** Adds `calls` to a counter in Redis; false when Redis did not take them. */
  private async add(key: CounterKey, calls: number): Promise<boolean> {
    const used = (await this.counted(ADD, key, calls)) as number | null;
    if (used === null) return false;
    this.lastSeen.set(nameOf(key), used);
    return true;
  }

  /** Adds the calls counted alone to Redis; those of windows that have ended are dropped. */
  private async writeBack(): Promise<void> {
    const now = Date.now();
    for (const [name, local] of [...this.alone]) {
      if (local.key.end <= now) {
        this.alone.delete(name);
        continue;
      }
      // Taken out first: a reservation meanwhile starts a new share from what Redis says.
      this.alone.delete(name);
      if (local.spent > 0 && !(await this.add(local.key, local.spent))) {
        const again = this.alone.get(name);
        if (again) again.spent += local.spent;
        else this.alone.set(name, local);
      }
    }
  }

  private redisKey(key: CounterKey): string {
    return `${this.prefix}${nameOf(key)}`;
  }
}
