import type { RedisGuardSettings } from '../redis/guard.js';
import { parseRedisUrl } from '../redis/url.js';
import type { TierSettings } from './tiered-store.js';
import type { EnvReader } from '../kernel/env.js';

/**
 * Cache settings, read with the rest of the configuration: how long each action's results live,
 * how much memory the cache may use, and where it lives (memory, or Redis when REDIS_URL is set).
 */

export interface CacheSettings {
  enabled: boolean;
  /** Time to live of a successful result, per action, in milliseconds. */
  ttlMs: Record<string, number>;
  /** How long a NOT_FOUND answer is remembered (0 = not at all): CACHE_TTL_SECONDS's `not_found=<seconds>`. */
  notFoundTtlMs: number;
  /** Upper bound of the in-memory cache, or with Redis of its in-process tier, in bytes of its entries' JSON (src/cache/memory-store.ts). */
  maxBytes: number;
  /** Upper bound of the remembered results (src/cache/result-memo.ts), in bytes; 0 turns them off. */
  resultsMaxBytes: number;
  /** Shared cache for several gateway processes (one Redis, a Cluster or a Sentinel set: src/redis/url.ts); null means in-memory. */
  redisUrl: string | null;
  /** The in-process tier in front of Redis (src/cache/tiered-store.ts). */
  tier: TierSettings;
  /** Key for the HMAC that fingerprints upstream tokens in cache keys (share it between processes). */
  keySecret: string;
  /** How long one process may hold the right to call the upstream for a key before others call too. */
  leaseMs: number;
  /**
   * How long a lease lives in Redis unless its holder renews it (every third of it, while its call is in
   * flight, up to `leaseMs`): a holder that dies frees its keys this long after its last renewal.
   */
  leaseTtlMs: number;
  /** Bounded waits on Redis (cache, client rate limit, coalescing lease): see src/redis/guard.ts. */
  redisGuard: RedisGuardSettings;
}

/** With REDIS_URL: how long an entry Redis confirmed is served from the process's own tier without asking Redis again. */
const LOCAL_TTL_MS = 2_000;
/** A lease's life in Redis between its holder's renewals (at most CACHE_LEASE_MS). */
const LEASE_TTL_MS = 3_000;
/** How often an unhealthy Redis is probed, and how long a healthy one may go without a command before a PING. */
const REDIS_PROBE_INTERVAL_MS = 1_000;
/** How long a NOT_FOUND answer is remembered unless CACHE_TTL_SECONDS says otherwise (`not_found=<seconds>`). */
const NOT_FOUND_TTL_SECONDS = 60;

/**
 * @param defaultTtlSeconds each action's TTL from its descriptor (`ttlSeconds`): financial data moves in
 * minutes, registration records in days
 */
export function readCacheSettings(read: EnvReader, defaultTtlSeconds: Readonly<Record<string, number>>): CacheSettings {
  const ttlMs: Record<string, number> = {};
  for (const [action, seconds] of Object.entries(defaultTtlSeconds)) ttlMs[action] = seconds * 1000;
  let notFoundTtlMs = NOT_FOUND_TTL_SECONDS * 1000;
  for (const entry of read.list('CACHE_TTL_SECONDS')) {
    const match = /^([a-z_]+)=(\d+)$/.exec(entry);
    if (match?.[1] === 'not_found' && Number(match[2]) <= 86_400) {
      notFoundTtlMs = Number(match[2]) * 1000;
      continue;
    }
    if (!match || !(match[1]! in defaultTtlSeconds)) {
      read.problem(
        `CACHE_TTL_SECONDS entries must be <action>=<seconds> with a known action, or not_found=<seconds> (0 to 86400), got "${entry}"`,
      );
      continue;
    }
    ttlMs[match[1]!] = Number(match[2]) * 1000;
  }

  const redisUrl = read.string('REDIS_URL') ?? null;
  if (redisUrl) {
    const parsed = parseRedisUrl(redisUrl);
    if ('problem' in parsed) read.problem(parsed.problem);
  }

  const leaseMs = read.int('CACHE_LEASE_MS', 15_000, 100, 120_000);
  return {
    enabled: read.bool('CACHE_ENABLED', true),
    ttlMs,
    notFoundTtlMs,
    maxBytes: read.int('CACHE_MAX_MB', 32, 1, 65_536) * 1024 * 1024,
    resultsMaxBytes: read.int('CACHE_RESULTS_MB', 8, 0, 65_536) * 1024 * 1024,
    redisUrl,
    keySecret: read.string('CACHE_KEY_SECRET') ?? 'lookup-graph-cache-v1',
    leaseMs,
    leaseTtlMs: Math.min(LEASE_TTL_MS, leaseMs),
    tier: {
      localTtlMs: LOCAL_TTL_MS,
      writeBehindMax: 10_000,
    },
    redisGuard: {
      commandTimeoutMs: read.int('REDIS_COMMAND_TIMEOUT_MS', 50, 1, 10_000),
      unhealthyAfter: 3,
      probeIntervalMs: REDIS_PROBE_INTERVAL_MS,
    },
  };
}

/** Live queries (`@live`, src/cache/live-polls.ts): how often each watched lookup is refreshed, and the bounds on live operations. */
export interface LiveSettings {
  /** The refresh interval of a watched lookup, per action, in milliseconds (at least 1 s). */
  intervalMs: Record<string, number>;
  /** LIVE_MAX_OPERATIONS: live operations this process keeps open at once. */
  maxOperations: number;
  /** LIVE_MAX_PER_CLIENT: live operations one client keeps open at once, in this process. */
  maxPerClient: number;
  /** Results a stream holds for a reader that does not take them before it is ended. */
  buffer: number;
}

/** Results a live stream holds for a reader that does not take them: a page reads each at once, so a few are room enough. */
const LIVE_BUFFER = 16;

/**
 * @param defaultSeconds each action's interval from its descriptor (`liveSeconds`): stock prices move in
 * seconds, news in minutes, profiles and registration records in hours
 */
export function readLiveSettings(read: EnvReader, defaultSeconds: Readonly<Record<string, number>>): LiveSettings {
  const intervalMs: Record<string, number> = {};
  for (const [action, seconds] of Object.entries(defaultSeconds)) intervalMs[action] = seconds * 1000;
  for (const entry of read.list('LIVE_REFRESH_SECONDS')) {
    const match = /^([a-z_]+)=(\d+)$/.exec(entry);
    if (!match || !(match[1]! in defaultSeconds) || Number(match[2]) < 1 || Number(match[2]) > 86_400) {
      read.problem(
        `LIVE_REFRESH_SECONDS entries must be <action>=<seconds> with a known action and 1 to 86400 seconds, got "${entry}"`,
      );
      continue;
    }
    intervalMs[match[1]!] = Number(match[2]) * 1000;
  }
  return {
    intervalMs,
    maxOperations: read.int('LIVE_MAX_OPERATIONS', 10_000, 0, 1_000_000),
    maxPerClient: read.int('LIVE_MAX_PER_CLIENT', 20, 0, 100_000),
    buffer: LIVE_BUFFER,
  };
}
