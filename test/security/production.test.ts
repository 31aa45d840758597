import { GraphQLError } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { maskError } from '../../src/kernel/graphql-errors.js';
import { FAULT_TOKEN, json, startFaultUpstream, upstreamEnv } from '../support/fault-upstream.js';
import { startGateway, type GraphQLResponse } from '../support/gateway.js';
import { forSuite, upstreamGatewayFor } from '../support/fixtures.js';
import { expectNoLeak, expectRefused } from './support.js';

const OWNERS = [{ id: '7', email: 'a@b.example', firstName: 'A', lastName: 'B', teams: [] }];

describe('production mode (NODE_ENV=production)', () => {
  const { up, gw } = upstreamGatewayFor({ NODE_ENV: 'production', GATEWAY_AUTH: 'none' });
  beforeAll(() => up.handle((_call, _req, res) => json(res, 200, { status: 200, response: OWNERS })));

  async function refused(send: () => Promise<GraphQLResponse>, status: number, code: string) {
    const before = up.calls.length;
    const res = await send();
    expectRefused(res, status, code);
    expect(up.calls.length - before).toBe(0);
    return res;
  }

  it('runs ordinary operations against the configured upstream', async () => {
    const res = await gw.query('{ crmOwners(portal: "42") { id: ownerId } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ crmOwners: [{ id: '7' }] });
    expect(up.calls.at(-1)!.authorization).toBe(`Bearer ${FAULT_TOKEN}`);
    expectNoLeak(res.text);
  });

  it('introspection → 400 INTROSPECTION_DISABLED, one error for the whole query', async () => {
    const res = await refused(
      () => gw.query('{ __schema { types { name fields { name } } } __type(name: "Query") { name } }'),
      400,
      'INTROSPECTION_DISABLED',
    );
    expect(res.body.errors).toEqual([
      {
        message: 'Introspection is disabled on this gateway ("__schema").',
        extensions: { code: 'INTROSPECTION_DISABLED' },
      },
    ]);
  });

  it('a malformed JSON body → 400 BAD_REQUEST with the code and message only (no originalError)', async () => {
    const res = await refused(() => gw.post('{"query": "{ __typename }"'), 400, 'BAD_REQUEST');
    expect(res.body.errors).toEqual([{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }]);
    expect(res.text).not.toMatch(/SyntaxError|originalError/);
  });

  it('introspection hidden in a fragment → 400 INTROSPECTION_DISABLED', async () => {
    const hidden = '{ ...F } fragment F on Query { __type(name: "Query") { fields { name } } }';
    await refused(() => gw.query(hidden), 400, 'INTROSPECTION_DISABLED');
  });

  it('__typename is not introspection and still answers', async () => {
    const res = await gw.query('{ __typename }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ __typename: 'Query' });
  });

  it('GraphiQL is not served (no page, a coded refusal)', async () => {
    // A browser asking for the page: no HTML and nothing of GraphiQL, but the refusal the log records, readable as JSON.
    const page = await gw.fetch(`/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await page.text();
    expect(text).not.toMatch(/graphiql/i);
    expect(JSON.parse(text).errors).toEqual([
      expect.objectContaining({ extensions: { code: 'CSRF_HEADER_REQUIRED' } }),
    ]);
    // The same GET accepting anything is a GraphQL request, and a GET needs the CSRF header.
    const res = await gw.fetch(`/graphql`, { headers: { accept: 'text/html, */*' } });
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].extensions.code).toBe('CSRF_HEADER_REQUIRED');
  });

  it('a misspelled field → 400 GRAPHQL_VALIDATION_FAILED without "Did you mean"', async () => {
    const res = await refused(() => gw.query('{ crmOwner(portal: "42") { id } }'), 400, 'GRAPHQL_VALIDATION_FAILED');
    expect(res.body.errors![0]!.message).toBe('Cannot query field "crmOwner" on type "Query".');
  });

  it('a misspelled argument and a misspelled enum value in a variable: no suggestion either', async () => {
    const arg = await refused(() => gw.query('{ crmOwners(portl: "42") { id } }'), 400, 'GRAPHQL_VALIDATION_FAILED');
    expect(arg.text).toContain('Unknown argument \\"portl\\"');
    const variable = await gw.query('query ($r: NewsDateRange!) { news(query: "x", dateRange: $r) { __typename } }', {
      r: 'PAST_DAYS',
    });
    expect(variable.status).toBe(400);
    expect(variable.body.data ?? undefined).toBeUndefined();
    expect(variable.body.errors![0]!.message).toMatch(/does not exist in "NewsDateRange" enum\.$/);
    expectNoLeak(variable.text);
  });
});

describe('production switches', () => {
  const up = forSuite(startFaultUpstream);

  it('ENABLE_INTROSPECTION=true turns introspection and GraphiQL back on', async () => {
    const gw = await startGateway(
      upstreamEnv(up, { NODE_ENV: 'production', GATEWAY_AUTH: 'none', ENABLE_INTROSPECTION: 'true' }),
    );
    try {
      const res = await gw.query('{ __schema { queryType { name } } }');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
      const page = await gw.fetch(`/graphql`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/graphiql/i);
    } finally {
      await gw.close();
    }
  });

  it('the built-in sandbox is refused: no ACTION_BASE_URL in production stops start-up', async () => {
    await expect(startGateway({ NODE_ENV: 'production', GATEWAY_AUTH: 'none' })).rejects.toThrow(ConfigError);
    await expect(startGateway({ NODE_ENV: 'production', GATEWAY_AUTH: 'none' })).rejects.toThrow(
      /ACTION_BASE_URL is required when NODE_ENV=production/,
    );
  });
});

describe('unexpected errors are masked (maskError, as Yoga calls it)', () => {
  const secret = `db password hunter2 and ${FAULT_TOKEN}`;

  it('a plain Error thrown by a resolver → "Unexpected error." with no message, stack or secret', () => {
    const thrown = new Error(secret);
    const located = new GraphQLError(thrown.message, { path: ['crmOwners'], originalError: thrown });
    const masked = maskError(located, 'Unexpected error.');
    const wire = JSON.stringify({ errors: [masked] });
    expect(masked.message).toBe('Unexpected error.');
    expect((masked as GraphQLError).extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect((masked as GraphQLError).path).toEqual(['crmOwners']);
    expect(wire).not.toContain('hunter2');
    expect(wire).not.toContain(FAULT_TOKEN);
    expect(wire).not.toMatch(/stack|at .*\.ts:\d+/);
  });

  it('a non-Error thrown value is masked too', () => {
    const masked = maskError({ toString: () => secret }, 'Unexpected error.');
    expect(masked.message).toBe('Unexpected error.');
    expect(JSON.stringify({ errors: [masked] })).not.toContain('hunter2');
  });
});
