import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from './support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());
const totalCalls = () => [...gw.gateway.sandbox!.calls.values()].reduce((a, b) => a + b, 0);

describe('variables are checked before anything executes', () => {
  it.each([
    [
      'an invalid enum value',
      'query ($r: NewsDateRange!) { news(query: "a", dateRange: $r) { query } }',
      { r: 'YESTERDAY' },
      /got invalid value "YESTERDAY"/,
    ],
    [
      'a missing required variable',
      'query ($d: String!) { domainInfo(domain: $d) { domainName } }',
      {},
      /"\$d" of required type "String!" was not provided/,
    ],
    [
      'a wrong type',
      'query ($n: Int!) { microblogPosts(query: "x", first: $n) { uri } }',
      { n: 'ten' },
      /Int cannot represent non-integer value/,
    ],
    [
      'a null for a non-null list item',
      'query ($s: [String!]!) { financialProfiles(symbols: $s) { symbol } }',
      { s: ['AAPL', null] },
      /got invalid value null at "s\[1\]"/,
    ],
  ])('%s → HTTP 400, BAD_USER_INPUT, zero upstream calls', async (_name, query, variables, message) => {
    const before = totalCalls();
    const { status, body } = await gw.query(query, variables);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors![0]!.message).toMatch(message);
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(totalCalls()).toBe(before);
  });

  it('valid variables run as usual', async () => {
    const { status, body } = await gw.query('query ($s: [String!]!) { financialProfiles(symbols: $s) { symbol } }', {
      s: ['aapl'],
    });
    expect(status).toBe(200);
    expect(body.data).toEqual({ financialProfiles: [{ symbol: 'AAPL' }] });
  });
});
