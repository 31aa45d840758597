/**
 * Automatic persisted queries over real HTTP: the protocol itself, Apollo Client's PersistedQueryLink
 * and urql's persistedExchange against a real gateway, the bound of the store (memory and Redis), and
 * registration refused where only trusted documents run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client, fetchExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { Redis } from 'ioredis';
import { print, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { CSRF_HEADER } from '../../src/security/csrf.js';
import { ENTRY_OVERHEAD_BYTES, entryCost, MemoryPersistedQueries } from '../../src/security/persisted-query-store.js';
import { configProblems } from '../support/config.js';
import {
  inProcessGateway,
  startGateway,
  type GraphQLResponse,
  type RunningGateway,
  type Tuning,
} from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';
import { expectRefused, sandboxCalls } from './support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const MEDIA_TYPES = ['application/json', 'application/graphql-response+json'] as const;
const DOMAIN_QUERY = 'query Domain { domainInfo(domain: "example.com") { domainName } }';
const hashOnly = (query: string) =>
  JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
const withQuery = (query: string, hash = sha256(query)) =>
  JSON.stringify({ query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
/** A query text of its own: the same operation with a comment that changes its hash. */
const distinct = (tag: string, pad = 0) =>
  `query Domain { domainInfo(domain: "example.com") { domainName } } # ${tag} ${'x'.repeat(pad)}`;

/** Counts the HTTP requests a client library makes, and what each carried. */
function countingFetch() {
  const requests: Array<{ method: string; hasQuery: boolean; status: number }> = [];
  const counted: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { query?: string }) : null;
    const response = await fetch(input, init);
    requests.push({
      method: init?.method ?? 'GET',
      hasQuery: Boolean(body?.query ?? url.searchParams.get('query')),
      status: response.status,
    });
    return response;
  };
  return { fetch: counted, requests };
}

function expectNotFound(res: GraphQLResponse) {
  expect(res.status).toBe(200);
  expect(res.body.errors).toEqual([
    { message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } },
  ]);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('the APQ protocol', () => {
  const gw = forSuite(() => inProcessGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '0' }));

  it('an unknown hash → HTTP 200 PERSISTED_QUERY_NOT_FOUND under both media types, no upstream call', async () => {
    const before = sandboxCalls(gw);
    for (const accept of MEDIA_TYPES) expectNotFound(await gw.post(hashOnly(distinct('never sent')), { accept }));
    expect(sandboxCalls(gw)).toBe(before);
  });

  it('the hash with its query runs and registers it; the hash alone then runs the same query', async () => {
    const query = distinct('registered');
    const first = await gw.post(withQuery(query));
    expect({ status: first.status, data: first.body.data }).toEqual({
      status: 200,
      data: { domainInfo: { domainName: 'example.com' } },
    });
    for (const accept of MEDIA_TYPES) {
      const again = await gw.post(hashOnly(query), { accept });
      expect({ status: again.status, data: again.body.data, errors: again.body.errors }).toEqual({
        status: 200,
        data: { domainInfo: { domainName: 'example.com' } },
        errors: undefined,
      });
    }
  });

  it('the hash alone by GET (with the CSRF header), as Apollo and urql send it when asked to', async () => {
    const query = distinct('by GET');
    await gw.post(withQuery(query));
    const extensions = encodeURIComponent(
      JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(query) } }),
    );
    const res = await gw.fetch(`/graphql?extensions=${extensions}`, {
      headers: { [CSRF_HEADER]: '1', accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ domainInfo: { domainName: 'example.com' } });
  });

  it('a hash that is not the sha256 of the query → 400 PERSISTED_QUERY_HASH_MISMATCH, nothing registered under it', async () => {
    const query = distinct('mismatch');
    const wrong = sha256('something else');
    for (const accept of MEDIA_TYPES)
      expectRefused(await gw.post(withQuery(query, wrong), { accept }), 400, 'PERSISTED_QUERY_HASH_MISMATCH');
    expectNotFound(
      await gw.post(JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: wrong } } })),
    );
  });

  it('a query that does not validate or breaks a limit is refused as usual and never registered', async () => {
    for (const [query, code] of [
      ['{ notAField }', 'GRAPHQL_VALIDATION_FAILED'],
      [
        '{ company(domain: "hubspot.com") { metrics { a { b { c { d { e { f { g } } } } } } } } }',
        'MAX_DEPTH_EXCEEDED',
      ],
      [`{ company(domain: ${'['.repeat(20)}"a"${']'.repeat(20)}) { id } }`, 'MAX_INPUT_DEPTH_EXCEEDED'],
    ] as const) {
      const res = await gw.post(withQuery(query), { accept: 'application/graphql-response+json' });
      expect(res.body.errors?.[0]?.extensions?.code).toBe(code);
      expectNotFound(await gw.post(hashOnly(query)));
    }
  });

  it('another protocol version or a malformed hash → 400 PERSISTED_QUERY_NOT_SUPPORTED', async () => {
    for (const persistedQuery of [
      { version: 2, sha256Hash: sha256(DOMAIN_QUERY) },
      { version: 1, sha256Hash: 'abc' },
      { version: 1, sha256Hash: 42 },
    ]) {
      for (const accept of MEDIA_TYPES)
        expectRefused(
          await gw.post(JSON.stringify({ extensions: { persistedQuery } }), { accept }),
          400,
          'PERSISTED_QUERY_NOT_SUPPORTED',
        );
    }
  });
});

