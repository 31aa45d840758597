import { describe, expect } from 'vitest';
import { forSuite, it } from '../support/fixtures.js';
import { hashApiKey } from '../../src/security/api-keys.js';
import { MemoryRateLimiter } from '../../src/security/rate-limit.js';
import { inProcessGateway, startGateway, type TestGateway } from '../support/gateway.js';
import { REDIS_FORMS, redisServersAvailable, topologyFor } from '../support/redis-topologies.js';
import { expectRefused, sandboxCalls } from './support.js';

const QUERY = '{ domainInfo(domain: "example.com") { domainName } }';

async function expectLimited(gw: TestGateway, headers: Record<string, string> = {}) {
  const before = sandboxCalls(gw);
  const res = await gw.query(QUERY, undefined, headers);
  expectRefused(res, 429, 'RATE_LIMITED', Object.values(headers));
  const retryAfter = res.body.errors![0]!.extensions!.retryAfter;
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  expect(sandboxCalls(gw) - before).toBe(0);
}

describe('per-client rate limit in memory', () => {
  const A = 'client-a-key-0123456789';
  const B = 'client-b-key-0123456789';
  const gw = forSuite(() =>
    inProcessGateway({
      CLIENT_RATE_LIMIT_PER_MINUTE: '3',
      GATEWAY_API_KEY_HASHES: `${hashApiKey(A)},${hashApiKey(B)}`,
    }),
  );

  it('the 4th request of a key in a minute → 429 RATE_LIMITED with Retry-After; another key is not affected', async () => {
    for (let i = 0; i < 3; i += 1) expect((await gw.query(QUERY, undefined, { 'x-api-key': A })).status).toBe(200);
    await expectLimited(gw, { 'x-api-key': A });
    expect((await gw.query(QUERY, undefined, { 'x-api-key': B })).status).toBe(200);
  });

  it('a request without a key is refused before the rate limit (401, not 429)', async () => {
    const res = await gw.query(QUERY);
    expect(res.status).toBe(401);
  });
});

describe('per-address rate limit when the gateway is open', () => {
  it('counts by client address', async () => {
    const gw = await startGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      expect((await gw.query(QUERY)).status).toBe(200);
      expect((await gw.query(QUERY)).status).toBe(200);
      await expectLimited(gw);
    } finally {
      await gw.close();
    }
  });
});

describe('operations in a batch', () => {
  it('count one each: five batches of three do not pass a limit of five', async () => {
    const gw = await inProcessGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '5', MAX_BATCH_OPERATIONS: '3' });
    try {
      const batch = JSON.stringify(
        [0, 1, 2].map((i) => ({ query: `{ domainInfo(domain: "batch${i}.example") { domainName } }` })),
      );
      const answered: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await gw.post(batch);
        const results = Array.isArray(res.body)
          ? (res.body as Array<{ data?: unknown; errors?: Array<{ extensions?: { code?: string } }> }>)
          : [res.body];
        answered.push(results.filter((result) => result.data && !result.errors).length);
        if (i === 1) expect(results[2]!.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
        if (i >= 2) expect(res.status).toBe(429);
      }
      // Three, then the two left of the five, then nothing.
      expect(answered).toEqual([3, 2, 0, 0, 0]);
    } finally {
      await gw.close();
    }
  });
});

describe('MemoryRateLimiter', () => {
  it('opens a new window after a minute', () => {
    const limiter = new MemoryRateLimiter(1);
    expect(limiter.hitNow('c', 0)).toEqual({ allowed: true, retryAfter: 60 });
    expect(limiter.hitNow('c', 30_000)).toEqual({ allowed: false, retryAfter: 30 });
    expect(limiter.hitNow('c', 60_000).allowed).toBe(true);
  });
});

describe.runIf(await redisServersAvailable()).each(REDIS_FORMS)(
  'per-client rate limit in %s Redis (shared by gateway processes)',
  (form) => {
    const rig = topologyFor(form);
    it('two gateways share one budget; the counter lives in Redis under the prefix and expires', async ({
      startGateway,
    }) => {
      const prefix = `lg-test:rate:${form}:${process.pid}:${Date.now()}:`;
      const env = {
        CLIENT_RATE_LIMIT_PER_MINUTE: '3',
        REDIS_URL: rig.topology.url,
        REDIS_KEY_PREFIX: prefix,
        CACHE_ENABLED: 'false',
      };
      const one = await startGateway(env);
      const two = await startGateway(env);
      expect((await one.query(QUERY)).status).toBe(200);
      expect((await two.query(QUERY)).status).toBe(200);
      expect((await one.query(QUERY)).status).toBe(200);
      await expectLimited(two);
      await expectLimited(one);
      const keys: string[] = [];
      for (const master of await rig.topology.masters())
        keys.push(...(await rig.topology.direct(master).keys(`${prefix}*`)));
      expect(keys).toHaveLength(1);
      expect(Number(await rig.topology.client.get(keys[0]!))).toBe(5);
      const ttl = await rig.topology.client.pttl(keys[0]!);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(one.logs.join('\n')).not.toMatch(/counting in memory/);
      expect((await (await one.fetch(`/healthz`)).json()).clientRateLimit).toMatchObject({
        backend: 'redis',
        form,
        healthy: true,
      });
    });
  },
);

describe('Redis unreachable', () => {
  it('falls back to counting in memory and says so: never unlimited, never a crash', async ({ startGateway }) => {
    const gw = await startGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '2', REDIS_URL: 'redis://127.0.0.1:1' });
    expect((await gw.query(QUERY)).status).toBe(200);
    expect((await gw.query(QUERY)).status).toBe(200);
    await expectLimited(gw);
    expect(gw.logs.join('\n')).toMatch(/rate limit: Redis unreachable; counting in memory/);
  });
});
