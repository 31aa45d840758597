import type { Logger } from 'pino';
import { LookupCache, type LookupSource } from './lookup-cache.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import type { CacheSettings } from './settings.js';
import type { CacheStore } from './store.js';

export { LookupCache } from './lookup-cache.js';

export interface CacheStatus {
  backend: 'memory' | 'redis' | 'off';
  /** False while the backend does not answer in time: lookups then skip it and go upstream. */
  healthy: boolean;
  /** Redis only: the last miss (timeout or error, no stack) and since when the current state holds. */
  lastError?: string | null;
  since?: string;
}

/** The cache the settings ask for: off, in memory, or shared through Redis. */
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
    const store = new RedisStore(settings.redisUrl, logger, settings.redisGuard);
    await store.ready();
    if (!store.healthy()) logger.warn({ cache: 'redis' }, 'cache: Redis not reachable at start-up; serving from the upstream until it is');
    return { cache: new LookupCache(wrapRedis(store), settings, observe), status: () => ({ backend: 'redis', ...store.health() }) };
  }
  const store = new MemoryStore(settings.maxBytes);
  return { cache: new LookupCache(store, settings, observe), status: () => ({ backend: 'memory', healthy: true }) };
}
