import { FreshReads } from '../../src/cache/fresh.js';
import { parse } from 'graphql';
import { SymbolMeter } from '../../src/cost/meter.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { LookupCache } from '../../src/cache/lookup-cache.js';
import { MemoryStore } from '../../src/cache/memory-store.js';
import { ResultMemo } from '../../src/cache/result-memo.js';
import type { GatewayContext } from '../../src/operation/context.js';
import { Operation } from '../../src/operation/operation.js';
import { loadConfig } from '../../src/config.js';
import { json, upstreamEnv, type FaultHandler, type FaultUpstream } from '../support/fault-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { it as rigIt, upstreamGatewayFor } from '../support/fixtures.js';
import { REDIS_FORMS, redisServersAvailable, topologyFor } from '../support/redis-topologies.js';
import { sleep } from '../support/wait.js';

const DOMAIN_QUERY = 'query Domain($domain: String!) { domainInfo(domain: $domain) { domainName registrar { name } } }';

async function replays(gw: TestGateway): Promise<number> {
  const text = await (await gw.fetch(`/metrics`)).text();
  const counts = [...text.matchAll(/^lookup_graph_result_replays_total (\d+)/gm)].map((match) => Number(match[1]));
  return counts.reduce((sum, count) => sum + count, 0);
}

describe('remembered results: a repeat answered from the cache alone runs no resolver', () => {
  const rig = upstreamGatewayFor(
    { CACHE_ENABLED: 'true', CACHE_TTL_SECONDS: 'domain_info=1' },
    { resilience: { maxRetries: 0 } },
  );
  let up: FaultUpstream;
  let gw: TestGateway;
  /** Every upstream answer names the call that made it, so a stale remembered result shows (in text beyond ASCII). */
  let call = 0;
  beforeAll(() => {
    ({ up, gw } = rig);
    up.handle((request, _req, res) => {
      call += 1;
      if (request.action === 'domain_info') {
        return json(res, 200, {
          status: 200,
          response: {
            domain_name: request.body.domain,
            domain_registrar: { registrar_name: `call ${call} · Régistrar 📷` },
          },
        });
      }
      return json(res, 500, { status: 500, response: null, error: 'down' });
    });
  });

  it('answers the same data with its own extensions and Cache-Control, and counts the replay', async () => {
    const before = await replays(gw);
    const first = await gw.query(DOMAIN_QUERY, { domain: 'memo.example' });
    // Remembered the second time it is made, replayed from the third on.
    await gw.query(DOMAIN_QUERY, { domain: 'memo.example' });
    expect(await replays(gw)).toBe(before);
    const second = await gw.query(DOMAIN_QUERY, { domain: 'memo.example' });
    expect(second.body.data).toEqual(first.body.data);
    expect(second.text.startsWith(`{"data":${JSON.stringify(first.body.data)},"extensions":`)).toBe(true);
    expect(first.body.extensions!.gateway.lookups).toEqual([
      { action: 'domain_info', key: 'memo.example', source: 'upstream', ageSeconds: 0 },
    ]);
    expect(second.body.extensions!.gateway).toMatchObject({
      upstreamCalls: 0,
      lookups: [{ action: 'domain_info', key: 'memo.example', source: 'cache', ageSeconds: 0 }],
    });
    expect(second.headers.get('cache-control')).toBe('public, max-age=1');
    expect(await replays(gw)).toBe(before + 1);
    // Other variables are another operation: run, not replayed.
    await gw.query(DOMAIN_QUERY, { domain: 'other.example' });
    const other = await gw.query(DOMAIN_QUERY, { domain: 'other.example' });
    expect(other.body.extensions!.gateway.lookups[0].source).toBe('cache');
    expect(await replays(gw)).toBe(before + 1);
  });

  it('never answers one query text with the result of another of the same length and ends', async () => {
    // The same length, opening and (long) ending; only the order of the two fields in the middle differs.
    const tail = `\n# ${'-'.repeat(120)}`;
    const text = (fields: string) =>
      `query Domain($domain: String!) { domainInfo(domain: $domain) { ${fields} } }${tail}`;
    const nameFirst = text('domainName registrar { name }');
    const registrarFirst = text('registrar { name } domainName');
    const variables = { domain: 'ends.example' };
    for (let i = 0; i < 3; i++) {
      for (const [query, first] of [
        [nameFirst, '{"data":{"domainInfo":{"domainName"'],
        [registrarFirst, '{"data":{"domainInfo":{"registrar"'],
      ] as const) {
        expect((await gw.query(query, variables)).text.startsWith(first)).toBe(true);
      }
    }
  });

  it('is logged like a run: its operation, cost and no upstream call', async () => {
    const variables = { domain: 'logged.example' };
    for (let i = 0; i < 2; i++) await gw.query(DOMAIN_QUERY, variables);
    const before = await replays(gw);
    gw.logs.length = 0;
    const replayed = await gw.query(DOMAIN_QUERY, variables);
    expect(await replays(gw)).toBe(before + 1);
    const line = gw.logs.map((text) => JSON.parse(text)).find((entry) => entry.request)?.request;
    expect(line).toMatchObject({
      operation: 'Domain',
      operationType: 'query',
      status: 200,
      upstreamCalls: 0,
      cost: replayed.body.extensions!.gateway.cost,
    });
    expect(line.cost).toMatchObject({ estimated: 1 });
  });

  it('runs the operation again once an entry it was built from is refreshed (@fresh) or expires', async () => {
    const first = await gw.query(DOMAIN_QUERY, { domain: 'refresh.example' });
    await gw.query(DOMAIN_QUERY, { domain: 'refresh.example' });
    const refreshed = await gw.query('{ domainInfo(domain: "refresh.example") @fresh { registrar { name } } }');
    expect(refreshed.body.data!.domainInfo.registrar.name).not.toBe(first.body.data!.domainInfo.registrar.name);
    const before = await replays(gw);
    const after = await gw.query(DOMAIN_QUERY, { domain: 'refresh.example' });
    expect(after.body.data!.domainInfo.registrar.name).toBe(refreshed.body.data!.domainInfo.registrar.name);
    expect(await replays(gw)).toBe(before);
    await sleep(1100); // domain_info=1: the entry, and with it the remembered result, expires
    const expired = await gw.query(DOMAIN_QUERY, { domain: 'refresh.example' });
    expect(expired.body.extensions!.gateway.lookups[0].source).toBe('upstream');
    expect(expired.body.data!.domainInfo.registrar.name).not.toBe(after.body.data!.domainInfo.registrar.name);
    expect(await replays(gw)).toBe(before);
  });

  it('answers text beyond ASCII byte for byte, as JSON and as an event stream', async () => {
    const variables = { domain: 'text.example' };
    const post = (accept: string) =>
      gw.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify({ query: DOMAIN_QUERY, variables }),
      });
    const first = await gw.query(DOMAIN_QUERY, variables);
    await gw.query(DOMAIN_QUERY, variables);
    const before = await replays(gw);
    const replayed = await post('application/graphql-response+json');
    const bytes = Buffer.from(await replayed.arrayBuffer());
    expect(replayed.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(JSON.parse(bytes.toString('utf8')).data).toEqual(first.body.data);
    expect(JSON.parse(bytes.toString('utf8')).data.domainInfo.registrar.name).toMatch(/^call \d+ · Régistrar 📷$/);
    const streamed = await (await post('text/event-stream')).text();
    const event = streamed.split('\n').find((line) => line.startsWith('data: {"data"'));
    expect(JSON.parse(event!.slice('data: '.length)).data).toEqual(first.body.data);
    expect(await replays(gw)).toBe(before + 2);
  });

  it('never remembers a result with errors, nor an operation marked @fresh', async () => {
    const before = await replays(gw);
    const partial =
      '{ domainInfo(domain: "partial.example") { domainName } photosocialProfile(username: "down") { username } }';
    const a = await gw.query(partial);
    await gw.query(partial);
    const b = await gw.query(partial);
    expect(a.body.errors?.length).toBeGreaterThan(0);
    expect(b.body.errors?.length).toBeGreaterThan(0);
    const fresh = '{ domainInfo(domain: "fresh.example") @fresh { domainName } }';
    await gw.query(fresh);
    await gw.query(fresh);
    const calls = up.calls.length;
    await gw.query(fresh);
    expect(up.calls.length).toBe(calls + 1);
    expect(await replays(gw)).toBe(before);
  });
});

