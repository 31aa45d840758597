/**
 * One item per element sent, at its index, on both executors: `financialProfiles(symbols:)` and
 * `nodes(ids:)` over random mixes of known, unknown, repeated and differently spelled symbols
 * (property-based), and under many overlapping operations sharing symbols with the cache on (memory,
 * and Redis shared by two replicas). Which symbols the sandbox knows is read from its behaviour: an
 * oracle gateway asks each symbol alone, so these tests hold whatever the sample data holds.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { nodeId } from '../../src/identity/global-id.js';
import { it } from '../support/fixtures.js';
import { startGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { incrementalQuery, merged } from '../support/incremental.js';
import { requireRedisInCi } from '../support/redis.js';

const ACTION = 'company_financial_profile';

/** Candidates in canonical form: the examples, share classes, an index. Whether each is known is the oracle's to say. */
const CANDIDATES = [
  'AAPL',
  'KO',
  'NKE',
  'MSFT',
  'HUBS',
  'BRK-B',
  '^GSPC',
  'QQ1',
  'ZZZZNOTREAL',
  'ZZNOPE',
  'SXBX',
  'SBAX',
];

/** One element of a list argument: the symbol as the client wrote it, and its canonical form. */
interface Asked {
  base: string;
  spelled: string;
}

/** What the sandbox answers for a symbol asked alone: its profile, or null (NOT_FOUND). */
type Oracle = Map<string, { symbol: string; price: number } | null>;

/** A client's spelling of a canonical symbol: any case, a "$" cashtag, padding, a share class with ".", "/", " " or "-". */
function spelling(base: string): fc.Arbitrary<Asked> {
  const share = /^([A-Z]{1,5})-([A-CK])$/.exec(base);
  return fc
    .tuple(
      fc.array(fc.boolean(), { minLength: base.length, maxLength: base.length }),
      fc.boolean(),
      fc.constantFrom('-', '.', '/', ' '),
      fc.constantFrom('', ' '),
    )
    .map(([lower, cashtag, separator, pad]) => {
      const written = share ? `${share[1]}${separator}${share[2]}` : base;
      const cased = [...written].map((char, index) => (lower[index] ? char.toLowerCase() : char)).join('');
      return { base, spelled: `${pad}${cashtag ? '$' : ''}${cased}${pad}` };
    });
}

/** Symbols nobody asked before: each run has lookups the cache has never seen. */
const unseen = fc
  .tuple(fc.constantFrom('ZQ', 'QX', 'XZQ'), fc.integer({ min: 0, max: 99_999 }))
  .map(([prefix, n]) => `${prefix}${n}`);

const asked = fc
  .oneof({ weight: 3, arbitrary: fc.constantFrom(...CANDIDATES) }, { weight: 1, arbitrary: unseen })
  .chain(spelling);

/** Lists that repeat: a few distinct symbols, each written several ways. */
const list = fc.array(asked, { minLength: 1, maxLength: 12 });

const PLAIN = `query Lists($symbols: [String!]!, $ids: [ID!]!) {
  financialProfiles(symbols: $symbols) { symbol price }
  nodes(ids: $ids) { ... on FinancialProfile { symbol price } }
}`;
/** The same operation with @defer fragments: it runs on Yoga's executor instead of graphql-jit. */
const DEFERRED = `query Lists($symbols: [String!]!, $ids: [ID!]!) {
  financialProfiles(symbols: $symbols) { symbol ... @defer { price } }
  nodes(ids: $ids) { ... on FinancialProfile { symbol ... @defer { price } } }
}`;

const idOf = (base: string) => nodeId('FinancialProfile', { action: ACTION, key: base });

function variables(items: Asked[]) {
  return { symbols: items.map((item) => item.spelled), ids: items.map((item) => idOf(item.base)) };
}

/** Asks every symbol the oracle does not know yet, each alone in its own list, on a gateway without a cache. */
async function consult(oracle: Oracle, oracleGateway: TestGateway, bases: Iterable<string>): Promise<void> {
  const missing = [...new Set(bases)].filter((base) => !oracle.has(base));
  // Ten root fields an operation, well inside the gateway's limits.
  for (let start = 0; start < missing.length; start += 10)
    await consultSome(oracle, oracleGateway, missing.slice(start, start + 10));
}

async function consultSome(oracle: Oracle, oracleGateway: TestGateway, missing: string[]): Promise<void> {
  const fields = missing.map(
    (base, index) => `s${index}: financialProfiles(symbols: ${JSON.stringify([base])}) { symbol price }`,
  );
  const { body } = await oracleGateway.query(`{ ${fields.join('\n')} }`);
  expect(body.data, JSON.stringify(body.errors)).toBeTruthy();
  for (const [index, base] of missing.entries()) {
    const answer = body.data![`s${index}`] as Array<{ symbol: string; price: number } | null>;
    expect(answer, base).toHaveLength(1);
    if (answer[0] === null) {
      const error = body.errors?.find((e) => e.path?.[0] === `s${index}`);
      expect(error?.extensions, `the oracle's answer for ${base}`).toMatchObject({ code: 'NOT_FOUND', symbol: base });
    }
    oracle.set(base, answer[0]!);
  }
}

