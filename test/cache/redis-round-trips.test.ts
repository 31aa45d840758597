import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GraphQLResponse, type TestGateway, type Tuning } from '../support/gateway.js';
import { waitFor } from '../support/processes.js';
import { REDIS_FORMS, redisServersAvailable, topologyFor, type RedisTopology } from '../support/redis-topologies.js';

/** Every lookup asks Redis: the in-process tier trusts nothing (its TTL is a constant, 2 s). */
const NO_TIER: Tuning = { cache: { tier: { localTtlMs: 0 } } };

const canRun = await redisServersAvailable();

const THREE_LOOKUPS = `{
  a: domainInfo(domain: "one.example") { domainName }
  b: domainInfo(domain: "two.example") { domainName }
  c: company(domain: "three.example") { name }
}`;
const FOUR_SYMBOLS = '{ financialProfiles(symbols: ["AAPL", "MSFT", "NKE", "HUBS"]) { symbol } }';

/** Commands that read or write cache entries and leases (not the client's own CLUSTER SLOTS, SUBSCRIBE, PING). */
const DATA_COMMANDS = ['get', 'mget', 'getrange', 'set', 'eval', 'exists', 'del', 'publish'];

/**
 * A gateway over the sandbox caching in the topology, for the enclosing describe block; `env` adds settings,
 * `tuning` values no setting reads.
 * Each form runs on servers of its own: the command counts must be this gateway's alone.
 */
function gatewayOn(
  rig: { readonly topology: RedisTopology },
  env: Record<string, string>,
  tuning: Tuning = {},
): { readonly gw: TestGateway } {
  let gw: TestGateway | undefined;
  beforeAll(async () => {
    // No client rate limit: its counter would be one more command per request. A generous deadline: a
    // busy machine must not make the gateway skip Redis (and serve from its own tier) while it is counted.
    gw = await startGateway(
      {
        CACHE_ENABLED: 'true',
        REDIS_URL: rig.topology.url,
        CLIENT_RATE_LIMIT_PER_MINUTE: '0',
        REDIS_COMMAND_TIMEOUT_MS: '500',
        ...env,
      },
      0,
      tuning,
    );
    await waitFor(() => gw!.gateway.cacheStatus().healthy, 10_000, 'the gateway to find Redis healthy');
  });
  afterAll(() => gw?.close());
  return {
    get gw() {
      return gw!;
    },
  };
}

/** The Redis keys of a response's lookups, and what a tick's reads of them cost: one command per slot, one round trip per node. */
function expectedCost(
  topology: RedisTopology,
  gw: TestGateway,
  response: GraphQLResponse,
): { slots: number; nodes: number } {
  const cache = gw.gateway.cache;
  const fingerprint = cache.fingerprint(gw.gateway.sandbox!.token);
  const keys = (response.body.extensions!.gateway.lookups as Array<{ action: string; key: string }>).map(
    ({ action, key }) => cache.cacheKey(action, fingerprint, key),
  );
  if (!(topology.client instanceof Cluster)) return { slots: 1, nodes: 1 };
  const cluster = topology.client;
  const slots = new Set(keys.map((key) => calculateSlot(key)));
  return { slots: slots.size, nodes: new Set([...slots].map((slot) => cluster.slots[slot]![0])).size };
}

/** Calls of `command` summed over the nodes, and how many nodes had any (the round trips, as each node gets one pipeline). */
async function callsOf(topology: RedisTopology, command: string): Promise<{ calls: number; nodes: number }> {
  const { total, byNode } = await topology.commandCalls();
  return {
    calls: total[command] ?? 0,
    nodes: [...byNode.values()].filter((calls) => (calls[command] ?? 0) > 0).length,
  };
}

