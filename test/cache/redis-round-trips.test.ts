import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../support/own-redis.js';

const canRun = await hasRedisServer();
if (!canRun && process.env.CI === 'true') throw new Error('CI=true but redis-server is not installed: the Redis round-trip test cannot run');

/** Calls per command since the last CONFIG RESETSTAT, from INFO commandstats. */
async function commandCalls(client: Redis): Promise<Record<string, number>> {
  const info = await client.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) calls[match[1]!] = Number(match[2]);
  return calls;
}

const THREE_LOOKUPS = `{
  a: domainInfo(domain: "one.example") { domainName }
  b: domainInfo(domain: "two.example") { domainName }
  c: company(domain: "three.example") { name }
}`;

/**
 * A Redis of its own (the command counts must be this gateway's alone), a client to read its stats and a
 * gateway over the sandbox caching in it, for the enclosing describe block.
 */
function ownRedisGateway(env: Record<string, string>): { readonly client: Redis; readonly gw: RunningGateway } {
  let redis: OwnRedis | undefined;
  let client: Redis | undefined;
  let gw: RunningGateway | undefined;
  beforeAll(async () => {
    redis = await startOwnRedis();
    client = new Redis(redis.url);
    gw = await startGateway({ CACHE_ENABLED: 'true', REDIS_URL: redis.url, ...env });
  });
  afterAll(async () => {
    await gw?.close();
    client?.disconnect();
    await redis?.close();
  });
  return {
    get client() {
      return client!;
    },
    get gw() {
      return gw!;
    },
  };
}

describe.skipIf(!canRun)('the Redis cache reads the lookups of an operation in one round trip', () => {
  // The lookups themselves: remembered results (which read less) are counted in the next describe.
  const rig = ownRedisGateway({ CACHE_RESULTS_MB: '0', CACHE_KEY_SECRET: `round-trips-${process.pid}` });
  let client: Redis;
  let gw: RunningGateway;
  beforeAll(() => {
    ({ client, gw } = rig);
  });

  it('three cached lookups: one MGET, no GET, no upstream call', async () => {
    const cold = await gw.query(THREE_LOOKUPS);
    expect(cold.body.errors).toBeUndefined();
    expect(cold.body.extensions!.gateway.upstreamCalls).toBe(3);

    await client.config('RESETSTAT');
    const warm = await gw.query(THREE_LOOKUPS);
    expect(warm.body.data).toEqual(cold.body.data);
    expect(warm.body.extensions!.gateway.upstreamCalls).toBe(0);
    expect(warm.body.extensions!.gateway.lookups.map((l: { source: string }) => l.source)).toEqual(['cache', 'cache', 'cache']);
    const calls = await commandCalls(client);
    expect(calls.mget).toBe(1);
    expect(calls.get).toBeUndefined();
  });

  it('the symbols of one financial lookup are read in one MGET too', async () => {
    const query = '{ financialProfiles(symbols: ["AAPL", "MSFT", "NKE", "HUBS"]) { symbol } }';
    const cold = await gw.query(query);
    expect(cold.body.extensions!.gateway.upstreamCalls).toBe(1);
    await client.config('RESETSTAT');
    const warm = await gw.query(query);
    expect(warm.body.data).toEqual(cold.body.data);
    expect(warm.body.extensions!.gateway.upstreamCalls).toBe(0);
    const calls = await commandCalls(client);
    expect(calls.mget).toBe(1);
    expect(calls.get).toBeUndefined();
  });

  it('five concurrent operations of three lookups: at most one read round trip each (reads in one tick share one)', async () => {
    await gw.query(THREE_LOOKUPS);
    await client.config('RESETSTAT');
    const results = await Promise.all(Array.from({ length: 5 }, () => gw.query(THREE_LOOKUPS)));
    for (const result of results) expect(result.body.extensions!.gateway.upstreamCalls).toBe(0);
    const calls = await commandCalls(client);
    expect(calls.get).toBeUndefined();
    expect(calls.mget).toBeGreaterThanOrEqual(1);
    expect(calls.mget).toBeLessThanOrEqual(5);
  });
});

describe.skipIf(!canRun)('a remembered result over Redis checks its entries in one round trip, reading only their tails', () => {
  const rig = ownRedisGateway({ CACHE_KEY_SECRET: `replays-${process.pid}` });
  let client: Redis;
  let gw: RunningGateway;
  beforeAll(() => {
    ({ client, gw } = rig);
  });

  it('three lookups: three GETRANGEs in one pipeline, no MGET; concurrent replays share them', async () => {
    await gw.query(THREE_LOOKUPS);
    await gw.query(THREE_LOOKUPS); // remembered from its second run
    await client.config('RESETSTAT');
    const replayed = await gw.query(THREE_LOOKUPS);
    expect(replayed.body.extensions!.gateway.lookups.map((lookup: { source: string }) => lookup.source)).toEqual(['cache', 'cache', 'cache']);
    let calls = await commandCalls(client);
    expect(calls.getrange).toBe(3);
    expect(calls.mget).toBeUndefined();
    expect(calls.get).toBeUndefined();
    await client.config('RESETSTAT');
    const results = await Promise.all(Array.from({ length: 5 }, () => gw.query(THREE_LOOKUPS)));
    for (const result of results) expect(result.body.extensions!.gateway.upstreamCalls).toBe(0);
    calls = await commandCalls(client);
    expect(calls.mget).toBeUndefined();
    expect(calls.getrange).toBeGreaterThanOrEqual(3);
    expect(calls.getrange).toBeLessThanOrEqual(15);
  });
});
