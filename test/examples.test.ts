import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { loadExamples } from '../src/examples.js';
import { usesIncrementalDelivery } from '../src/incremental/index.js';
import { startGateway, type RunningGateway } from './support/gateway.js';
import { incrementalQuery, merged } from './support/incremental.js';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

describe('schema/examples', () => {
  const examples = loadExamples();

  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples.map((example) => [example.name, example] as const))('%s runs against the sandbox without errors and returns data', async (_name, example) => {
    const { status, body } = usesIncrementalDelivery(parse(example.query)) ? await incrementally(example.query, example.variables) : await gw.query(example.query, example.variables ?? undefined);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const values = Object.values(body.data ?? {});
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).not.toBeNull();
  });
});

/** An example with @defer/@stream, read over multipart/mixed and merged as a client would. */
async function incrementally(query: string, variables: Record<string, unknown> | null) {
  const res = await incrementalQuery(gw.url, query, { variables: variables ?? undefined });
  expect(res.payloads.length).toBeGreaterThan(1);
  const { data, errors } = merged(res.payloads);
  return { status: res.status, body: { data, errors: errors.length > 0 ? errors : undefined } };
}
