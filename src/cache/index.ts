import type { Logger } from 'pino';
import { LookupCache, type LookupSource } from './lookup-cache.js';
import { MemoryStore } from './memory-store.js';
import type { RedisState } from '../redis/connection.js';
import type { CacheSettings } from './settings.js';
import type { CacheStore } from './store.js';
import { WorkerGroupStore } from './worker-group-store.js';
import { inWorkerGroup } from '../kernel/cluster-ipc.js';

export { LookupCache } from './lookup-cache.js';

export interface CacheStatus extends Partial<Omit<RedisState, 'healthy'>> {
  backend: 'memory' | 'workers' | 'redis' | 'off';
  /** False while the backend (or, for a cluster, one of its shards) does not answer in time: lookups then skip it. */
  healthy: boolean;
  /** Redis only: entries stored while it was out, waiting to be written to it, and those dropped past CACHE_WRITE_BEHIND_MAX. */
  pendingWrites?: number;
  droppedWrites?: number;
}

/** The cache the settings ask for: off, in memory, shared by the workers through their primary, or shared through Redis (with its in-process tier in front). */
export async function createLookupCache(
  settings: CacheSettings,
  logger: Logger,
  observe?: (action: string, source: LookupSource) => void,
  /** Wraps the Redis store, e.g. to trace its round trips (src/telemetry/spans.ts). */
  wrapRedis: (store: CacheStore) => CacheStore = (store) => store,
): Promise<{ cache: LookupCache; status: () => CacheStatus }> {
  if (!settings.enabled) {
    return { cache: new LookupCache(null, settings, observe), status: () => ({ backend: 'off', healthy: true }) };
  }
  if (settings.redisUrl) {
    // Loaded only with REDIS_URL: the Redis store and, through it, ioredis.
    const [{ RedisStore }, { TieredStore }] = await Promise.all([
      import('./redis-store.js'),
      import('./tiered-store.js'),
    ]);
    const store = new TieredStore(
      new MemoryStore(settings.maxBytes),
      new RedisStore(settings.redisUrl, logger, settings.redisGuard),
      settings.tier,
      logger,
    );
    await store.ready();
    if (!store.healthy())
      logger.warn({ cache: 'redis' }, 'cache: Redis not reachable at start-up; serving from the upstream until it is');
    return {
      cache: new LookupCache(wrapRedis(store), settings, observe),
      status: () => ({ backend: 'redis', ...store.health() }),
    };
  }
  if (inWorkerGroup()) {
    // WORKERS > 1 without Redis: the primary holds what the workers share (entries and leases).
    const store = new WorkerGroupStore(settings.maxBytes);
    return { cache: new LookupCache(store, settings, observe), status: () => ({ backend: 'workers', healthy: true }) };
  }
  const store = new MemoryStore(settings.maxBytes);
  return { cache: new LookupCache(store, settings, observe), status: () => ({ backend: 'memory', healthy: true }) };
}
