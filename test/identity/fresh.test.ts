import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor, combinedCacheControl } from '../../src/cache/cache-control.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let upstream: FaultUpstream;
let gw: TestGateway;
let version = 0;
beforeAll(async () => {
  upstream = await startFaultUpstream();
  upstream.handle((call, _req, res) => {
    version += 1;
    if (call.action === 'company_financial_profile') {
      const symbols = String(call.body.company).split(', ');
      return json(res, 200, { status: 200, response: symbols.map((symbol) => ({ symbol, price: version })) });
    }
    return json(res, 200, { status: 200, response: { domain: call.body.domain, name: `v${version}`, ticker: 'HUBS' } });
  });
  gw = await startGateway(
    upstreamEnv(upstream, {
      CACHE_ENABLED: 'true',
      CACHE_TTL_SECONDS: 'get_company_object=600,company_financial_profile=120',
    }),
  );
});
afterAll(async () => {
  await gw.close();
  await upstream.close();
});

const calls = (action: string) => upstream.calls.filter((call) => call.action === action).length;

describe('@fresh', () => {
  it('bypasses the cache for that lookup only, once per operation, and reports ages', async () => {
    const first = await gw.query(
      '{ company(domain: "hubspot.com") { name } financialProfiles(symbols: ["AAPL"]) { price } }',
    );
    expect(first.body.extensions!.gateway.lookups.every((l: { ageSeconds: number }) => l.ageSeconds === 0)).toBe(true);
    expect(first.headers.get('cache-control')).toBe('public, max-age=120'); // GATEWAY_AUTH=none: shareable; with keys it is private (unit test below)

    const cached = await gw.query('{ company(domain: "hubspot.com") { name } }');
    expect(cached.body.data!.company.name).toBe(first.body.data!.company.name);
    expect(cached.body.extensions!.gateway.lookups[0]).toMatchObject({ source: 'cache', ageSeconds: 0 });
    expect(cached.body.extensions!.gateway.lookups[0].ttlSeconds).toBeUndefined();

    const before = calls('get_company_object');
    // The same lookup three times in one operation, fresh in one place: one call, every field sees the fresh value.
    const fresh = await gw.query(`{
      a: company(domain: "hubspot.com") { name }
      b: company(domain: "hubspot.com") @fresh { name }
      c: financialProfiles(symbols: ["AAPL"]) { company { name } }
    }`);
    expect(calls('get_company_object')).toBe(before + 1);
    expect(fresh.body.data!.a.name).not.toBe(first.body.data!.company.name);
    expect(fresh.body.data!.b.name).toBe(fresh.body.data!.a.name);
    expect(fresh.body.extensions!.gateway.upstreamCalls).toBe(1); // the financial profile came from the cache

    // The fresh value replaced the cached one.
    const after = await gw.query('{ company(domain: "hubspot.com") { name } }');
    expect(after.body.data!.company.name).toBe(fresh.body.data!.b.name);
    expect(after.body.extensions!.gateway.upstreamCalls).toBe(0);
  });

  it('works on links and symbols, and a fresh read after a cached one in the same operation is made once', async () => {
    await gw.query('{ financialProfiles(symbols: ["NKE", "MSFT"]) { price } }');
    const before = calls('company_financial_profile');
    const res = await gw.query(
      '{ p: financialProfiles(symbols: ["NKE", "MSFT"]) { price } q: financialProfiles(symbols: ["NKE"]) @fresh { price } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(calls('company_financial_profile')).toBe(before + 1);
    expect(upstream.calls.at(-1)!.body.company).toBe('NKE');
  });

  it('is counted by the cost budget', async () => {
    const small = await startGateway(upstreamEnv(upstream, { CACHE_ENABLED: 'true', COST_BUDGET: '1' }));
    try {
      await small.query('{ company(domain: "budget.com") { name } }');
      const res = await small.query(
        '{ company(domain: "budget.com") @fresh { name domainInfo @fresh { domainName } } }',
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('COST_LIMIT_EXCEEDED');
    } finally {
      await small.close();
    }
  });

  it('is refused on a field that makes no lookup', async () => {
    const res = await gw.query('{ company(domain: "hubspot.com") { name @fresh } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('Cache-Control', () => {
  const report = (ttlSeconds: number, ageSeconds: number) => ({
    action: 'a',
    key: 'k',
    source: 'cache' as const,
    ttlSeconds,
    ageSeconds,
  });
  it('is never longer than the shortest remaining TTL, private unless shareable, no-store on errors', () => {
    expect(cacheControlFor([report(600, 100), report(120, 30)], false, false)).toBe('private, max-age=90');
    expect(cacheControlFor([report(600, 100)], false, true)).toBe('public, max-age=500');
    expect(cacheControlFor([report(600, 100)], true, true)).toBe('no-store');
    expect(cacheControlFor([], false, true)).toBe('no-store');
    expect(cacheControlFor([report(0, 0)], false, true)).toBe('no-store');
    expect(cacheControlFor([{ ...report(600, 0), failed: true }], false, true)).toBe('no-store');
  });
  it('for a batch, is the most restrictive of its operations', () => {
    expect(combinedCacheControl(undefined)).toBe('no-store');
    expect(combinedCacheControl(['public, max-age=500'])).toBe('public, max-age=500');
    expect(combinedCacheControl(['public, max-age=500', 'private, max-age=90'])).toBe('private, max-age=90');
    expect(combinedCacheControl(['public, max-age=500', 'public, max-age=120'])).toBe('public, max-age=120');
    expect(combinedCacheControl(['public, max-age=500', 'no-store'])).toBe('no-store');
  });
});
