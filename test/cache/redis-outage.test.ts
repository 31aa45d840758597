import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { redisServersAvailable } from '../support/redis-topologies.js';
import { sleep } from '../support/wait.js';

const canRun = await redisServersAvailable();

const REPLICAS = 3;
const DOMAINS = Array.from({ length: 40 }, (_, i) => `outage-${i}.example`);
const WORKERS = 6;

/**
 * Three gateway replicas over one Redis under a repeated-key load while Redis is killed (and started
 * again, empty), then frozen (SIGSTOP) and thawed. Each replica has an upstream of its own, so what
 * each pays is counted apart.
 */
describe.runIf(canRun)('a Redis outage and freeze under a repeated-key load', () => {
  let redis: OwnRedis;
  const upstreams: FaultUpstream[] = [];
  const replicas: TestGateway[] = [];
  /** Domains some replica paid for once Redis had been killed: stored while Redis was out, or into the restarted one. */
  const paidSinceKill = new Set<string>();
  let killed = false;

  beforeAll(async () => {
    redis = await startOwnRedis();
    const secret = `outage-${process.pid}-${Date.now()}`;
    for (let i = 0; i < REPLICAS; i++) {
      const up = await startFaultUpstream();
      up.handle(async (call, _req, res) => {
        if (killed) paidSinceKill.add(String(call.body.domain));
        await sleep(10);
        json(res, 200, { status: 200, response: { domain_name: call.body.domain, domain_registered: 'yes' } });
      });
      upstreams.push(up);
      replicas.push(
        await startGateway(
          upstreamEnv(up, {
            LOG_LEVEL: 'info',
            CACHE_ENABLED: 'true',
            REDIS_URL: redis.url,
            CACHE_KEY_SECRET: secret,
            CACHE_LEASE_MS: '2000',
            CLIENT_RATE_LIMIT_PER_MINUTE: '1000000',
          }),
          0,
          { cache: { redisGuard: { probeIntervalMs: 200 } } },
        ),
      );
    }
  }, 60_000);
  afterAll(async () => {
    for (const gw of replicas) await gw.close();
    for (const up of upstreams) await up.close();
    await redis?.close();
  });

  it('each replica pays at most once per distinct key for the whole outage, fails no request, and writes what it stored back to Redis', async () => {
    const failures: string[] = [];
    const requested = new Set<string>();
    let requests = 0;
    let running = true;
    let phase = 'healthy';
    const byPhase: Record<string, number> = {};
    const worker = async () => {
      while (running) {
        // Repeated keys, hot ones more often: the square of a uniform draw favours the first domains. Half
        // the domains are first asked once Redis is killed, so some lookups are paid (and stored) while it is out.
        const pool = phase === 'healthy' ? DOMAINS.length / 2 : DOMAINS.length;
        const domain = DOMAINS[Math.floor(Math.random() ** 2 * pool)]!;
        const replica = replicas[Math.floor(Math.random() * REPLICAS)]!;
        requested.add(domain);
        const at = phase;
        const res = await replica.query(`{ domainInfo(domain: "${domain}") { domainName } }`);
        requests += 1;
        byPhase[at] = (byPhase[at] ?? 0) + 1;
        if (res.status !== 200 || res.body.errors || res.body.data?.domainInfo?.domainName !== domain)
          failures.push(`${at}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, worker));
    try {
      await sleep(1500);
      phase = 'killed';
      killed = true;
      await redis.kill();
      await sleep(2000);
      phase = 'restarted empty';
      await redis.restart();
      await expect
        .poll(() => replicas.every((gw) => gw.gateway.cacheStatus().healthy), { timeout: 10_000, interval: 100 })
        .toBe(true);
      await sleep(1000);
      phase = 'frozen';
      redis.freeze();
      await sleep(2500);
      phase = 'thawed';
      redis.thaw();
      await expect
        .poll(() => replicas.every((gw) => gw.gateway.cacheStatus().healthy), { timeout: 10_000, interval: 100 })
        .toBe(true);
      await sleep(1000);
    } finally {
      running = false;
      await load;
    }

    // What each replica paid, per key, over the whole run (before, during and after both outages).
    const paid = upstreams.map((up) => {
      const perKey = new Map<string, number>();
      for (const call of up.calls)
        perKey.set(String(call.body.domain), (perKey.get(String(call.body.domain)) ?? 0) + 1);
      return perKey;
    });
    const figures = {
      requests,
      byPhase,
      failures: failures.length,
      distinctKeys: requested.size,
      upstreamCallsPerReplica: upstreams.map((up) => up.calls.length),
      mostPaidForOneKeyByOneReplica: Math.max(...paid.flatMap((perKey) => [...perKey.values()])),
    };
    console.log('Redis kill + freeze under a repeated-key load:', JSON.stringify(figures));
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(100);
    for (const phaseName of ['killed', 'restarted empty', 'frozen', 'thawed'])
      expect(byPhase[phaseName], phaseName).toBeGreaterThan(0);
    for (const perKey of paid) for (const [domain, calls] of perKey) expect(calls, domain).toBe(1);

    // What was stored while Redis was out went to Redis when it answered again (the restarted one started
    // empty: what the replicas held from before goes back as each is next asked for).
    await expect
      .poll(() => replicas.map((gw) => gw.gateway.cacheStatus().pendingWrites), { timeout: 10_000 })
      .toEqual(replicas.map(() => 0));
    const client = new Redis(redis.url);
    try {
      const cache = replicas[0]!.gateway.cache;
      const fingerprint = cache.fingerprint(upstreams[0]!.token);
      const domains = [...paidSinceKill];
      expect(domains.length).toBeGreaterThan(0);
      const stored = await client.mget(...domains.map((domain) => cache.cacheKey('domain_info', fingerprint, domain)));
      expect(domains.filter((_, index) => stored[index] === null)).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