type Errors = NonNullable<GraphQLResponse['body']['errors']>;

/**
 * Every list has one item per element sent, at its index: the oracle's profile for a known symbol,
 * null for an unknown one with exactly one NOT_FOUND naming it at its own path; no other error.
 */
function expectOneItemPerElement(
  field: string,
  items: Asked[],
  answered: unknown,
  errors: Errors,
  oracle: Oracle,
  context: string,
): void {
  expect(Array.isArray(answered), `${context}: ${field} is a list`).toBe(true);
  const got = answered as unknown[];
  expect(got.length, `${context}: ${field} answers one item per element`).toBe(items.length);
  for (const [index, item] of items.entries()) {
    const expected = oracle.get(item.base)!;
    const at = errors.filter((error) => error.path?.[0] === field && error.path[1] === index);
    if (expected) {
      expect(got[index], `${context}: ${field}[${index}] (${item.spelled}) ${JSON.stringify(at)}`).toEqual(expected);
      expect(at, `${context}: no error at ${field}[${index}]`).toEqual([]);
    } else {
      expect(got[index], `${context}: ${field}[${index}] (${item.spelled})`).toBeNull();
      expect(at.length, `${context}: one error at ${field}[${index}]`).toBe(1);
      expect(at[0]!.path, context).toEqual([field, index]); // the item's own path, nothing below it
      expect(at[0]!.extensions, context).toMatchObject({ code: 'NOT_FOUND', action: ACTION, symbol: item.base });
    }
  }
}

function expectAnswer(
  fields: Record<string, Asked[]>,
  data: Record<string, unknown> | null | undefined,
  errors: Errors,
  oracle: Oracle,
  context: string,
) {
  expect(data, `${context}: ${JSON.stringify(errors)}`).toBeTruthy();
  for (const [field, items] of Object.entries(fields))
    expectOneItemPerElement(field, items, data![field], errors, oracle, context);
  const unknown = Object.values(fields).reduce(
    (sum, items) => sum + items.filter((item) => oracle.get(item.base) === null).length,
    0,
  );
  expect(errors.length, `${context}: one error per unknown item, no other: ${JSON.stringify(errors)}`).toBe(unknown);
}

/** A request to the gateway in-process (yoga.fetch), no socket. */
async function inProcess(
  gw: TestGateway,
  query: string,
  vars: Record<string, unknown>,
): Promise<GraphQLResponse['body']> {
  const res = await gw.gateway.yoga.fetch('http://gateway/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables: vars }),
  });
  return (await res.json()) as GraphQLResponse['body'];
}

/** The same request with @defer, in-process, its payloads merged as a client shows them. */
async function deferredInProcess(gw: TestGateway, query: string, vars: Record<string, unknown>) {
  const { status, payloads } = await incrementalQuery('http://gateway', query, {
    variables: vars,
    fetch: (url, init) => gw.gateway.yoga.fetch(url, init),
  });
  expect(status, JSON.stringify(payloads[0]?.body)).toBe(200);
  return merged(payloads);
}

const oracle: Oracle = new Map();
let oracleGateway: TestGateway;
beforeAll(async () => {
  oracleGateway = await startGateway({ CACHE_ENABLED: 'false', CLIENT_RATE_LIMIT_PER_MINUTE: '0' });
  await consult(oracle, oracleGateway, CANDIDATES);
  // Both kinds must be among the candidates, or these tests would check nothing of what they claim.
  expect(
    [...oracle.values()].some((profile) => profile !== null),
    'the sandbox knows some candidate',
  ).toBe(true);
  expect(
    [...oracle.values()].some((profile) => profile === null),
    'the sandbox does not know some candidate',
  ).toBe(true);
});
afterAll(() => oracleGateway?.close());

