import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExamples } from '../src/examples.js';
import { startGateway, type RunningGateway } from './support/gateway.js';

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
    const { status, body } = await gw.query(example.query, example.variables ?? undefined);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const values = Object.values(body.data ?? {});
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).not.toBeNull();
  });
});
