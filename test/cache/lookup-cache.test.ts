import { afterAll, beforeAll, describe, expect, onTestFinished } from 'vitest';
import { it } from '../support/fixtures.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { sleep } from '../support/wait.js';

const DOMAIN = (name: string) => ({ status: 200, response: { domain_name: name, domain_registered: 'yes' } });

describe('the cross-request cache (memory)', () => {
  let up: FaultUpstream;
  let gw: TestGateway;
  let delayMs = 0;
  let failNext = 0;
  beforeAll(async () => {
    up = await startFaultUpstream();
    up.handle(async (call, _req, res) => {
      if (delayMs) await sleep(delayMs);
      if (failNext > 0) {
        failNext -= 1;
        return json(res, 500, { status: 500, response: null, error: 'boom' });
      }
      if (call.action === 'domain_info') return json(res, 200, DOMAIN(call.body.domain));
      if (call.action === 'company_financial_profile') {
        const known = ['AAPL', 'NKE', 'MSFT', 'KO', 'IBM'];
        return json(res, 200, {
          status: 200,
          response: String(call.body.company)
            .split(', ')
            .filter((s) => known.includes(s))
            .map((symbol) => ({ symbol, price: 10 })),
        });
      }
      return json(res, 404, { status: 404, response: null });
    });
    gw = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true', CACHE_TTL_SECONDS: 'domain_info=1' }), 0, {
      resilience: { maxRetries: 0 },
    });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });
  const callsOf = (action: string) => up.calls.filter((call) => call.action === action).length;
  /** Runs `check` with the call log cleared and every upstream answer held back `ms`, then answers at once again. */
  async function withUpstreamDelay(ms: number, check: () => Promise<void>): Promise<void> {
    up.calls.length = 0;
    delayMs = ms;
    try {
      await check();
    } finally {
      delayMs = 0;
    }
  }

  it('serves a repeat from the cache and says so per lookup; the entry expires after its TTL', async () => {
    up.calls.length = 0;
    const first = await gw.query('{ domainInfo(domain: "hits.example") { domainName } }');
    const second = await gw.query('{ domainInfo(domain: "HITS.example") { domainName } }');
    expect(second.body.data).toEqual(first.body.data);
    expect(callsOf('domain_info')).toBe(1);
    expect(first.body.extensions!.gateway.lookups).toEqual([
      { action: 'domain_info', key: 'hits.example', source: 'upstream', ageSeconds: 0 },
    ]);
    expect(second.body.extensions!.gateway.lookups).toEqual([
      { action: 'domain_info', key: 'hits.example', source: 'cache', ageSeconds: 0 },
    ]);
    expect(second.body.extensions!.gateway.upstreamCalls).toBe(0);

    await sleep(1100); // CACHE_TTL_SECONDS=domain_info=1
    const third = await gw.query('{ domainInfo(domain: "hits.example") { domainName } }');
    expect(third.body.extensions!.gateway.lookups[0].source).toBe('upstream');
    expect(callsOf('domain_info')).toBe(2);
  });

  it('does not cache failures', async () => {
    up.calls.length = 0;
    failNext = 1;
    const failed = await gw.query('{ domainInfo(domain: "flaky.example") { domainName } }');
    expect(failed.body.errors![0]!.extensions!.code).toBe('UPSTREAM_UNAVAILABLE');
    const retried = await gw.query('{ domainInfo(domain: "flaky.example") { domainName } }');
    expect(retried.body.data).toEqual({ domainInfo: { domainName: 'flaky.example' } });
    expect(callsOf('domain_info')).toBe(2);
  });

  it('caches symbols one by one: a later subset costs nothing, a superset asks only for the new symbol', async () => {
    up.calls.length = 0;
    await gw.query('{ financialProfiles(symbols: ["AAPL", "NKE", "MSFT"]) { symbol } }');
    const subset = await gw.query('{ financialProfiles(symbols: ["nke", "aapl"]) { symbol } }');
    expect(subset.body.data!.financialProfiles).toEqual([{ symbol: 'NKE' }, { symbol: 'AAPL' }]);
    expect(subset.body.extensions!.gateway.upstreamCalls).toBe(0);
    await gw.query('{ financialProfiles(symbols: ["MSFT", "KO"]) { symbol } }');
    expect(up.calls.map((call) => call.body.company)).toEqual(['AAPL, NKE, MSFT', 'KO']);
  });

  it('remembers NOT_FOUND for a short time (not_found in CACHE_TTL_SECONDS, 60 s unless set)', async () => {
    up.calls.length = 0;
    const first = await gw.query('{ financialProfiles(symbols: ["ZZZZ"]) { symbol } }');
    const second = await gw.query('{ financialProfiles(symbols: ["ZZZZ"]) { symbol } }');
    expect(first.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect(second.body.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect(callsOf('company_financial_profile')).toBe(1);
  });

  it('coalesces a burst of identical lookups into one upstream call', async () => {
    // Long enough that all twenty requests arrive while the one call is still out, even on a busy machine.
    await withUpstreamDelay(1000, async () => {
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => gw.query('{ domainInfo(domain: "burst.example") { domainName } }')),
      );
      expect(burst.every((r) => r.body.data!.domainInfo.domainName === 'burst.example')).toBe(true);
      expect(callsOf('domain_info')).toBe(1);
      const sources = burst.map((r) => r.body.extensions!.gateway.lookups[0].source).sort();
      expect(sources.filter((s: string) => s === 'upstream')).toHaveLength(1);
      expect(sources.filter((s: string) => s === 'coalesced')).toHaveLength(19);
    });
  });

  it('coalesces identical lookups that arrive in the same tick (50 at once through yoga.fetch)', async () => {
    await withUpstreamDelay(100, async () => {
      const body = JSON.stringify({ query: '{ domainInfo(domain: "same-tick.example") { domainName } }' });
      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          Promise.resolve(
            gw.gateway.yoga.fetch('http://gateway/graphql', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
            }),
          ).then((res) => res.json()),
        ),
      );
      expect(responses.every((r) => r.data.domainInfo.domainName === 'same-tick.example')).toBe(true);
      expect(callsOf('domain_info')).toBe(1);
    });
  });

  it('keeps a coalesced call going for its waiter when the request that owns it disconnects: one lookup, one paid call', async () => {
    await withUpstreamDelay(300, async () => {
      const leader = new AbortController();
      const query = JSON.stringify({ query: '{ domainInfo(domain: "cancelled-leader.example") { domainName } }' });
      const first = gw
        .fetch(`/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: query,
          signal: leader.signal,
        })
        .catch((error: Error) => error);
      await sleep(50);
      const second = gw.post(query);
      await sleep(50);
      leader.abort();
      expect(await first).toBeInstanceOf(Error);
      const { body } = await second;
      expect(body.errors).toBeUndefined();
      expect(body.data).toEqual({ domainInfo: { domainName: 'cancelled-leader.example' } });
      expect(body.extensions!.gateway.lookups[0].source).toBe('coalesced');
      expect(callsOf('domain_info')).toBe(1);
    });
  });

  it('coalesces symbols another request is already fetching', async () => {
    await withUpstreamDelay(200, async () => {
      const [a, b] = await Promise.all([
        gw.query('{ financialProfiles(symbols: ["IBM", "KO"]) { symbol } }'),
        gw.query('{ financialProfiles(symbols: ["ibm"]) { symbol } }'),
      ]);
      expect(a.body.data!.financialProfiles).toEqual([{ symbol: 'IBM' }, { symbol: 'KO' }]);
      expect(b.body.data!.financialProfiles).toEqual([{ symbol: 'IBM' }]);
      expect(up.calls.map((call) => call.body.company)).toEqual(['IBM']); // KO was cached, IBM fetched once
      expect(b.body.extensions!.gateway.lookups).toEqual([
        { action: 'company_financial_profile', key: 'IBM', source: 'coalesced', ageSeconds: 0 },
      ]);
    });
  });
});

/** A fault upstream of this test's own, closed after it. */
async function ownUpstream(): Promise<FaultUpstream> {
  const up = await startFaultUpstream();
  onTestFinished(() => up.close());
  return up;
}

describe('tokens never share cache entries', () => {
  it('fingerprints tokens with an HMAC, and two gateways with different tokens each call', async ({ startGateway }) => {
    const up = await ownUpstream();
    up.handle((call, _req, res) => json(res, 200, DOMAIN(call.body.domain)));
    const a = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true', ACTION_TOKEN: 'token-a' }));
    const b = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true', ACTION_TOKEN: 'token-b' }));
    await a.query('{ domainInfo(domain: "shared.example") { domainName } }');
    await a.query('{ domainInfo(domain: "shared.example") { domainName } }');
    await b.query('{ domainInfo(domain: "shared.example") { domainName } }');
    expect(up.calls.map((call) => call.authorization)).toEqual(['Bearer token-a', 'Bearer token-b']);
    const cache = a.gateway.cache;
    expect(cache.fingerprint('token-a')).not.toBe(cache.fingerprint('token-b'));
    expect(cache.fingerprint('token-a')).toMatch(/^[0-9a-f]{24}$/);
    expect(cache.cacheKey('domain_info', cache.fingerprint('token-a'), 'x.example')).not.toContain('token-a');
  });
});

describe('forward mode with the cache on: each client token has its own entries and its own calls', () => {
  const ALICE = 'alice-upstream-token-aaaaaaaaaaaa';
  const BOB = 'bob-upstream-token-bbbbbbbbbbbbbb';

  it("never serves or coalesces one token's lookup with another's", async ({ startGateway }) => {
    const up = await ownUpstream();
    up.handle(async (call, _req, res) => {
      await sleep(150);
      json(res, 200, {
        status: 200,
        response: { domain_name: `${call.body.domain}`, registrant_contact: { name: call.authorization } },
      });
    });
    const gw = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true', GATEWAY_AUTH: 'forward' }));
    const ask = (token: string) =>
      gw.query('{ domainInfo(domain: "private.example") { registrantContact { name } } }', undefined, {
        authorization: `Bearer ${token}`,
      });
    // Concurrent: no coalescing across tokens.
    const [alice, bob] = await Promise.all([ask(ALICE), ask(BOB)]);
    expect(alice.body.data!.domainInfo.registrantContact.name).toBe(`Bearer ${ALICE}`);
    expect(bob.body.data!.domainInfo.registrantContact.name).toBe(`Bearer ${BOB}`);
    expect(up.calls).toHaveLength(2);
    // Later: each token is served its own cached answer.
    const [aliceAgain, bobAgain] = await Promise.all([ask(ALICE), ask(BOB)]);
    expect(aliceAgain.body.data!.domainInfo.registrantContact.name).toBe(`Bearer ${ALICE}`);
    expect(bobAgain.body.data!.domainInfo.registrantContact.name).toBe(`Bearer ${BOB}`);
    expect(aliceAgain.body.extensions!.gateway.lookups[0].source).toBe('cache');
    expect(up.calls).toHaveLength(2);
  });
});
