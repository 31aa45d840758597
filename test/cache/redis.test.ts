import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { createLogger } from '../../src/kernel/logger.js';
import { RedisStore } from '../../src/cache/redis-store.js';
import { startGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { requireRedisInCi, startRedisProxy } from '../support/redis.js';
import { REDIS_FORMS, redisServersAvailable, topologyFor } from '../support/redis-topologies.js';
import { sleep } from '../support/wait.js';

const canRun = await redisServersAvailable();

describe.runIf(canRun).each(REDIS_FORMS)('the shared cache on %s Redis', (form) => {
  const rig = topologyFor(form);
  let up: FaultUpstream;
  let delayMs = 0;
  // A fresh HMAC key per run keeps this run's entries apart from any other's.
  const secret = `redis-test-${form}-${process.pid}-${Date.now()}`;
  // A generous deadline: these tests are about sharing and failover, not about how late a busy machine reads a reply.
  const env = (extra: Record<string, string> = {}) =>
    upstreamEnv(up, {
      CACHE_ENABLED: 'true',
      REDIS_URL: rig.topology.url,
      CACHE_KEY_SECRET: secret,
      REDIS_COMMAND_TIMEOUT_MS: '500',
      ...extra,
    });

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
      // Healthy, and nothing went wrong on the way: starting up (a cluster client learning its nodes) records no error.
      expect(a.gateway.cacheStatus()).toMatchObject({ backend: 'redis', form, healthy: true, lastError: null });
      expect(b.gateway.cacheStatus()).toMatchObject({ backend: 'redis', form, healthy: true, lastError: null });
    } finally {
      await a.close();
      await b.close();
    }
  });

  /** Both answers name `domain` and cost one upstream call: one request made it, the other waited for it. */
  function expectOneCallShared(domain: string, ...answers: GraphQLResponse[]): void {
    for (const answer of answers) expect(answer.body.data).toEqual({ domainInfo: { domainName: domain } });
    expect(up.calls).toHaveLength(1);
    expect(answers.map((answer) => answer.body.extensions!.gateway.lookups[0].source).sort()).toEqual([
      'coalesced',
      'upstream',
    ]);
  }

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
      expectOneCallShared('lease.example', ra, rb);
    } finally {
      delayMs = 0;
      await a.close();
      await b.close();
    }
  });

  it('coalesces across instances after a holder died: when its lease runs out, one waiter takes it over and calls, the other waits for that', async () => {
    const a = await startGateway(env());
    const b = await startGateway(env());
    const dead = new RedisStore(rig.topology.url, createLogger('silent'));
    delayMs = 150;
    try {
      await dead.ready(5000);
      const key = a.gateway.cache.cacheKey('domain_info', a.gateway.cache.fingerprint(up.token), 'dead-holder.example');
      // A holder that took the lease and will never store or let go: only its expiry frees the key.
      expect(await dead.acquireLease(key, 400)).toBe(true);
      up.calls.length = 0;
      const query = '{ domainInfo(domain: "dead-holder.example") { domainName } }';
      const [ra, rb] = await Promise.all([a.query(query), b.query(query)]);
      expectOneCallShared('dead-holder.example', ra, rb);
    } finally {
      delayMs = 0;
      await dead.close();
      await a.close();
      await b.close();
    }
  });

  it('still sends every stock symbol of an operation in one call when the lookups go through Redis', async () => {
    const gw = await startGateway({
      CACHE_ENABLED: 'true',
      REDIS_URL: rig.topology.url,
      CACHE_KEY_SECRET: `${secret}-symbols`,
    });
    try {
      const { body } = await gw.query(`{
        a: company(domain: "apple.com") { financialProfile { symbol } }
        n: company(domain: "nike.com") { financialProfile { symbol } }
        listed: financialProfiles(symbols: ["KO"]) { symbol }
      }`);
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({
        a: { financialProfile: { symbol: 'AAPL' } },
        n: { financialProfile: { symbol: 'NKE' } },
        listed: [{ symbol: 'KO' }],
      });
      expect(gw.gateway.sandbox!.calls.get('company_financial_profile')).toBe(1);
      expect(body.extensions!.gateway.upstreamCalls).toBe(3);
    } finally {
      await gw.close();
    }
  });

  it("reports the form's state in /healthz, for the cache and the client rate limit, without credentials", async () => {
    const gw = await startGateway(env({ CLIENT_RATE_LIMIT_PER_MINUTE: '100' }));
    try {
      const health = await (await gw.fetch(`/healthz`)).json();
      const expected = {
        single: {},
        // Replicas as the cluster lists them now (one resyncing is left out for a moment).
        cluster: { cluster: { masters: 3, replicas: expect.any(Number), slotsCovered: 16_384, unreachable: [] } },
        sentinel: { sentinel: { masterName: 'lookup-graph', master: expect.stringMatching(/^127\.0\.0\.1:\d+$/) } },
      }[form];
      expect(health.cache).toMatchObject({
        backend: 'redis',
        form,
        healthy: true,
        lastError: null,
        target: rig.topology.url,
        pendingWrites: 0,
        droppedWrites: 0,
        ...expected,
      });
      expect(health.clientRateLimit).toMatchObject({
        backend: 'redis',
        form,
        healthy: true,
        lastError: null,
        ...expected,
      });
      if (form === 'cluster') expect(health.cache.cluster.replicas).toBeGreaterThan(0);
      expect((await gw.fetch(`/readyz`)).status).toBe(200);
    } finally {
      await gw.close();
    }
  });

  // Last for its form: the topology is one master short afterwards.
  it.skipIf(form === 'single')(
    'a failover (master killed, replica promoted) fails no request and pays nothing again; the gateways follow the new master',
    async () => {
      // The client rate limit counts through the same Redis (and fails over with it); high enough not to refuse the load.
      const gateways = [
        await startGateway(env({ CLIENT_RATE_LIMIT_PER_MINUTE: '1000000' })),
        await startGateway(env({ CLIENT_RATE_LIMIT_PER_MINUTE: '1000000' })),
      ];
      const domains = Array.from({ length: 24 }, (_, i) => `failover-${i}.example`);
      const query = (gw: TestGateway, domain: string) => gw.query(`{ domainInfo(domain: "${domain}") { domainName } }`);
      let running = true;
      try {
        up.calls.length = 0;
        // Each gateway has read every domain once: one upstream call each, in all.
        for (const gw of gateways) for (const domain of domains) await query(gw, domain);
        expect(up.calls).toHaveLength(domains.length);

        const firstKey = gateways[0]!.gateway.cache.cacheKey(
          'domain_info',
          gateways[0]!.gateway.cache.fingerprint(up.token),
          domains[0]!,
        );
        const failures: string[] = [];
        let requests = 0;
        const worker = async (w: number) => {
          for (let i = w; running; i += 1) {
            const domain = domains[i % domains.length]!;
            const res = await query(gateways[i % 2]!, domain);
            requests += 1;
            if (res.status !== 200 || res.body.errors || res.body.data?.domainInfo?.domainName !== domain)
              failures.push(`${res.status} ${res.text.slice(0, 200)}`);
          }
        };
        const load = Promise.all([0, 1, 2, 3].map(worker));
        await sleep(300);
        const { promotedAfterMs } = await rig.topology.killMaster(firstKey);
        try {
          await expect
            .poll(() => gateways.every((gw) => gw.gateway.cacheStatus().healthy), { timeout: 15_000, interval: 100 })
            .toBe(true);
        } catch (error) {
          console.log(
            `${form}: not back after the failover`,
            JSON.stringify(gateways.map((gw) => [gw.gateway.cacheStatus(), gw.logs.slice(-8)])),
          );
          throw error;
        }
        await sleep(300);
        running = false;
        await load;
        console.log(
          `${form} failover:`,
          JSON.stringify({
            promotedAfterMs,
            requests,
            failures: failures.length,
            upstreamCalls: up.calls.length,
            distinctKeys: domains.length,
          }),
        );
        expect(failures).toEqual([]);
        expect(requests).toBeGreaterThan(50);
        // Nothing paid again: what Redis held was read from a replica or served from each gateway's own tier.
        expect(up.calls).toHaveLength(domains.length);

        // Both gateways use the new master: what one stores now, the other reads from Redis.
        await query(gateways[0]!, 'after-failover.example');
        const read = await query(gateways[1]!, 'after-failover.example');
        expect(read.body.extensions!.gateway.lookups[0].source).toBe('cache');
        expect(up.calls).toHaveLength(domains.length + 1);
      } finally {
        running = false;
        for (const gw of gateways) await gw.close();
      }
    },
    60_000,
  );
});