describe.runIf(canRun).each(REDIS_FORMS)('round trips on %s Redis', (form) => {
  const rig = topologyFor(form);

  describe('the lookups of an operation are read in one round trip per node, one MGET per slot', () => {
    // Every lookup asks Redis (no in-process tier hits) and remembered results (which read less) are off.
    const running = gatewayOn(
      rig,
      { CACHE_RESULTS_MB: '0', CACHE_KEY_SECRET: `round-trips-${form}-${process.pid}` },
      NO_TIER,
    );
    let gw: TestGateway;
    let topology: RedisTopology;
    beforeAll(() => {
      ({ gw } = running);
      ({ topology } = rig);
    });

    it('three cached lookups: one MGET per slot on one round trip per node, no GET, no upstream call', async () => {
      const cold = await gw.query(THREE_LOOKUPS);
      expect(cold.body.errors).toBeUndefined();
      expect(cold.body.extensions!.gateway.upstreamCalls).toBe(3);

      await topology.resetStats();
      const warm = await gw.query(THREE_LOOKUPS);
      expect(warm.body.data).toEqual(cold.body.data);
      expect(warm.body.extensions!.gateway.upstreamCalls).toBe(0);
      expect(warm.body.extensions!.gateway.lookups.map((l: { source: string }) => l.source)).toEqual([
        'cache',
        'cache',
        'cache',
      ]);
      const cost = expectedCost(topology, gw, warm);
      const mget = await callsOf(topology, 'mget');
      console.log(`${form}: 3 lookups read as ${mget.calls} MGET on ${mget.nodes} node(s)`);
      expect(mget).toEqual({ calls: cost.slots, nodes: cost.nodes });
      expect((await topology.commandCalls()).total.get).toBeUndefined();
    });

    it('the symbols of one financial lookup too, and their writes: one SET each and one announcement per node', async () => {
      await topology.resetStats();
      const cold = await gw.query(FOUR_SYMBOLS);
      expect(cold.body.extensions!.gateway.upstreamCalls).toBe(1);
      const cost = expectedCost(topology, gw, cold);
      // The four entries come from one upstream answer: written in one tick, one pipeline per node closed by
      // one announcement. (SET counts the four leases too, each in a slot of its own: the lease script takes it with SET NX.)
      expect(await callsOf(topology, 'publish')).toEqual({ calls: cost.nodes, nodes: cost.nodes });
      expect((await callsOf(topology, 'set')).calls).toBe(4 + 4);

      await topology.resetStats();
      const warm = await gw.query(FOUR_SYMBOLS);
      expect(warm.body.data).toEqual(cold.body.data);
      expect(warm.body.extensions!.gateway.upstreamCalls).toBe(0);
      const mget = await callsOf(topology, 'mget');
      console.log(
        `${form}: 4 symbols read as ${mget.calls} MGET on ${mget.nodes} node(s), written as 4 SET on ${cost.nodes} node(s)`,
      );
      expect(mget).toEqual({ calls: cost.slots, nodes: cost.nodes });
      expect((await topology.commandCalls()).total.get).toBeUndefined();
    });

    it('five concurrent operations of three lookups: at most one read round trip per node each (reads in one tick share one)', async () => {
      const first = await gw.query(THREE_LOOKUPS);
      const cost = expectedCost(topology, gw, first);
      await topology.resetStats();
      const results = await Promise.all(Array.from({ length: 5 }, () => gw.query(THREE_LOOKUPS)));
      for (const result of results) expect(result.body.extensions!.gateway.upstreamCalls).toBe(0);
      const calls = (await topology.commandCalls()).total;
      expect(calls.get).toBeUndefined();
      expect(calls.mget).toBeGreaterThanOrEqual(cost.slots);
      expect(calls.mget).toBeLessThanOrEqual(5 * cost.slots);
    });
  });

  describe('the in-process tier: a hot key costs no round trip', () => {
    const running = gatewayOn(rig, { CACHE_RESULTS_MB: '0', CACHE_KEY_SECRET: `tier-${form}-${process.pid}` });

    it('a repeat within the local TTL (2 s) is served from the process: no Redis command at all', async () => {
      const gw = running.gw;
      await gw.query(THREE_LOOKUPS);
      await rig.topology.resetStats();
      const again = await gw.query(THREE_LOOKUPS);
      expect(again.body.extensions!.gateway.lookups.map((l: { source: string }) => l.source)).toEqual([
        'cache',
        'cache',
        'cache',
      ]);
      const { total } = await rig.topology.commandCalls();
      expect(DATA_COMMANDS.filter((command) => total[command])).toEqual([]);
    });
  });

  describe('a remembered result over Redis checks its entries in one round trip per node, reading only their tails', () => {
    const running = gatewayOn(rig, { CACHE_KEY_SECRET: `replays-${form}-${process.pid}` }, NO_TIER);

    it('three lookups: three GETRANGEs pipelined per node, no MGET; concurrent replays share them', async () => {
      const gw = running.gw;
      const topology = rig.topology;
      await gw.query(THREE_LOOKUPS);
      await gw.query(THREE_LOOKUPS); // remembered from its second run
      await topology.resetStats();
      const replayed = await gw.query(THREE_LOOKUPS);
      expect(replayed.body.extensions!.gateway.lookups.map((lookup: { source: string }) => lookup.source)).toEqual([
        'cache',
        'cache',
        'cache',
      ]);
      const cost = expectedCost(topology, gw, replayed);
      let calls = (await topology.commandCalls()).total;
      expect(await callsOf(topology, 'getrange')).toEqual({ calls: 3, nodes: cost.nodes });
      expect(calls.mget).toBeUndefined();
      expect(calls.get).toBeUndefined();
      await topology.resetStats();
      const results = await Promise.all(Array.from({ length: 5 }, () => gw.query(THREE_LOOKUPS)));
      for (const result of results) expect(result.body.extensions!.gateway.upstreamCalls).toBe(0);
      calls = (await topology.commandCalls()).total;
      expect(calls.mget).toBeUndefined();
      expect(calls.getrange).toBeGreaterThanOrEqual(3);
      expect(calls.getrange).toBeLessThanOrEqual(15);
    });
  });
});
