import { ACTIONS } from '../actions/all.js';
import type { RedisGuardSettings } from './redis-guard.js';

/**
 * Cache settings, read with the rest of the configuration: how long each action's results live,
 * how much memory the cache may use, and where it lives (memory, or Redis when REDIS_URL is set).
 */

export interface CacheSettings {
  enabled: boolean;
  /** Time to live of a successful result, per action, in milliseconds. */
  ttlMs: Record<string, number>;
  /** How long a NOT_FOUND answer is remembered (0 = not at all). */
  notFoundTtlMs: number;
  /** Upper bound of the in-memory cache, in bytes of JSON. */
  maxBytes: number;
  /** Shared cache for several gateway processes; null means in-memory. */
  redisUrl: string | null;
  /** Key for the HMAC that fingerprints upstream tokens in cache keys (share it between processes). */
  keySecret: string;
  /** How long one process may hold the right to call the upstream for a key before others call too. */
  leaseMs: number;
  /** Bounded waits on Redis (cache, client rate limit, coalescing lease): see src/cache/redis-guard.ts. */
  redisGuard: RedisGuardSettings;
}

/**
 * Default TTLs by action, from each action's descriptor (`ttlSeconds`): financial data moves in
 * minutes, registration records in days.
 */
export const DEFAULT_TTL_SECONDS: Readonly<Record<string, number>> = Object.fromEntries(ACTIONS.map((action) => [action.action, action.ttlSeconds]));

type Env = Record<string, string | undefined>;

export function readCacheSettings(env: Env, problems: string[], int: (name: string, fallback: number, min: number, max: number) => number): CacheSettings {
  const ttlMs: Record<string, number> = {};
  for (const [action, seconds] of Object.entries(DEFAULT_TTL_SECONDS)) ttlMs[action] = seconds * 1000;
  const overrides = env.CACHE_TTL_SECONDS?.trim();
  if (overrides) {
    for (const entry of overrides.split(',').map((part) => part.trim()).filter(Boolean)) {
      const match = /^([a-z_]+)=(\d+)$/.exec(entry);
      if (!match || !(match[1]! in DEFAULT_TTL_SECONDS)) {
        problems.push(`CACHE_TTL_SECONDS entries must be <action>=<seconds> with a known action, got "${entry}"`);
        continue;
      }
      ttlMs[match[1]!] = Number(match[2]) * 1000;
    }
  }
  const enabled = (env.CACHE_ENABLED?.trim() || 'true').toLowerCase();
  if (!['true', 'false'].includes(enabled)) problems.push(`CACHE_ENABLED must be true or false, got "${env.CACHE_ENABLED}"`);

  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  return {
    enabled: enabled !== 'false',
    ttlMs,
    notFoundTtlMs: int('CACHE_NOT_FOUND_TTL_SECONDS', 60, 0, 86_400) * 1000,
    maxBytes: int('CACHE_MAX_MB', 64, 1, 65_536) * 1024 * 1024,
    redisUrl,
    keySecret: env.CACHE_KEY_SECRET?.trim() || 'lookup-graph-cache-v1',
    leaseMs: int('CACHE_LEASE_MS', 15_000, 100, 120_000),
    redisGuard: {
      commandTimeoutMs: int('REDIS_COMMAND_TIMEOUT_MS', 50, 1, 10_000),
      unhealthyAfter: int('REDIS_UNHEALTHY_AFTER', 3, 1, 1_000),
      probeIntervalMs: int('REDIS_PROBE_INTERVAL_MS', 1_000, 50, 600_000),
    },
  };
}
