import { describe, expect } from 'vitest';
import { it } from './support/fixtures.js';
import { loadExamples } from '../src/examples.js';


describe('schema/examples', () => {
  const examples = loadExamples();

  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  for (const example of examples) {
    it(`${example.name} runs against the sandbox without errors and returns data`, async ({ sandbox: gw }) => {
    const { status, body } = await gw.query(example.query, example.variables ?? undefined);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const values = Object.values(body.data ?? {});
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).not.toBeNull();
    });
  }
});
