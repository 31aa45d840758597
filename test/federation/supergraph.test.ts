import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { freePort } from '../support/processes.js';
import { installSupergraphExample, type Router, startSupergraph, type Supergraph } from './router.js';
import { answerLikeSandbox, asked } from './support.js';

const API_KEY = 'supergraph-test-key-0123456789';

/**
 * Lookup Graph as a subgraph of a real supergraph: the example's accounts subgraph references Company,
 * FinancialProfile and ProfessionalProfile by key only, a router (Hive Gateway, then Apollo Gateway) composes
 * and routes, and the fault-injecting upstream counts every call Lookup Graph makes for the router's
 * `_entities` requests.
 */
describe.each<[string, Router]>([
  ['Hive Gateway', 'hive-gateway'],
  ['Apollo Gateway', 'apollo-gateway'],
])('Lookup Graph in a supergraph served by %s', (_name, router) => {
  let up: FaultUpstream;
  let lookup: RunningGateway;
  let supergraph: Supergraph;

  let port: number;
  // As deployed: the cross-request cache on, API keys required (the router forwards the client's).
  const startLookup = () =>
    startGateway(
      upstreamEnv(up, {
        FEDERATION: 'true',
        CACHE_ENABLED: 'true',
        GATEWAY_AUTH: 'api-key',
        GATEWAY_API_KEY_HASHES: hashApiKey(API_KEY),
        LOG_LEVEL: 'warn',
      }),
      port,
    );

  beforeAll(async () => {
    installSupergraphExample();
    up = await startFaultUpstream();
    port = await freePort();
    lookup = await startLookup();
    supergraph = await startSupergraph(`${lookup.url}/graphql`, { 'x-api-key': API_KEY }, router);
  }, 600_000);
  afterAll(async () => {
    await supergraph?.close();
    await lookup?.close();
    await up?.close();
  });
  beforeEach(async () => {
    // Each test starts with an empty cache (a new Lookup Graph at the router's address) and call log.
    await lookup.close();
    lookup = await startLookup();
    up.calls.length = 0;
    answerLikeSandbox(up);
  });

  it('composes with both @theguild/federation-composition and @apollo/composition', () => {
    expect(supergraph.composition).toMatchObject({ ok: true, composers: { guild: true, apollo: true }, errors: [] });
  });

  const ACCOUNTS = `{
    accounts {
      name
      website
      company { name financialProfile { symbol price } }
      holdings { symbol shares profile { companyName price } }
      lead { handle headline }
    }
  }`;

  it('accounts sharing a company (one pasted as a URL) make one call per distinct company and one call for all their symbols', async () => {
    const res = await supergraph.query(ACCOUNTS, { 'x-api-key': API_KEY });
    expect(res.body.errors).toBeUndefined();
    const accounts = res.body.data.accounts;
    expect(accounts.map((a: any) => [a.website, a.company.name, a.company.financialProfile])).toEqual([
      ['https://www.hubspot.com/', 'Hubspot', { symbol: 'HUBS', price: 742.3 }],
      ['hubspot.com', 'Hubspot', { symbol: 'HUBS', price: 742.3 }],
      ['nike.com', 'Nike', { symbol: 'NKE', price: 76.41 }],
    ]);
    expect(accounts.flatMap((a: any) => a.holdings.map((h: any) => [h.symbol, h.profile.companyName]))).toEqual([
      ['HUBS', 'HubSpot, Inc.'],
      ['aapl', 'Apple Inc.'],
      ['hubs', 'HubSpot, Inc.'],
      ['NKE', 'NIKE, Inc.'],
      ['$msft', 'Microsoft Corporation'],
    ]);
    expect(accounts.map((a: any) => a.lead?.handle ?? null)).toEqual([
      'https://www.professionalnet.example/in/sam-rivera/',
      null,
      'sam-rivera',
    ]);

    // Three accounts, two companies: one call each. Five holdings and two tickers, four symbols: one call.
    expect(asked(up, 'get_company_object', 'domain').sort()).toEqual(['hubspot.com', 'nike.com']);
    const financial = asked(up, 'company_financial_profile', 'company');
    expect(financial).toHaveLength(1);
    expect(financial[0]!.split(', ').sort()).toEqual(['AAPL', 'HUBS', 'MSFT', 'NKE']);
    // A lead pasted as a URL and one written bare are one profile.
    expect(asked(up, 'get_professionalnet_profile', 'profile_handle')).toEqual(['sam-rivera']);
    expect(up.calls).toHaveLength(4);
    console.info(
      `${router}: ${up.calls.length} upstream calls for 3 accounts (${up.calls.map((c) => c.action).join(', ')})`,
    );
  });

  it("a repeat is answered from Lookup Graph's cache: no upstream call", async () => {
    await supergraph.query(ACCOUNTS, { 'x-api-key': API_KEY });
    const calls = up.calls.length;
    const again = await supergraph.query(ACCOUNTS, { 'x-api-key': API_KEY });
    expect(again.body.errors).toBeUndefined();
    expect(up.calls.length).toBe(calls);
  });

  it('a failing lookup nulls only its own entity; the rest of the answer stands', async () => {
    answerLikeSandbox(up, (call) => call.body.domain === 'nike.com');
    const res = await supergraph.query(
      '{ accounts { name company { name ticker } holdings { profile { symbol companyName } } } }',
      { 'x-api-key': API_KEY },
    );
    const accounts = res.body.data.accounts;
    expect(accounts.map((a: any) => a.name)).toEqual(['HubSpot (marketing team)', 'HubSpot (sales team)', 'Nike']);
    expect(accounts[0].company).toEqual({ name: 'Hubspot', ticker: 'HUBS' });
    expect(accounts[1].company).toEqual({ name: 'Hubspot', ticker: 'HUBS' });
    // The failed company carries no data of its own, with the lookup's coded error at its path.
    expect(Object.values(accounts[2].company ?? {}).every((value) => value === null)).toBe(true);
    // A router may repeat the entity's error at each field the client selected of it (Hive Gateway does).
    expect(res.body.errors!.length).toBeGreaterThan(0);
    for (const error of res.body.errors!) {
      expect(error.path.slice(0, 3)).toEqual(['accounts', 2, 'company']);
      expect(error.extensions).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        action: 'get_company_object',
        serviceName: 'lookup',
      });
    }
    expect(accounts[2].holdings.map((h: any) => h.profile.companyName)).toEqual([
      'NIKE, Inc.',
      'Microsoft Corporation',
    ]);
  });

  it("the router must forward the client's API key: without it Lookup Graph's fields fail, the accounts still answer", async () => {
    const res = await supergraph.query('{ accounts { name company { name } } }');
    expect(res.body.data.accounts.map((a: any) => a.name)).toHaveLength(3);
    expect(res.body.data.accounts.every((a: any) => a.company === null || a.company.name === null)).toBe(true);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(up.calls).toHaveLength(0);
  });
});