describe('list arguments answer one item per element, in order (property-based, both executors)', () => {
  it("the issue's lists answer three and four items, in order, on graphql-jit and on Yoga's executor", async ({
    startGateway: start,
  }) => {
    const gw = await start({ CLIENT_RATE_LIMIT_PER_MINUTE: '0' });
    for (const spelled of [
      ['QQ1', 'qq1', 'KO'],
      ['BRK.B', 'brk/b', '$aapl', 'ZZZZNOTREAL'],
    ]) {
      const items = spelled.map((s) => ({
        spelled: s,
        base: s.trim().toUpperCase().replace(/^\$/, '').replace(/[./]/, '-'),
      }));
      const vars = variables(items);
      const fields = { financialProfiles: items, nodes: items };
      const plain = await inProcess(gw, PLAIN, vars);
      expectAnswer(fields, plain.data, plain.errors ?? [], oracle, `jit ${spelled.join(',')}`);
      const deferred = await deferredInProcess(gw, DEFERRED, vars);
      expectAnswer(fields, deferred.data, deferred.errors, oracle, `defer ${spelled.join(',')}`);
    }
  });

  it('random mixes of known, unknown, repeated and differently spelled symbols, memory cache on', async ({
    startGateway: start,
  }) => {
    const gw = await start({ CLIENT_RATE_LIMIT_PER_MINUTE: '0' });
    await fc.assert(
      fc.asyncProperty(list, async (items) => {
        await consult(
          oracle,
          oracleGateway,
          items.map((item) => item.base),
        );
        const vars = variables(items);
        const fields = { financialProfiles: items, nodes: items };
        const context = JSON.stringify(vars.symbols);
        const plain = await inProcess(gw, PLAIN, vars);
        expectAnswer(fields, plain.data, plain.errors ?? [], oracle, `jit ${context}`);
        const deferred = await deferredInProcess(gw, DEFERRED, vars);
        expectAnswer(fields, deferred.data, deferred.errors, oracle, `defer ${context}`);
      }),
      { numRuns: 80 },
    );
  });
});

/** An operation of the load: one to three aliased lists, some read @fresh (straight upstream, refreshing the cache). */
const operation = fc.array(fc.record({ items: fc.array(asked, { minLength: 1, maxLength: 6 }), fresh: fc.boolean() }), {
  minLength: 1,
  maxLength: 3,
});

function documentOf(lists: Array<{ items: Asked[]; fresh: boolean }>): string {
  const fields = lists.map(
    ({ items, fresh }, index) =>
      `l${index}: financialProfiles(symbols: ${JSON.stringify(items.map((item) => item.spelled))})${fresh ? ' @fresh' : ''} { symbol price }`,
  );
  return `{ ${fields.join('\n')} }`;
}

/**
 * Many overlapping operations sharing symbols, spread over `replicas`: waves of concurrent requests,
 * each list checked for length, order and per-index errors. Short TTLs and small batches, so lookups
 * of one operation are served by the cache, by another request's call, or upstream, and settle in
 * every order.
 */
async function overlappingLoad(replicas: TestGateway[], seed: number): Promise<number> {
  const waves = fc.sample(fc.array(operation, { minLength: 30, maxLength: 30 }), { numRuns: 4, seed });
  let checked = 0;
  for (const [wave, operations] of waves.entries()) {
    // The lists in every wave, beside the random ones.
    operations.push(
      [{ items: ['SXBX', 'ZZNOPE'].map((base) => ({ base, spelled: base })), fresh: false }],
      [{ items: ['QQ1', 'qq1', 'KO'].map((spelled) => ({ base: spelled.toUpperCase(), spelled })), fresh: false }],
    );
    await consult(
      oracle,
      oracleGateway,
      operations.flatMap((lists) => lists.flatMap((l) => l.items.map((item) => item.base))),
    );
    await Promise.all(
      operations.map(async (lists, index) => {
        const body = await inProcess(replicas[index % replicas.length]!, documentOf(lists), {});
        const fields = Object.fromEntries(lists.map((l, i) => [`l${i}`, l.items]));
        expectAnswer(
          fields,
          body.data,
          body.errors ?? [],
          oracle,
          `wave ${wave}, operation ${index}: ${documentOf(lists)}`,
        );
        checked += lists.length;
      }),
    );
  }
  return checked;
}

const LOAD_SETTINGS = {
  // Every request here comes from one client: its share of upstream calls is not what this load measures.
  CLIENT_RATE_LIMIT_PER_MINUTE: '0',
  CACHE_TTL_SECONDS: `${ACTION}=1,not_found=1`,
  SANDBOX_LATENCY: 'financial:15',
};
/**
 * Room for the whole load in the queue, and small financial batches so that symbols split across calls.
 * Nor is shedding what this load measures: on a busy machine (another test file beside this one) a queued
 * lookup's estimated start passed the default 1 s and it was refused RATE_LIMITED instead of answered.
 */
const LOAD_TUNING = {
  resilience: { maxPerClient: 10_000, maxQueued: 10_000, queueTimeoutMs: 10_000 },
  financialBatchSize: 2,
};

describe('list arguments under overlapping operations with the cache on', () => {
  it('memory cache: every list of every response has its length and order', async ({ startGateway: start }) => {
    const gw = await start(LOAD_SETTINGS, LOAD_TUNING);
    expect(await overlappingLoad([gw], 29)).toBeGreaterThan(100);
  });
});

describe.skipIf(!(await requireRedisInCi()))('list arguments under overlapping operations over Redis', () => {
  it('two replicas sharing Redis: every list of every response has its length and order', async ({
    startGateway: start,
    redis,
  }) => {
    const env = { ...LOAD_SETTINGS, ...redis.env, CACHE_ENABLED: 'true' };
    const replicas = [await start(env, LOAD_TUNING), await start(env, LOAD_TUNING)];
    expect(await overlappingLoad(replicas, 2029)).toBeGreaterThan(100);
  });
});