/** A domain record naming the registrar after the request's authorization, so whose answer it is shows. */
const answerWithDomain: FaultHandler = (request, _req, res) =>
  json(res, 200, {
    status: 200,
    response: { domain_name: request.body.domain, domain_registrar: { registrar_name: request.authorization } },
  });

describe('remembered results are per upstream token', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', GATEWAY_AUTH: 'forward' });
  it("never answers one token's request with another's remembered result", async () => {
    const { up, gw } = rig;
    up.handle(answerWithDomain);
    const alice = 'alice-token-aaaaaaaaaaaaaaaa';
    const bob = 'bob-token-bbbbbbbbbbbbbbbbbb';
    for (const token of [alice, alice, alice, bob, bob, bob]) {
      const answer = await gw.query(DOMAIN_QUERY, { domain: 'tenant.example' }, { authorization: `Bearer ${token}` });
      expect(answer.body.data!.domainInfo.registrar.name).toBe(`Bearer ${token}`);
    }
    expect(up.calls.map((call) => call.authorization)).toEqual([`Bearer ${alice}`, `Bearer ${bob}`]);
    expect(await replays(gw)).toBe(2);
  });
});

describe('CACHE_RESULTS_MB=0', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', CACHE_RESULTS_MB: '0' });
  it('turns remembered results off; the cache still answers', async () => {
    const { up, gw } = rig;
    up.handle(answerWithDomain);
    await gw.query(DOMAIN_QUERY, { domain: 'off.example' });
    await gw.query(DOMAIN_QUERY, { domain: 'off.example' });
    const again = await gw.query(DOMAIN_QUERY, { domain: 'off.example' });
    expect(again.body.extensions!.gateway.lookups[0].source).toBe('cache');
    expect(up.calls).toHaveLength(1);
    expect(await replays(gw)).toBe(0);
  });
});

