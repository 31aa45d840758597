/**
 * Real client caches over real HTTP against the sandbox gateway, with no type policies and no keys
 * configuration: Apollo Client's InMemoryCache and urql's Graphcache normalise by __typename + id.
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { urqlKeys } from '../../src/graph/client-config.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

const warnings: unknown[][] = [];
beforeAll(() => {
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args));
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void warnings.push(args));
});
afterEach(() => {
  expect(warnings).toEqual([]);
});

const COMPANIES = `query Companies {
  a: company(domain: "hubspot.com") { id name companyId financialProfile { id symbol price } domainInfo { id domainName } }
  b: company(domain: "stripe.com") { id name companyId domainInfo { id domainName } }
}`;
// Overlaps the first: hubspot.com again (by a link this time) with other fields, plus a profile.
const OVERLAP = `query Overlap {
  financialProfiles(symbols: ["HUBS"]) { id symbol company { id name legalName domain } }
  photosocialProfile(username: "natgeo") { id username accountId }
  other: photosocialProfile(username: "nasa") { id username accountId }
  videositeSearch(query: "engineering") { id videos { id videoId title } }
  news(query: "gateways") { id organicResults { id title } }
}`;

describe('Apollo Client InMemoryCache, no type policies', () => {
  it('keeps distinct objects distinct, merges equal ones, and warns about nothing', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${gw.url}/graphql`, fetch }),
      cache: new InMemoryCache(),
    });
    const first = await client.query<any>({ query: gql(COMPANIES) });
    expect(first.data!.a.name).toBe('Hubspot');
    expect(first.data!.b.name).toBe('Stripe');
    const second = await client.query<any>({ query: gql(OVERLAP) });
    expect(second.data!.photosocialProfile.username).toBe('natgeo');
    expect(second.data!.other.username).toBe('nasa');

    // Read back from the cache only: still two companies, and hubspot.com merged from both paths.
    const again = client.readQuery<any>({ query: gql(COMPANIES) })!;
    expect(again.a.name).toBe('Hubspot');
    expect(again.b.name).toBe('Stripe');
    const extract = client.cache.extract() as Record<string, any>;
    const companies = Object.keys(extract).filter((key) => key.startsWith('Company:'));
    expect(companies).toHaveLength(2);
    const hubspot = extract[`Company:${first.data!.a.id}`];
    expect(hubspot.name).toBe('Hubspot');
    expect(hubspot.legalName).toBe('HubSpot, Inc.'); // from the second operation's link
    expect(hubspot.companyId).toBe(first.data!.a.companyId); // from the first
    expect(Object.keys(extract).filter((key) => key.startsWith('PhotosocialProfile:'))).toHaveLength(2);
    expect(Object.keys(extract).filter((key) => key.startsWith('DomainRecord:'))).toHaveLength(2);
    expect(Object.keys(extract).filter((key) => key.startsWith('FinancialProfile:'))).toHaveLength(1);
    expect(Object.keys(extract).filter((key) => key.startsWith('VideositeSearchVideo:')).length).toBeGreaterThan(1);
  });
});

describe('urql Graphcache, with the shipped keys config (embedded value types)', () => {
  it('keeps distinct objects distinct and merges equal ones, without warnings', async () => {
    const client = new Client({
      url: `${gw.url}/graphql`,
      exchanges: [cacheExchange({ keys: urqlKeys() }), fetchExchange],
      fetch,
      preferGetMethod: false,
      requestPolicy: 'cache-first',
    });
    const first = await client.query(COMPANIES, {}).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data.a.name).toBe('Hubspot');
    expect(first.data.b.name).toBe('Stripe');
    const second = await client.query(OVERLAP, {}).toPromise();
    expect(second.error).toBeUndefined();
    expect(second.data.financialProfiles[0].company.id).toBe(first.data.a.id);
    const cached = await client.query(COMPANIES, {}, { requestPolicy: 'cache-only' }).toPromise();
    expect(cached.data.a.name).toBe('Hubspot');
    expect(cached.data.b.name).toBe('Stripe');
    expect(cached.data.a.domainInfo.domainName).not.toBe(cached.data.b.domainInfo.domainName);
  });
});