const redisUp = await requireRedisInCi();

describe.skipIf(!redisUp)('the shared cache when the connection to Redis is cut', () => {
  it('keeps answering from what the process holds, says so in /healthz, writes what it stored meanwhile when Redis returns', async () => {
    const up = await startFaultUpstream();
    up.handle((call, _req, res) =>
      json(res, 200, { status: 200, response: { domain_name: call.body.domain, domain_registered: 'yes' } }),
    );
    const proxy = await startRedisProxy();
    const secret = `redis-cut-${process.pid}-${Date.now()}`;
    const env = upstreamEnv(up, { CACHE_ENABLED: 'true', REDIS_URL: proxy.url, CACHE_KEY_SECRET: secret });
    const gw = await startGateway(env);
    const ask = (domain: string, on = gw) => on.query(`{ domainInfo(domain: "${domain}") { domainName } }`);
    try {
      await ask('outage.example');
      const cached = await ask('outage.example');
      expect(cached.body.extensions!.gateway.lookups[0].source).toBe('cache');
      expect(up.calls).toHaveLength(1);

      await proxy.cut();
      await expect.poll(() => gw.gateway.cacheStatus().healthy, { timeout: 5000 }).toBe(false);
      // What the gateway holds: from its in-process tier, no upstream call.
      const during = await ask('outage.example');
      expect(during.body.errors).toBeUndefined();
      expect(during.body.data).toEqual({ domainInfo: { domainName: 'outage.example' } });
      expect(during.body.extensions!.gateway.lookups[0].source).toBe('cache');
      expect(up.calls).toHaveLength(1);
      // Something new: paid once, then held.
      expect((await ask('during-outage.example')).body.extensions!.gateway.lookups[0].source).toBe('upstream');
      expect((await ask('during-outage.example')).body.extensions!.gateway.lookups[0].source).toBe('cache');
      expect(up.calls).toHaveLength(2);
      const health = await (await gw.fetch(`/healthz`)).json();
      expect(health.cache).toMatchObject({
        backend: 'redis',
        healthy: false,
        lastError: expect.any(String),
        pendingWrites: 1,
      });
      expect(gw.logs.join('\n')).toContain('cache: Redis unreachable');

      await proxy.restore();
      await expect.poll(() => gw.gateway.cacheStatus().healthy, { timeout: 10_000 }).toBe(true);
      await expect.poll(() => gw.gateway.cacheStatus().pendingWrites, { timeout: 5000 }).toBe(0);
      // Another gateway, which never saw it, reads what was stored during the outage from Redis.
      const other = await startGateway(env);
      try {
        expect((await ask('during-outage.example', other)).body.extensions!.gateway.lookups[0].source).toBe('cache');
        expect(up.calls).toHaveLength(2);
      } finally {
        await other.close();
      }
    } finally {
      await gw.close();
      await proxy.close();
      await up.close();
    }
  });
});
