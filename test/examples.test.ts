import { parse } from 'graphql';
import { describe, expect } from 'vitest';
import { it } from './support/fixtures.js';
import type { RunningGateway } from './support/gateway.js';
import { incrementalQuery, merged } from './support/incremental.js';
import { readFileSync } from 'node:fs';
import { graphiqlTabs, loadExamples } from '../src/server/examples.js';
import { usesIncrementalDelivery } from '../src/incremental/index.js';

describe('schema/examples', () => {
  const examples = loadExamples();

  it('has examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it("GraphiQL opens on the README's first query, and its tabs fit the bar (at most 7, every example in one)", () => {
    const tabs = graphiqlTabs(examples);
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const first = /```graphql\n(query FirstQuery[\s\S]*?)```/.exec(readme)![1]!;
    expect(tabs[0]!.query.replace(/^#.*\n/gm, '').trim()).toBe(first.trim());
    expect(tabs.length).toBeLessThanOrEqual(7);
    const operations = tabs.flatMap((tab) =>
      parse(tab.query).definitions.map((d) => ('name' in d ? d.name?.value : undefined)),
    );
    expect(operations.sort()).toEqual(
      examples
        .map((example) => parse(example.query).definitions.map((d) => ('name' in d ? d.name?.value : undefined))[0])
        .sort(),
    );
    // Every tab's variables are the ones its operations declare.
    for (const tab of tabs) {
      const declared = parse(tab.query).definitions.flatMap((d) =>
        'variableDefinitions' in d ? (d.variableDefinitions ?? []).map((v) => v.variable.name.value) : [],
      );
      expect(Object.keys(JSON.parse(tab.variables ?? '{}')).sort()).toEqual([...new Set(declared)].sort());
    }
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
