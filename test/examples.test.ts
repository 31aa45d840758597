import { parse } from 'graphql';
import { describe, expect } from 'vitest';
import { it } from './support/fixtures.js';
import type { RunningGateway } from './support/gateway.js';
import { incrementalQuery, merged } from './support/incremental.js';
import { loadExamples } from '../src/server/examples.js';
import { usesIncrementalDelivery } from '../src/incremental/index.js';

describe('schema/examples', () => {
  const examples = loadExamples();

  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  for (const example of examples) {
    it(`${example.name} runs against the sandbox without errors and returns data`, async ({ servedSandbox: gw }) => {
      const { status, body } = usesIncrementalDelivery(parse(example.query))
        ? await incrementally(gw, example.query, example.variables)
        : await gw.query(example.query, example.variables ?? undefined);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const values = Object.values(body.data ?? {});
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(value).not.toBeNull();
    });
  }
});

/** An example with @defer/@stream, read over multipart/mixed and merged as a client would. */
async function incrementally(gw: RunningGateway, query: string, variables: Record<string, unknown> | null) {
  const res = await incrementalQuery(gw.url, query, { variables: variables ?? undefined });
  expect(res.payloads.length).toBeGreaterThan(1);
  const { data, errors } = merged(res.payloads);
  return { status: res.status, body: { data, errors: errors.length > 0 ? errors : undefined } };
}
