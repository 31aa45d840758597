import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessGateway, startGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';
import { expectRefused, repeat, sandboxCalls } from './support.js';

/**
 * One status per kind of refusal: every protection answers the same HTTP status and code whether the
 * client accepts `application/json` (where Yoga answers spec errors with 200) or
 * `application/graphql-response+json`, and no refusal reaches the upstream.
 */
const MEDIA_TYPES = ['application/json', 'application/graphql-response+json'] as const;

interface Case {
  name: string;
  status: number;
  code: string;
  body: () => string;
  headers?: Record<string, string>;
}

const query = (text: string, variables?: Record<string, unknown>) => () => JSON.stringify({ query: text, variables });
const deepList = (depth: number) => `${'['.repeat(depth)}"a.com"${']'.repeat(depth)}`;

const OPEN_GATEWAY: Case[] = [
  {
    // 500 aliased root fields: the token limit trips first (the case that answered 200 under application/json).
    name: 'tokens (500 aliases)',
    status: 400,
    code: 'MAX_TOKENS_EXCEEDED',
    body: query(`{ ${repeat(500, (i) => `a${i}: domainInfo(domain: "x.com") { domainName }`)} }`),
  },
  {
    name: 'aliases (40)',
    status: 400,
    code: 'MAX_ALIASES_EXCEEDED',
    body: query(`{ domainInfo(domain: "x.com") { ${repeat(40, (i) => `a${i}: domainName`)} } }`),
  },
  {
    name: 'depth',
    status: 400,
    code: 'MAX_DEPTH_EXCEEDED',
    body: query('{ company(domain: "hubspot.com") { metrics { a { b { c { d { e { f { g } } } } } } } } }'),
  },
  {
    name: 'selection nesting (before parsing)',
    status: 400,
    code: 'MAX_DEPTH_EXCEEDED',
    body: query(`{ ${'... on Query { '.repeat(40)}__typename${' }'.repeat(40)} }`),
  },
  {
    name: 'root fields',
    status: 400,
    code: 'MAX_ROOT_FIELDS_EXCEEDED',
    body: query(`{ ${repeat(21, (i) => `d${i}: domainInfo(domain: "d${i}.com") { domainName }`)} }`),
  },
  {
    name: 'directives',
    status: 400,
    code: 'MAX_DIRECTIVES_EXCEEDED',
    body: query(`{ domainInfo(domain: "x.com") { ${repeat(25, () => 'domainName @include(if: true)')} } }`),
  },
  {
    name: 'input depth in a literal',
    status: 400,
    code: 'MAX_INPUT_DEPTH_EXCEEDED',
    body: query(`{ company(domain: ${deepList(3000)}) { id } }`),
  },
  {
    name: 'input depth in a variable',
    status: 400,
    code: 'MAX_INPUT_DEPTH_EXCEEDED',
    body: () => `{"query":"query Q($d: String!) { company(domain: $d) { id } }","variables":{"d":${deepList(3000)}}}`,
  },
  {
    name: 'cost',
    status: 400,
    code: 'COST_LIMIT_EXCEEDED',
    body: query('query($s: [String!]!) { financialProfiles(symbols: $s) { symbol company { name } } }', {
      s: Array.from({ length: 50 }, (_, i) => `S${i}`),
    }),
  },
  {
    name: 'body size',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    body: () => JSON.stringify({ query: `{ __typename } # ${'x'.repeat(150_000)}` }),
  },
  {
    name: 'batching',
    status: 400,
    code: 'BATCHING_DISABLED',
    body: () => JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
  },
  { name: 'not a query', status: 400, code: 'OPERATION_NOT_SUPPORTED', body: query('mutation { __typename }') },
];

async function expectSameRefusal(gw: TestGateway, refusal: Case) {
  const answers: GraphQLResponse[] = [];
  for (const accept of MEDIA_TYPES) {
    const before = sandboxCalls(gw);
    const res = await gw.post(refusal.body(), { accept, ...refusal.headers });
    expectRefused(res, refusal.status, refusal.code);
    expect(res.headers.get('content-type')).toContain(accept);
    expect(sandboxCalls(gw) - before).toBe(0);
    answers.push(res);
  }
  expect(answers[0]!.body.errors).toEqual(answers[1]!.body.errors);
}

describe('every protection answers one status under both response media types', () => {
  const gw = forSuite(() =>
    inProcessGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '0', COST_BUDGET: '50', ENABLE_INTROSPECTION: 'false' }),
  );

  it.each(OPEN_GATEWAY)('$name → $status $code', (refusal) => expectSameRefusal(gw, refusal));

  it('introspection off → 400 INTROSPECTION_DISABLED', () =>
    expectSameRefusal(gw, {
      name: 'introspection',
      status: 400,
      code: 'INTROSPECTION_DISABLED',
      body: query('{ __schema { queryType { name } } }'),
    }));

  it('a refusal answered from the parse cache keeps its status (the second time the same text is refused)', async () => {
    const tooMany = OPEN_GATEWAY[0]!;
    for (let i = 0; i < 2; i += 1) await expectSameRefusal(gw, tooMany);
  });
});

describe('trusted documents, API keys and the client rate limit answer one status too', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const trusted = '{ __typename }';
  const key = 'statuses-test-key';
  let gw: TestGateway;
  beforeAll(async () => {
    const file = join(tmpdir(), `lookup-graph-statuses-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ [`sha256:${sha256(trusted)}`]: trusted }));
    gw = await startGateway({
      TRUSTED_DOCUMENTS_FILE: file,
      GATEWAY_API_KEY_HASHES: sha256(key),
      CLIENT_RATE_LIMIT_PER_MINUTE: '1000',
    });
    rmSync(file); // read at start-up
  });
  afterAll(() => gw.close());
  const withKey = { 'x-api-key': key };

  it.each<Case>([
    {
      name: 'a query text',
      status: 400,
      code: 'PERSISTED_QUERY_ONLY',
      body: query('{ __typename }'),
      headers: withKey,
    },
    {
      name: 'an unknown id',
      status: 400,
      code: 'PERSISTED_QUERY_NOT_FOUND',
      body: () => JSON.stringify({ documentId: `sha256:${'0'.repeat(64)}` }),
      headers: withKey,
    },
    {
      name: 'no id',
      status: 400,
      code: 'PERSISTED_QUERY_ID_REQUIRED',
      body: () => JSON.stringify({ variables: {} }),
      headers: withKey,
    },
    {
      name: 'no API key',
      status: 401,
      code: 'UNAUTHENTICATED',
      body: () => JSON.stringify({ documentId: `sha256:${sha256(trusted)}` }),
    },
  ])('$name → $status $code', (refusal) => expectSameRefusal(gw, refusal));

  it('the trusted document itself runs', async () => {
    const res = await gw.post(JSON.stringify({ documentId: `sha256:${sha256(trusted)}` }), withKey);
    expect({ status: res.status, data: res.body.data }).toEqual({ status: 200, data: { __typename: 'Query' } });
  });
});

describe('the client rate limit answers one status', () => {
  const gw = forSuite(() => inProcessGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '1' }));

  it('over the limit → 429 RATE_LIMITED with Retry-After, under both media types', async () => {
    await gw.query('{ __typename }');
    for (const accept of MEDIA_TYPES) {
      const res = await gw.post(JSON.stringify({ query: '{ __typename }' }), { accept });
      expectRefused(res, 429, 'RATE_LIMITED');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
