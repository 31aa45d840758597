import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { createLogger } from '../../src/kernel/logger.js';
import { RedisStore } from '../../src/cache/redis-store.js';
import { startGateway } from '../support/gateway.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi, startRedisProxy } from '../support/redis.js';
import { sleep } from '../support/wait.js';

const redisUp = await requireRedisInCi();

describe.skipIf(!redisUp)('the shared cache in Redis', () => {
  let up: FaultUpstream;
  let delayMs = 0;
  // A fresh HMAC key per run keeps this run's entries apart from any other's in the same Redis.
  const secret = `redis-test-${process.pid}-${Date.now()}`;
  const env = (extra: Record<string, string> = {}) =>
    upstreamEnv(up, { CACHE_ENABLED: 'true', REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}`, CACHE_KEY_SECRET: secret, ...extra });

  beforeAll(async () => {
    up = await startFaultUpstream();
    up.handle(async (call, _req, res) => {
      if (delayMs) await sleep(delayMs);
      json(res, 200, { status: 200, response: { domain_name: call.body.domain, domain_registered: 'yes' } });
    });
  });
  afterAll(() => up.close());

  it('lets two gateway instances share entries: the second is served without an upstream call', async () => {
    const a = await startGateway(env());
    const b = await startGateway(env());
    try {
      up.calls.length = 0;
      const first = await a.query('{ domainInfo(domain: "shared-redis.example") { domainName } }');
      const second = await b.query('{ domainInfo(domain: "shared-redis.example") { domainName } }');
      expect(second.body.data).toEqual(first.body.data);
      expect(up.calls).toHaveLength(1);
      expect(second.body.extensions!.gateway.lookups[0].source).toBe('cache');
      expect(a.gateway.cacheStatus()).toMatchObject({ backend: 'redis', healthy: true, lastError: null });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('coalesces across instances: while one holds the lease, the other waits for its result', async () => {
    const a = await startGateway(env());
    const b = await startGateway(env());
    delayMs = 300;
    try {
      up.calls.length = 0;
      const [ra, rb] = await Promise.all([
        a.query('{ domainInfo(domain: "lease.example") { domainName } }'),
        sleep(50).then(() => b.query('{ domainInfo(domain: "lease.example") { domainName } }')),
      ]);
      expect(ra.body.data).toEqual({ domainInfo: { domainName: 'lease.example' } });
      expect(rb.body.data).toEqual({ domainInfo: { domainName: 'lease.example' } });
      expect(up.calls).toHaveLength(1);
      expect([ra.body.extensions!.gateway.lookups[0].source, rb.body.extensions!.gateway.lookups[0].source].sort()).toEqual(['coalesced', 'upstream']);
    } finally {
      delayMs = 0;
      await a.close();
      await b.close();
    }
  });

  it('coalesces across instances after a holder died: when its lease runs out, one waiter takes it over and calls, the other waits for that', async () => {
    const a = await startGateway(env());
    const b = await startGateway(env());
    const dead = new RedisStore(`redis://${REDIS_HOST}:${REDIS_PORT}`, createLogger('silent'));
    delayMs = 150;
    try {
      await dead.ready();
      const key = a.gateway.cache.cacheKey('domain_info', a.gateway.cache.fingerprint(up.token), 'dead-holder.example');
      // A holder that took the lease and will never store or let go: only its expiry frees the key.
      expect(await dead.acquireLease(key, 400)).toBe(true);
      up.calls.length = 0;
      const query = '{ domainInfo(domain: "dead-holder.example") { domainName } }';
      const [ra, rb] = await Promise.all([a.query(query), b.query(query)]);
      expect(ra.body.data).toEqual({ domainInfo: { domainName: 'dead-holder.example' } });
      expect(rb.body.data).toEqual(ra.body.data);
      expect(up.calls).toHaveLength(1);
      expect([ra.body.extensions!.gateway.lookups[0].source, rb.body.extensions!.gateway.lookups[0].source].sort()).toEqual(['coalesced', 'upstream']);
    } finally {
      delayMs = 0;
      await dead.close();
      await a.close();
      await b.close();
    }
  });

  it('still sends every stock symbol of an operation in one call when the lookups go through Redis', async () => {
    const gw = await startGateway({ CACHE_ENABLED: 'true', REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}`, CACHE_KEY_SECRET: `${secret}-symbols` });
    try {
      const { body } = await gw.query(`{
        a: company(domain: "apple.com") { financialProfile { symbol } }
        n: company(domain: "nike.com") { financialProfile { symbol } }
        listed: financialProfiles(symbols: ["KO"]) { symbol }
      }`);
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({ a: { financialProfile: { symbol: 'AAPL' } }, n: { financialProfile: { symbol: 'NKE' } }, listed: [{ symbol: 'KO' }] });
      expect(gw.gateway.sandbox!.calls.get('company_financial_profile')).toBe(1);
      expect(body.extensions!.gateway.upstreamCalls).toBe(3);
    } finally {
      await gw.close();
    }
  });

  it('keeps answering when Redis goes away, says so in /healthz, and recovers when it returns', async () => {
    const proxy = await startRedisProxy();
    const gw = await startGateway(env({ REDIS_URL: proxy.url }));
    try {
      up.calls.length = 0;
      await gw.query('{ domainInfo(domain: "outage.example") { domainName } }');
      const cached = await gw.query('{ domainInfo(domain: "outage.example") { domainName } }');
      expect(cached.body.extensions!.gateway.lookups[0].source).toBe('cache');
      expect(up.calls).toHaveLength(1);

      await proxy.cut();
      await expect.poll(() => gw.gateway.cacheStatus().healthy, { timeout: 5000 }).toBe(false);
      const during = await gw.query('{ domainInfo(domain: "outage.example") { domainName } }');
      expect(during.body.errors).toBeUndefined();
      expect(during.body.data).toEqual({ domainInfo: { domainName: 'outage.example' } });
      expect(during.body.extensions!.gateway.lookups[0].source).toBe('upstream');
      expect(up.calls).toHaveLength(2);
      const health = await (await fetch(`${gw.url}/healthz`)).json();
      expect(health.cache).toMatchObject({ backend: 'redis', healthy: false, lastError: expect.any(String) });
      expect(gw.logs.join('\n')).toContain('cache: Redis unreachable');

      await proxy.restore();
      await expect.poll(() => gw.gateway.cacheStatus().healthy, { timeout: 10_000 }).toBe(true);
      const after = await gw.query('{ domainInfo(domain: "outage.example") { domainName } }');
      expect(after.body.extensions!.gateway.lookups[0].source).toBe('cache');
      expect(up.calls).toHaveLength(2);
    } finally {
      await gw.close();
      await proxy.close();
    }
  });
});