describe('client libraries against a real gateway', () => {
  const gw = forSuite(() => startGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '0' }));

  it("Apollo Client's PersistedQueryLink: a miss, then the text with the hash; a fresh client then sends the hash alone", async () => {
    const query = gql`
      query ApolloDomain {
        domainInfo(domain: "apollo.example") {
          domainName
        }
      }
    `;
    const run = async () => {
      const counter = countingFetch();
      const link = new PersistedQueryLink({ sha256 }).concat(
        new HttpLink({ uri: `${gw.url}/graphql`, fetch: counter.fetch }),
      );
      const client = new ApolloClient({ link, cache: new InMemoryCache() });
      const result = await client.query<{ domainInfo: { domainName: string } }>({ query });
      return { data: result.data, requests: counter.requests };
    };
    const first = await run();
    expect(first.data?.domainInfo.domainName).toBe('apollo.example');
    expect(first.requests).toEqual([
      { method: 'POST', hasQuery: false, status: 200 },
      { method: 'POST', hasQuery: true, status: 200 },
    ]);
    const second = await run();
    expect(second.data?.domainInfo.domainName).toBe('apollo.example');
    expect(second.requests).toEqual([{ method: 'POST', hasQuery: false, status: 200 }]);
  });

  it("urql's persistedExchange (GET within the URL limit, with the CSRF header): a miss, then the text; then the hash alone", async () => {
    const query = 'query UrqlDomain { domainInfo(domain: "urql.example") { domainName } }';
    const run = async () => {
      const counter = countingFetch();
      const client = new Client({
        url: `${gw.url}/graphql`,
        exchanges: [persistedExchange({ generateHash: async (text) => sha256(text) }), fetchExchange],
        fetch: counter.fetch,
        fetchOptions: { headers: { [CSRF_HEADER]: '1' } },
        requestPolicy: 'network-only',
      });
      const result = await client.query(query, {}).toPromise();
      return {
        data: result.data as { domainInfo: { domainName: string } } | undefined,
        error: result.error,
        requests: counter.requests,
      };
    };
    const first = await run();
    expect(first.error).toBeUndefined();
    expect(first.data?.domainInfo.domainName).toBe('urql.example');
    expect(first.requests.map((r) => [r.hasQuery, r.status])).toEqual([
      [false, 200],
      [true, 200],
    ]);
    const second = await run();
    expect(second.data?.domainInfo.domainName).toBe('urql.example');
    expect(second.requests).toEqual([{ method: 'GET', hasQuery: false, status: 200 }]);
  });
});

/** A 1 MiB store (the constant is 4 MiB), so that a few large queries fill it. */
const ONE_MB: Tuning = { security: { persistedQueries: { maxBytes: 1024 * 1024 } } };