describe('remembered results and large variables', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true' });
  it('does not remember an operation whose variables are large (they would be held in memory)', async () => {
    const { up, gw } = rig;
    up.handle(answerWithDomain);
    // An undeclared variable is ignored by GraphQL but is part of what the client sent.
    const variables = { domain: 'large.example', padding: 'x'.repeat(3000) };
    for (let i = 0; i < 3; i++) expect((await gw.query(DOMAIN_QUERY, variables)).body.errors).toBeUndefined();
    expect(await replays(gw)).toBe(0);
    for (let i = 0; i < 3; i++) await gw.query(DOMAIN_QUERY, { domain: 'large.example' });
    expect(await replays(gw)).toBe(1);
    expect(up.calls).toHaveLength(1);
  });
});

describe('ResultMemo', () => {
  it('replays a result only while the cache holds the entries its values came from, not one another request stored meanwhile', async () => {
    const settings = loadConfig({ LOG_LEVEL: 'silent' }).cache;
    const store = new MemoryStore(1_000_000);
    const cache = new LookupCache(store, settings);
    const memo = new ResultMemo(cache, 1_000_000);
    const full = cache.cacheKey('domain_info', 'fp', 'race.example');
    const contextWith = (storedAt: number) => {
      const operation = new Operation(Date.now() + 1000, () => undefined, new SymbolMeter(), new FreshReads());
      operation.lookups.push({
        action: 'domain_info',
        key: 'race.example',
        source: 'upstream',
        ageSeconds: 0,
        ttlSeconds: 60,
        storedAt,
      });
      return { operation, tokenFingerprint: 'fp', cache } as unknown as GatewayContext;
    };
    const query = '{ domainInfo(domain: "race.example") { domainName } }';
    const key = memo.recordKey({ query }, 'fp', parse(query))!;
    expect(memo.replayKey({ query }, 'fp')).toBe(key);
    const result = () => ({ data: { domainInfo: { domainName: 'race.example' } } });

    // The value was fetched at t=1, but a @fresh read of another request has stored t=2 since.
    await store.set(full, { v: { domain_name: 'race.example' }, t: 2 }, 60_000);
    const name = () => null;
    memo.record(key, contextWith(1), result(), name);
    memo.record(key, contextWith(1), result(), name);
    expect(await memo.replay(key, 'fp')).toBeUndefined();

    // Built from the entry the cache holds: remembered (the second time), and replayed.
    memo.record(key, contextWith(2), result(), name);
    expect((await memo.replay(key, 'fp'))?.data).toEqual({ domainInfo: { domainName: 'race.example' } });
  });
});

describe.runIf(await redisServersAvailable()).each(REDIS_FORMS)(
  'remembered results over the shared cache on %s Redis',
  (form) => {
    const topology = topologyFor(form);
    rigIt(
      "are checked against Redis on every replay: another replica's @fresh refresh ends them",
      async ({ upstream, startGateway: replica }) => {
        let call = 0;
        upstream.handle((request, _req, res) => {
          call += 1;
          json(res, 200, {
            status: 200,
            response: {
              domain_name: request.body.domain,
              domain_registrar: { registrar_name: `call ${call} · Régistrar 📷` },
            },
          });
        });
        upstream.calls.length = 0;
        // A generous deadline: on a busy machine a gateway that skips Redis serves its own copy, which is not what this checks.
        const env = upstreamEnv(upstream, {
          REDIS_URL: topology.topology.url,
          CACHE_KEY_SECRET: `memo-${form}-${process.pid}`,
          CACHE_ENABLED: 'true',
          REDIS_COMMAND_TIMEOUT_MS: '500',
        });
        const [a, b] = [await replica(env), await replica(env)];
        const registrar = async (gw: TestGateway, query = DOMAIN_QUERY) =>
          (await gw.query(query, { domain: `replicas-${process.pid}.example` })).body.data!.domainInfo.registrar.name;
        const first = await registrar(a);
        expect(await registrar(a)).toBe(first);
        expect(await registrar(a)).toBe(first);
        expect(await replays(a)).toBe(1); // the third request, from the result remembered at the second
        const refreshed = await registrar(b, DOMAIN_QUERY.replace('(domain: $domain) {', '(domain: $domain) @fresh {'));
        expect(refreshed).not.toBe(first);
        // Not the remembered result, nor a's in-process copy, once b's write and its announcement have reached
        // Redis and a (a moment after b answered, longer on a busy machine): until then a answers what it held.
        let stale = 0;
        await expect
          .poll(
            async () => {
              const name = await registrar(a);
              if (name !== refreshed) stale += 1;
              return name;
            },
            { timeout: 5_000, interval: 20 },
          )
          .toBe(refreshed);
        expect(await replays(a)).toBe(1 + stale);
        expect(upstream.calls).toHaveLength(2);
      },
    );
  },
);
