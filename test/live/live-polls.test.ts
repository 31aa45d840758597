import { afterEach, describe, expect, it } from 'vitest';
import { createLookupCache } from '../../src/cache/index.js';
import { type LiveKey, LivePolls, type LiveWatcher } from '../../src/cache/live-polls.js';
import type { LookupCache } from '../../src/cache/lookup-cache.js';
import { readCacheSettings } from '../../src/cache/settings.js';
import { EnvReader } from '../../src/kernel/env.js';
import { createLogger } from '../../src/kernel/logger.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';
import { sleep, until } from '../support/wait.js';

/**
 * The shared poll registry over real caches: one call per watched lookup per interval, however many watch it in
 * one process or across two processes' caches sharing Redis; none once nobody watches; each call paid by the
 * watchers in turn, and a watcher that cannot pay hands its turn on.
 */

const redisUp = await requireRedisInCi();
const ACTION = 'domain_info';
const INTERVAL_MS = 1_000;

async function cacheOn(env: Record<string, string>): Promise<LookupCache> {
  const settings = readCacheSettings(new EnvReader(env), { [ACTION]: 600 });
  const { cache } = await createLookupCache(settings, createLogger('silent'));
  return cache;
}

/** A watcher whose refresh is a fresh read through the cache, counted as one upstream call per key. */
class CountingWatcher implements LiveWatcher {
  paid = 0;
  told = 0;
  constructor(
    private readonly cache: LookupCache,
    private readonly calls: { count: number },
    private readonly canPay = true,
  ) {}
  async refresh(keys: LiveKey[]): Promise<LiveKey[]> {
    if (!this.canPay) return keys;
    for (const live of keys) {
      await this.cache.fetch(
        live.action,
        live.fingerprint,
        live.key,
        async () => {
          this.calls.count += 1;
          return { domain: live.key, at: Date.now() };
        },
        {},
        { fresh: new Set([live.key]) },
      );
    }
    this.paid += 1;
    return [];
  }
  changed(): void {
    this.told += 1;
  }
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A cache with these settings and live polls over it at INTERVAL_MS, both closed after the test. */
async function pollsOn(env: Record<string, string>): Promise<{ cache: LookupCache; polls: LivePolls }> {
  const cache = await cacheOn(env);
  const polls = new LivePolls(cache, { [ACTION]: INTERVAL_MS });
  closers.push(
    () => polls.close(),
    () => cache.close(),
  );
  return { cache, polls };
}

describe('live polls', () => {
  it('one call per interval in one process for 200 watchers of one lookup, paid in turn; none after they leave', {
    timeout: 15_000,
  }, async () => {
    const { cache, polls } = await pollsOn({ CACHE_KEY_SECRET: `polls-${process.pid}-${Date.now()}` });
    const calls = { count: 0 };
    const key: LiveKey = { action: ACTION, fingerprint: 'f', key: 'one.example' };
    const watchers = Array.from({ length: 200 }, () => new CountingWatcher(cache, calls));
    const releases = watchers.map((watcher) => polls.watch(watcher, [key, key]));
    expect(polls.size).toBe(1);
    await sleep(3.5 * INTERVAL_MS);
    expect(calls.count).toBeGreaterThanOrEqual(2);
    expect(calls.count).toBeLessThanOrEqual(4);
    // Paid in turn: no watcher paid twice while others had not paid once.
    expect(Math.max(...watchers.map((w) => w.paid))).toBe(1);
    // Every watcher was told of every refresh.
    expect(Math.min(...watchers.map((w) => w.told))).toBeGreaterThanOrEqual(calls.count - 1);
    for (const release of releases) release();
    expect(polls.size).toBe(0);
    const after = calls.count;
    await sleep(2.5 * INTERVAL_MS);
    expect(calls.count).toBe(after);
  });

  it('a watcher that cannot pay hands its turn to the next one', { timeout: 10_000 }, async () => {
    const { cache, polls } = await pollsOn({ CACHE_KEY_SECRET: `polls-pay-${process.pid}-${Date.now()}` });
    const calls = { count: 0 };
    const key: LiveKey = { action: ACTION, fingerprint: 'f', key: 'pay.example' };
    const broke = new CountingWatcher(cache, calls, false);
    const payer = new CountingWatcher(cache, calls);
    polls.watch(broke, [key]);
    polls.watch(payer, [key]);
    await until(() => calls.count >= 2, 5_000);
    expect(broke.paid).toBe(0);
    expect(payer.paid).toBe(calls.count);
  });

  it.skipIf(!redisUp)(
    'two processes sharing Redis, 250 watchers each: one call per interval between them; none after all leave',
    { timeout: 20_000 },
    async () => {
      const run = `${process.pid}-${Date.now().toString(36)}`;
      const env = {
        REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}`,
        CACHE_KEY_SECRET: `polls-redis-${run}`,
        REDIS_COMMAND_TIMEOUT_MS: '1000',
      };
      const calls = { count: 0 };
      const key: LiveKey = { action: ACTION, fingerprint: `f-${run}`, key: 'shared.example' };
      const sides = await Promise.all(
        [0, 1].map(async () => {
          const { cache, polls } = await pollsOn(env);
          const watchers = Array.from({ length: 250 }, () => new CountingWatcher(cache, calls));
          return { polls, watchers, releases: watchers.map((watcher) => polls.watch(watcher, [key])) };
        }),
      );
      const intervals = 4;
      await sleep(intervals * INTERVAL_MS + 300);
      expect(calls.count).toBeGreaterThanOrEqual(intervals - 1);
      expect(calls.count).toBeLessThanOrEqual(intervals + 1);
      // Both sides hear of the other's refreshes: each side's watchers were told of (nearly) every call.
      for (const side of sides) {
        expect(Math.min(...side.watchers.map((w) => w.told))).toBeGreaterThanOrEqual(calls.count - 2);
      }
      for (const side of sides) for (const release of side.releases) release();
      const after = calls.count;
      await sleep(2.5 * INTERVAL_MS);
      expect(calls.count).toBe(after);
    },
  );
});