describe('the store is bounded, in memory', () => {
  it('registering past the budget forgets the oldest registrations first', async () => {
    const gw = await startGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '0' }, 0, ONE_MB);
    try {
      // Fifteen queries of ~90 KB each: 1.35 MB of text for a 1 MB budget.
      const queries = Array.from({ length: 15 }, (_, i) => distinct(`big ${i}`, 90_000));
      for (const query of queries) expect((await gw.post(withQuery(query))).status).toBe(200);
      expectNotFound(await gw.post(hashOnly(queries[0]!)));
      expect((await gw.post(hashOnly(queries[14]!))).body.data).toEqual({ domainInfo: { domainName: 'example.com' } });
    } finally {
      await gw.close();
    }
  });
});

describe('one client cannot evict the others (a quarter of the store each)', () => {
  it("a client registering past its share pushes out its own oldest queries, not another client's", async () => {
    const [A, B] = ['apq-client-a-key-0123456789', 'apq-client-b-key-0123456789'];
    const gw = await inProcessGateway(
      { CLIENT_RATE_LIMIT_PER_MINUTE: '0', GATEWAY_API_KEY_HASHES: `${hashApiKey(A)},${hashApiKey(B)}` },
      ONE_MB,
    );
    try {
      const others = [distinct('b one'), distinct('b two', 50_000)];
      for (const query of others) expect((await gw.post(withQuery(query), { 'x-api-key': B })).status).toBe(200);
      // Fifteen queries of ~90 KB: far past A's quarter (256 KB), and past the whole 1 MB budget.
      const floods = Array.from({ length: 15 }, (_, i) => distinct(`a big ${i}`, 90_000));
      for (const query of floods) expect((await gw.post(withQuery(query), { 'x-api-key': A })).status).toBe(200);
      for (const query of others)
        expect((await gw.post(hashOnly(query), { 'x-api-key': B })).body.data).toEqual({
          domainInfo: { domainName: 'example.com' },
        });
      expectNotFound(await gw.post(hashOnly(floods[0]!), { 'x-api-key': A }));
      expectNotFound(await gw.post(hashOnly(floods[11]!), { 'x-api-key': A }));
      // A keeps its newest two (2 × ~90 KB within 256 KB).
      for (const query of floods.slice(13))
        expect((await gw.post(hashOnly(query), { 'x-api-key': A })).body.data).toEqual({
          domainInfo: { domainName: 'example.com' },
        });
    } finally {
      await gw.close();
    }
  });

  it('counts what an entry costs: its key and bookkeeping beside its text', () => {
    expect(entryCost('')).toBe(64 + ENTRY_OVERHEAD_BYTES);
    expect(entryCost('é')).toBe(64 + 2 + ENTRY_OVERHEAD_BYTES);
    // 4,000 one-character registrations fill 1 MB, where counting text alone would have kept a million.
    const store = new MemoryPersistedQueries(1024 * 1024, 60_000);
    for (let i = 0; i < 10_000; i += 1) store.set(sha256(String(i)), 'x');
    expect(store.get(sha256('0'))).toBeNull();
    expect(store.get(sha256('9999'))).toBe('x');
    let kept = 0;
    for (let i = 0; i < 10_000; i += 1) if (store.get(sha256(String(i))) !== null) kept += 1;
    expect(kept).toBe(Math.floor((1024 * 1024) / entryCost('x')));
  });
});

