import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { inProcessGateway, startGateway, type GraphQLResponse } from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';
import { expectNoLeak, expectRefused, postChunked, repeat, sandboxCalls } from './support.js';

/**
 * Every operation limit over real HTTP against the built-in sandbox: each refusal has its HTTP
 * status and code, and the upstream is not called at all.
 */
describe('operation limits (defaults)', () => {
  const gw = forSuite(() => startGateway());

  async function refused(send: () => Promise<GraphQLResponse>, status: number, code: string): Promise<GraphQLResponse> {
    const before = sandboxCalls(gw);
    const res = await send();
    expectRefused(res, status, code);
    expect(sandboxCalls(gw) - before).toBe(0);
    return res;
  }

  it('still runs an ordinary operation (one upstream call)', async () => {
    const before = sandboxCalls(gw);
    const res = await gw.query('{ domainInfo(domain: "example.com") { domainName } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'example.com' } });
    expect(sandboxCalls(gw) - before).toBe(1);
  });

  it('one field repeated 5,000 times → 400 MAX_TOKENS_EXCEEDED at parse time', async () => {
    const res = await refused(
      () => gw.query(`{ domainInfo(domain: "example.com") { ${repeat(5000, () => 'domainName')} } }`),
      400,
      'MAX_TOKENS_EXCEEDED',
    );
    expect(res.body.errors![0]!.message).toBe('The operation has more than 2000 tokens.');
  });

  it.each([
    [
      '1,000 aliases with the default limits → 400 MAX_TOKENS_EXCEEDED (the cheapest limit trips first)',
      `{ domainInfo(domain: "example.com") { ${repeat(1000, (i) => `a${i}: domainName`)} } }`,
      'MAX_TOKENS_EXCEEDED',
    ],
    [
      '60 directives → 400 MAX_DIRECTIVES_EXCEEDED',
      `{ domainInfo(domain: "example.com") { ${repeat(60, () => 'domainName @include(if: true)')} } }`,
      'MAX_DIRECTIVES_EXCEEDED',
    ],
    [
      '21 root fields → 400 MAX_ROOT_FIELDS_EXCEEDED',
      `{ ${repeat(21, (i) => `d${i}: domainInfo(domain: "d${i}.com") { domainName }`)} }`,
      'MAX_ROOT_FIELDS_EXCEEDED',
    ],
    [
      'an operation deeper than the default 8 (fields checked before they are validated) → 400 MAX_DEPTH_EXCEEDED',
      '{ company(domain: "hubspot.com") { metrics { a { b { c { d { e { f { g } } } } } } } } }',
      'MAX_DEPTH_EXCEEDED',
    ],
  ])('%s', async (_name, query, code) => {
    await refused(() => gw.query(query), 400, code);
  });

  it('one field repeated 500 times (under the token limit) → 400 MAX_REPEATED_FIELDS_EXCEEDED, naming the path', async () => {
    const res = await refused(
      () => gw.query(`{ domainInfo(domain: "example.com") { ${repeat(500, () => 'domainName')} } }`),
      400,
      'MAX_REPEATED_FIELDS_EXCEEDED',
    );
    expect(res.body.errors![0]!.message).toBe(
      'The operation selects "domainInfo.domainName" 500 times; the limit is 20 at one path.',
    );
    expect(res.body.errors![0]!.extensions).toMatchObject({ limit: 20, path: 'domainInfo.domainName' });
  });

  it('a field repeated 20 times (the limit) still runs, with one upstream call', async () => {
    const before = sandboxCalls(gw);
    const res = await gw.query(`{ domainInfo(domain: "repeats.example") { ${repeat(20, () => 'domainName')} } }`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'repeats.example' } });
    expect(sandboxCalls(gw) - before).toBe(1);
  });

  it('repeats that only add up once fragments and parents merge → 400 MAX_REPEATED_FIELDS_EXCEEDED', async () => {
    // Seven fragments of three `name` each: 21 at company.name.
    const fragments = repeat(7, (i) => `fragment N${i} on Company { name name name }`).replace(/ (?=fragment)/g, '\n');
    await refused(
      () => gw.query(`{ company(domain: "hubspot.com") { ${repeat(7, (i) => `...N${i}`)} } }\n${fragments}`),
      400,
      'MAX_REPEATED_FIELDS_EXCEEDED',
    );
    // Five `category`, each with five `sector`: 25 at company.category.sector once merged.
    const res = await refused(
      () =>
        gw.query(
          `{ company(domain: "hubspot.com") { ${repeat(5, () => `category { ${repeat(5, () => 'sector')} }`)} } }`,
        ),
      400,
      'MAX_REPEATED_FIELDS_EXCEEDED',
    );
    expect(res.body.errors![0]!.extensions).toMatchObject({ path: 'company.category.sector' });
  });

  it('circular fragments → 400 MAX_DEPTH_EXCEEDED (unbounded), not a hang', async () => {
    const res = await refused(
      () =>
        gw.query(
          '{ company(domain: "hubspot.com") { ...A } } fragment A on Company { name ...B } fragment B on Company { domain ...A }',
        ),
      400,
      'MAX_DEPTH_EXCEEDED',
    );
    expect(res.body.errors![0]!.message).toMatch(/fragment spreads itself/);
  });

  it('an oversized body with Content-Length → 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify({ query: `{ __typename } # ${'x'.repeat(150_000)}` });
    await refused(() => gw.post(body), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('an oversized chunked body (no Content-Length) → 413 PAYLOAD_TOO_LARGE, counted on the bytes read', async () => {
    const body = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(300_000) } });
    await refused(() => postChunked(gw.url, body, 30), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a small chunked body is read and runs', async () => {
    const res = await postChunked(
      gw.url,
      JSON.stringify({ query: '{ domainInfo(domain: "example.com") { domainName } }' }),
      4,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'example.com' } });
  });

  it('a 1 MB string variable → 413 PAYLOAD_TOO_LARGE', async () => {
    await refused(
      () => gw.query('query ($d: String!) { domainInfo(domain: $d) { domainName } }', { d: 'x'.repeat(1024 * 1024) }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('malformed JSON → 400 BAD_REQUEST', async () => {
    await refused(
      () => gw.post('{"query": "{ domainInfo(domain: \\"example.com\\") { domainName } }"'),
      400,
      'BAD_REQUEST',
    );
  });

  it('two operations and no operationName → 400 OPERATION_RESOLUTION_FAILURE', async () => {
    await refused(
      () =>
        gw.query(
          'query A { domainInfo(domain: "example.com") { domainName } } query B { crmOwners(portal: "42") { id: ownerId } }',
        ),
      400,
      'OPERATION_RESOLUTION_FAILURE',
    );
  });

  it('a JSON array of 1,000 operations → 400 BATCHING_DISABLED', async () => {
    const batch = Array.from({ length: 1000 }, () => ({
      query: '{ domainInfo(domain: "example.com") { domainName } }',
    }));
    await refused(() => gw.post(JSON.stringify(batch)), 400, 'BATCHING_DISABLED');
  });

  it('a limit refusal keeps its 400 for a client that accepts only application/json', async () => {
    const res = await gw.post(JSON.stringify({ query: `{ ${repeat(21, (i) => `t${i}: __typename`)} }` }), {
      accept: 'application/json',
    });
    expectRefused(res, 400, 'MAX_ROOT_FIELDS_EXCEEDED');
  });

  it("GraphiQL's full introspection query still runs in development", async () => {
    const res = await gw.query(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
        oneOf: true,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data!.__schema.queryType.name).toBe('Query');
  });

  it('an introspection fan-out deeper than the introspection query → 400 MAX_DEPTH_EXCEEDED', async () => {
    const fanOut =
      '__schema { types { fields { type { fields { type { fields { type { fields { type { fields { type { fields { type { fields { name } } } } } } } } } } } } } } }';
    await refused(() => gw.query(`{ ${fanOut} }`), 400, 'MAX_DEPTH_EXCEEDED');
  });
});

describe('operation limits, each one alone (the others raised)', () => {
  const gw = forSuite(() =>
    inProcessGateway(
      { MAX_ROOT_FIELDS: '100000', MAX_DEPTH: '3', MAX_REQUEST_BYTES: '4000000' },
      { security: { limits: { maxTokens: 1_000_000 } } },
    ),
  );

  async function refused(query: string, code: string) {
    const before = sandboxCalls(gw);
    const res = await gw.query(query);
    expectRefused(res, 400, code);
    expect(sandboxCalls(gw) - before).toBe(0);
    return res;
  }

  it('1,000 aliases → 400 MAX_ALIASES_EXCEEDED', async () => {
    await refused(
      `{ domainInfo(domain: "example.com") { ${repeat(1000, (i) => `a${i}: domainName`)} } }`,
      'MAX_ALIASES_EXCEEDED',
    );
  });

  it('a 200-fragment chain, each spreading the next twice (2^200 aliases once expanded) → 400 MAX_ALIASES_EXCEEDED, fast', async () => {
    const fragments = Array.from(
      { length: 200 },
      (_, i) => `fragment F${i} on Query { t${i}: __typename ${i < 199 ? `...F${i + 1} ...F${i + 1}` : ''} }`,
    ).join('\n');
    // Expanded, the chain would never finish: answering at all (in a generous 10 s) shows each fragment was measured once.
    const started = performance.now();
    const res = await refused(`{ ...F0 }\n${fragments}`, 'MAX_ALIASES_EXCEEDED');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(res.body.errors!.map((e) => e.extensions!.code)).toContain('MAX_ROOT_FIELDS_EXCEEDED');
  });

  it('1,000 __typename aliases → 400 MAX_ALIASES_EXCEEDED (they count like any alias)', async () => {
    await refused(`{ ${repeat(1000, (i) => `t${i}: __typename`)} }`, 'MAX_ALIASES_EXCEEDED');
  });

  it('8 aliases in a fragment spread five times (40 once expanded, 13 as written) → 400 MAX_ALIASES_EXCEEDED', async () => {
    const spreads = repeat(5, (i) => `c${i}: company(domain: "hubspot.com") { ...Names }`);
    const res = await refused(
      `{ ${spreads} } fragment Names on Company { ${repeat(8, (i) => `n${i}: name`)} }`,
      'MAX_ALIASES_EXCEEDED',
    );
    expect(res.body.errors![0]!.message).toBe('The operation uses 45 aliases; the limit is 30.');
  });

  it.each([
    [
      'depth 4 over a limit of 3, directly',
      '{ company(domain: "hubspot.com") { metrics { employeeCountRange { min } } } }',
    ],
    [
      'depth 4 through a chain of fragments (fragments add no depth, and hide none)',
      '{ ...Q } fragment Q on Query { company(domain: "hubspot.com") { ...C } } fragment C on Company { metrics { ...M } } fragment M on CompanyMetrics { employeeCountRange { ...R } } fragment R on CompanyEmployeeCountRange { min }',
    ],
    [
      'depth 4 inside a fragment named __schema',
      '{ ...__schema } fragment __schema on Query { company(domain: "hubspot.com") { metrics { employeeCountRange { min } } } }',
    ],
    [
      'depth 4 under an alias named __schema',
      '{ __schema: company(domain: "hubspot.com") { metrics { employeeCountRange { min } } } }',
    ],
  ])('%s → 400 MAX_DEPTH_EXCEEDED', async (_name, query) => {
    await refused(query, 'MAX_DEPTH_EXCEEDED');
  });

  it('depth 3 is allowed and runs', async () => {
    const res = await gw.query('{ company(domain: "hubspot.com") { metrics { employees } } }');
    expect(res.status).toBe(200);
    expectNoLeak(res.text);
  });
});

describe('batching when enabled (MAX_BATCH_OPERATIONS=3)', () => {
  const gw = forSuite(() => inProcessGateway({ MAX_BATCH_OPERATIONS: '3' }));

  it('runs a batch of 2', async () => {
    const res = await gw.post(JSON.stringify([{ query: '{ a: __typename }' }, { query: '{ b: __typename }' }]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject([{ data: { a: 'Query' } }, { data: { b: 'Query' } }]);
  });

  it('refuses a batch of 4 → 400 BATCH_LIMIT_EXCEEDED', async () => {
    const before = sandboxCalls(gw);
    const res = await gw.post(
      JSON.stringify(
        Array.from({ length: 4 }, () => ({ query: '{ domainInfo(domain: "example.com") { domainName } }' })),
      ),
    );
    expectRefused(res, 400, 'BATCH_LIMIT_EXCEEDED');
    expect(sandboxCalls(gw) - before).toBe(0);
  });
});
