import { describe, expect } from 'vitest';
import { test } from '../support/fixtures.js';
import type { RunningGateway } from '../support/gateway.js';

const ENTITIES =
  'query Flood($representations: [_Any!]!) { _entities(representations: $representations) { __typename } }';
// 5,300 representations of a type this subgraph does not have: about 100 KB, inside the default body limit.
const FLOOD = JSON.stringify({
  query: ENTITIES,
  variables: { representations: Array.from({ length: 5300 }, () => ({ __typename: 'X' })) },
});
const CACHED = '{ domainInfo(domain: "example.com") { domainName } }';

// Shedding for a busy event loop (SHED_EVENT_LOOP_DELAY_MS) is off: what is under test is the work one request makes.
const SUBGRAPH = { FEDERATION: 'true', SHED_EVENT_LOOP_DELAY_MS: '0' };
const json = (text: string) => JSON.parse(text) as { msg?: string; request?: Record<string, any> };
const requestLines = (gw: RunningGateway) => gw.logs.map(json).filter((line) => line.msg === 'graphql request');

describe('a request with thousands of errors (subgraph mode)', () => {
  test('writes one line that counts its errors, and answers with 100 of them and one that counts the rest', async ({
    startGateway,
  }) => {
    const gw = await startGateway({ ...SUBGRAPH, LOG_LEVEL: 'info' });
    gw.logs.length = 0;
    const res = await gw.post(FLOOD);
    expect(res.status).toBe(200);
    expect(res.body.data!._entities).toHaveLength(5300);
    expect(res.body.data!._entities.every((entity: unknown) => entity === null)).toBe(true);
    const errors = res.body.errors!;
    expect(errors).toHaveLength(101);
    expect(errors.slice(0, 100).every((error) => error.extensions?.code === 'BAD_USER_INPUT')).toBe(true);
    expect(errors[99]!.path).toEqual(['_entities', 99]);
    expect(errors[100]).toMatchObject({
      extensions: { code: 'ERRORS_OMITTED', omitted: 5200, byCode: { BAD_USER_INPUT: 5200 } },
    });

    expect(gw.logs.length).toBeLessThanOrEqual(3);
    const [line, ...more] = requestLines(gw);
    expect(more).toEqual([]);
    expect(line!.request).toMatchObject({
      operation: 'Flood',
      status: 200,
      errorCodes: ['BAD_USER_INPUT'],
      errors: {
        count: 5300,
        byCode: { BAD_USER_INPUT: 5300 },
        firstPaths: ['_entities.0', '_entities.1', '_entities.2'],
      },
    });
  });

  test("another client's cached read is answered while several such requests are still running", async ({
    startGateway,
  }) => {
    const gw = await startGateway({ ...SUBGRAPH, CACHE_ENABLED: 'true' });
    expect((await gw.query(CACHED)).status).toBe(200);
    const finished: string[] = [];
    const heavy = Array.from({ length: 4 }, (_, i) =>
      gw.post(FLOOD).then((res) => {
        finished.push(`flood ${i}`);
        return res;
      }),
    );
    // Sent once the floods are in the gateway's hands.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const read = await gw.query(CACHED, undefined, { 'x-api-client': 'another' });
    finished.push('read');
    expect(read.body.data).toEqual({ domainInfo: { domainName: 'example.com' } });
    expect(read.body.extensions?.gateway?.lookups?.[0]?.source).toBe('cache');
    const floods = await Promise.all(heavy);
    expect(floods.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    // Answered before any flood was: their work is paced, so it does not hold every other request back.
    expect(finished[0]).toBe('read');
  });
});