describe.skipIf(!(await requireRedisInCi()))('the store in Redis (REDIS_URL), shared by gateway processes', () => {
  const prefix = `lookup-graph:test:apq:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const url = `redis://${REDIS_HOST}:${REDIS_PORT}`;
  const env = {
    REDIS_URL: url,
    REDIS_KEY_PREFIX: prefix,
    CACHE_KEY_SECRET: prefix,
    CLIENT_RATE_LIMIT_PER_MINUTE: '0',
  };
  const redis = new Redis(url, { lazyConnect: true });
  afterAll(async () => {
    const keys = [...(await redis.keys(`${prefix}*`)), ...(await redis.keys(`{${prefix}*`))];
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('a query registered through one gateway runs by its hash alone through another', async () => {
    const [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
    try {
      const query = distinct('shared');
      expectNotFound(await b.post(hashOnly(query)));
      expect((await a.post(withQuery(query))).status).toBe(200);
      const res = await b.post(hashOnly(query));
      expect({ status: res.status, data: res.body.data }).toEqual({
        status: 200,
        data: { domainInfo: { domainName: 'example.com' } },
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('Redis holds at most the store size of entries: the oldest registrations go first', async () => {
    // REDIS_KEY_PREFIX of its own: the persisted queries' keys start with `<prefix>apq:`.
    const boundedPrefix = `${prefix}bounded:apq:`;
    // Eight clients registering two ~90 KB queries each (each within its quarter of the budget): 1.4 MB for 1 MB.
    const keys = Array.from({ length: 8 }, (_, i) => `apq-redis-client-${i}-0123456789`);
    const bounded = {
      ...env,
      REDIS_KEY_PREFIX: `${prefix}bounded:`,
      GATEWAY_API_KEY_HASHES: keys.map(hashApiKey).join(','),
    };
    const gw = await startGateway(bounded, 0, ONE_MB);
    const other = await startGateway(bounded, 0, ONE_MB);
    try {
      const queries = Array.from({ length: 16 }, (_, i) => distinct(`redis big ${i}`, 90_000));
      for (const [i, query] of queries.entries())
        expect((await gw.post(withQuery(query), { 'x-api-key': keys[Math.floor(i / 2)]! })).status).toBe(200);
      // The store's keys share one hash tag, the prefix, so its script is valid on a Redis Cluster too.
      const tagged = `{${boundedPrefix}}`;
      const bytes = Number(await redis.get(`${tagged}bytes`));
      expect(bytes).toBeGreaterThan(900_000);
      expect(bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(await redis.zcard(`${tagged}index`)).toBe((await redis.keys(`${tagged}q:*`)).length);
      // Another process (nothing of it in its memory) finds the newest, not the oldest.
      expectNotFound(await other.post(hashOnly(queries[0]!), { 'x-api-key': keys[0]! }));
      expect((await other.post(hashOnly(queries[15]!), { 'x-api-key': keys[7]! })).body.data).toEqual({
        domainInfo: { domainName: 'example.com' },
      });
    } finally {
      await Promise.all([gw.close(), other.close()]);
    }
  });
});

describe('with trusted documents, no query is registered', () => {
  // Apollo Client hashes the document as graphql-js prints it: the trusted document is that text.
  const trusted = print(parse('query Trusted { __typename }'));
  let gw: RunningGateway;
  const file = join(tmpdir(), `lookup-graph-apq-trusted-${process.pid}.json`);
  beforeAll(async () => {
    writeFileSync(file, JSON.stringify({ [`sha256:${sha256(trusted)}`]: trusted }));
    gw = await startGateway({ TRUSTED_DOCUMENTS_FILE: file, CLIENT_RATE_LIMIT_PER_MINUTE: '0' });
  });
  afterAll(() => {
    rmSync(file, { force: true });
    return gw.close();
  });

  it('a query sent with its hash → 400 PERSISTED_QUERY_REGISTRATION_REFUSED under both media types; the hash stays unknown', async () => {
    const query = distinct('not trusted');
    for (const accept of MEDIA_TYPES)
      expectRefused(await gw.post(withQuery(query), { accept }), 400, 'PERSISTED_QUERY_REGISTRATION_REFUSED');
    expectRefused(await gw.post(hashOnly(query)), 400, 'PERSISTED_QUERY_NOT_FOUND');
  });

  it("Apollo Client's PersistedQueryLink: a trusted document runs by its hash; another is refused with the registration code", async () => {
    const client = new ApolloClient({
      link: new PersistedQueryLink({ sha256 }).concat(new HttpLink({ uri: `${gw.url}/graphql`, fetch })),
      cache: new InMemoryCache(),
    });
    const result = await client.query<{ __typename: string }>({ query: gql(trusted), fetchPolicy: 'network-only' });
    expect(result.data).toEqual({ __typename: 'Query' });
    const refused = await client
      .query({ query: gql('query Other { __typename domainInfo(domain: "x.com") { domainName } }') })
      .catch((error: unknown) => error);
    expect(JSON.stringify(refused)).toContain('PERSISTED_QUERY_REGISTRATION_REFUSED');
  });

  it('APQ_ENABLED=true beside TRUSTED_DOCUMENTS_FILE is a start-up problem', () => {
    expect(configProblems({ TRUSTED_DOCUMENTS_FILE: file, APQ_ENABLED: 'true' })).toEqual([
      'APQ_ENABLED=true cannot be combined with TRUSTED_DOCUMENTS_FILE: only the trusted documents run, so no query may be registered',
    ]);
  });
});
