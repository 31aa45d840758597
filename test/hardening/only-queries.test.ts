import { describe, expect, it } from 'vitest';
import { inProcessGateway } from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';

describe('only queries exist', () => {
  const gw = forSuite(() => inProcessGateway({ LOG_LEVEL: 'debug' }));

  it.each([
    ['mutation { x }', 'mutation'],
    ['mutation M($a: String) { setThing(a: $a) { id } }', 'mutation "M"'],
    ['subscription { domainInfo(domain: "a.com") { domainName } }', 'subscription'],
    ['subscription S { x }', 'subscription "S"'],
  ])(
    '%s is HTTP 400 OPERATION_NOT_SUPPORTED before anything runs, with no error log and no stack',
    async (query, what) => {
      const before = gw.logs.length;
      for (const accept of ['application/graphql-response+json', 'application/json']) {
        const res = await gw.post(JSON.stringify({ query }), { accept });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([
          {
            message: expect.stringContaining(`the ${what} cannot run`),
            extensions: { code: 'OPERATION_NOT_SUPPORTED' },
          },
        ]);
        expect(res.body.data).toBeUndefined();
        expect(res.body.extensions?.gateway.upstreamCalls).toBe(0);
        expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+|node_modules|\/src\//);
      }
      const lines = gw.logs.slice(before).map((line) => JSON.parse(line) as { level: number });
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      expect(gw.logs.slice(before).join('\n')).not.toMatch(/stack|node_modules|graphql-jit/);
    },
  );

  it('refuses a document that holds a mutation next to the query it names', async () => {
    const res = await gw.post(JSON.stringify({ query: 'query A { __typename } mutation B { y }', operationName: 'A' }));
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('OPERATION_NOT_SUPPORTED');
  });

  it('still runs queries', async () => {
    const res = await gw.query('{ domainInfo(domain: "example.com") { domainName } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'example.com' } });
  });
});
