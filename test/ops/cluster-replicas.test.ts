import calculateSlot from 'cluster-key-slot';
import type { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/cache/lookup-cache.js';
import type { CacheSettings } from '../../src/cache/settings.js';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import { startFaultUpstream, type FaultUpstream } from '../support/fault-upstream.js';
import { requireHaproxyInCi, startHaproxy, type Haproxy } from '../support/haproxy.js';
import { mixedLookup, seeded, zipf, type Sample } from '../support/load.js';
import { freePort, startBuilt, statusOf, waitFor, type Child } from '../support/processes.js';
import { redisServersAvailable, startTopology, type RedisTopology } from '../support/redis-topologies.js';

/**
 * Three `node dist/main.js` replicas behind HAProxy sharing a six-node Redis Cluster (three masters,
 * three replicas), under a bounded mixed load during which one cluster master is killed (SIGKILL) and
 * its replica promoted.
 */

const INPUTS = 200; // distinct inputs per action
const WORKERS = 6;
const WARM_MS = 3_000; // load before the kill
const TAIL_MS = 2_000; // load after the promotion
const UPSTREAM_LATENCY_MS = 25;

const canRun = requireHaproxyInCi() && (await redisServersAvailable());

describe.runIf(canRun)('three replicas behind HAProxy sharing a Redis Cluster while a master is killed', () => {
  let upstream: FaultUpstream;
  let cluster: RedisTopology;
  let haproxy: Haproxy | undefined;
  const calls: Array<{ action: string; input: string; at: number }> = [];
  const replicas: Child[] = [];

  beforeAll(async () => {
    cluster = await startTopology('cluster');
    upstream = await startFaultUpstream();
    upstream.handle(async (call, _req, res) => {
      const input = String(call.body.domain ?? call.body.username);
      calls.push({ action: call.action, input, at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, UPSTREAM_LATENCY_MS));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 200, ...SANDBOX_ACTIONS[call.action]!.respond(call.body) }));
    });
  }, 60_000);

  afterAll(async () => {
    for (const replica of replicas) replica.child.kill('SIGKILL');
    haproxy?.close();
    await upstream?.close();
    await cluster?.close();
  });

  it('fails no client request and pays the upstream once per distinct input, the gateways following the promoted replica', {
    timeout: 120_000,
  }, async () => {
    const runId = `${process.pid}-${Date.now().toString(36)}`;
    const ports = [await freePort(), await freePort(), await freePort()];
    for (const port of ports) {
      replicas.push(
        startBuilt({
          PORT: String(port),
          ACTION_BASE_URL: upstream.url,
          ACTION_TOKEN: upstream.token,
          REDIS_URL: cluster.url,
          CACHE_KEY_SECRET: `cluster-replicas-${runId}`,
          REDIS_KEY_PREFIX: `lg-test:cluster-replicas:${runId}:`,
          CLIENT_RATE_LIMIT_PER_MINUTE: '1000000',
          CACHE_LEASE_MS: '2000',
          // A deadline for a machine shared by many tests (the default, 50 ms, is for a Redis next to the gateway):
          // what is under test is the failover, not how late a starved process reads a reply.
          REDIS_COMMAND_TIMEOUT_MS: '500',
          UPSTREAM_BREAKER_FAILURES: '1000',
          MAX_CONNECTIONS_PER_ADDRESS: '0',
          LOG_LEVEL: 'warn',
        }),
      );
    }
    await waitFor(
      async () =>
        (await Promise.all(ports.map((port) => statusOf(`http://127.0.0.1:${port}/readyz`)))).every(
          (status) => status === 200,
        ),
      60_000,
      'three replicas ready',
    );
    haproxy = startHaproxy({ port: await freePort(), statsPort: await freePort(), servers: ports });
    const lb = haproxy;
    await waitFor(
      async () => {
        try {
          return Object.values(await lb.serverStates()).filter((state) => state === 'UP').length === 3;
        } catch {
          return false;
        }
      },
      30_000,
      'three replicas UP in HAProxy',
    );

    const seed = Date.now() % 100_000;
    const random = seeded(seed);
    const pick = zipf(INPUTS, random);
    const samples: Sample[] = [];
    const requested = new Set<string>();
    const t0 = Date.now();
    let running = true;
    const worker = async () => {
      while (running) {
        const i = pick();
        const domain = random() < 2 / 3;
        const { key, sample } = await mixedLookup(
          `${lb.url}/graphql`,
          i,
          domain,
          (status, body, echoed) => status === 200 && !body.errors && echoed,
        );
        requested.add(key);
        samples.push(sample);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, worker));

    // Which master held each slot before the kill, to say where a repeated input lived.
    const slotOwners = new Map<number, string>();
    (cluster.client as Cluster).slots.forEach((nodes, slot) => {
      slotOwners.set(slot, nodes?.[0] ?? '?');
    });
    let killAt = 0;
    let failover: Awaited<ReturnType<RedisTopology['killMaster']>> | undefined;
    try {
      await new Promise((resolve) => setTimeout(resolve, WARM_MS));
      failover = await cluster.killMaster();
      killAt = failover.killedAt;
      await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
    } finally {
      running = false;
      await load;
    }
    const promotedAt = killAt + failover!.promotedAfterMs;

    const failures = samples.filter((sample) => !sample.ok);
    const during = samples.filter((sample) => sample.ended >= killAt && sample.started <= promotedAt);
    const callsByInput = new Map<string, number>();
    for (const call of calls)
      callsByInput.set(`${call.action}:${call.input}`, (callsByInput.get(`${call.action}:${call.input}`) ?? 0) + 1);
    const repeated = [...callsByInput].filter(([, count]) => count > 1);
    const killedMaster = `127.0.0.1:${failover!.killed.port}`;
    const health = await (await fetch(`http://127.0.0.1:${ports[0]}/healthz`)).json();
    const stats = {
      seed,
      requests: samples.length,
      requestsDuringFailover: during.length,
      failures: failures.length,
      promotedAfterMs: failover!.promotedAfterMs,
      distinctInputsRequested: requested.size,
      upstreamCalls: calls.length,
      distinctInputsCalled: callsByInput.size,
      repeatedInputs: repeated.length,
      loadMs: Date.now() - t0,
    };
    console.log('cluster replica test:', JSON.stringify(stats));
    if (failures.length)
      console.log(
        'failures:',
        failures.slice(0, 5).map((f) => `${f.started - t0}..${f.ended - t0} ${f.detail}`),
        { killAt: killAt - t0 },
      );
    if (repeated.length) {
      const cache = new LookupCache(null, { keySecret: `cluster-replicas-${runId}` } as CacheSettings);
      const at = repeated.map(([input]) => {
        const [action, key] = input.split(/:(.*)/s) as [string, string];
        const slot = calculateSlot(cache.cacheKey(action, cache.fingerprint(upstream.token), key));
        return [
          input,
          slotOwners.get(slot),
          calls.filter((call) => `${call.action}:${call.input}` === input).map((call) => call.at - t0),
        ];
      });
      console.log('repeated upstream calls (input, its master before the kill, ms from start):', JSON.stringify(at), {
        killAt: killAt - t0,
        promotedAt: promotedAt - t0,
        killedMaster,
      });
    }

    expect(failures).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    expect(samples.length).toBeGreaterThan(100);
    // One upstream call per distinct input, across the three replicas, the failover included.
    expect(calls.length).toBe(callsByInput.size);
    expect(callsByInput.size).toBeLessThanOrEqual(requested.size);
    // The gateways follow the new topology: every slot has a master again, and the killed one is gone.
    expect(health.cache).toMatchObject({
      backend: 'redis',
      form: 'cluster',
      healthy: true,
      cluster: { masters: 3, slotsCovered: 16_384 },
    });
  });
});
