import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NoDeprecatedCustomRule, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadExamples } from '../src/server/examples.js';
import { schema } from '../src/graph/index.js';

/**
 * Everything shipped as an example teaches current field names: the GraphiQL tabs
 * (schema/examples/) and every operation of the example app (examples/web/src/graphql/) are valid
 * against the gateway's schema and select no deprecated field, argument or enum value.
 */
const APP_OPERATIONS = fileURLToPath(new URL('../examples/web/src/graphql/', import.meta.url));

function problems(document: string): string[] {
  return validate(schema, parse(document), [...specifiedRules, NoDeprecatedCustomRule]).map((error) => error.message);
}

describe('shipped operations use current field names', () => {
  const tabs = loadExamples();
  const appFiles = readdirSync(APP_OPERATIONS).filter((file) => file.endsWith('.graphql'));

  it('finds the GraphiQL tabs and the example app operations', () => {
    expect(tabs.length).toBeGreaterThanOrEqual(10);
    expect(appFiles.length).toBeGreaterThanOrEqual(3);
  });

  it.for(tabs.map((tab) => [tab.name, tab.query]))('GraphiQL tab %s', ([, query]) => {
    expect(problems(query!)).toEqual([]);
  });

  it.for(appFiles)('example app %s', (file) => {
    expect(problems(readFileSync(`${APP_OPERATIONS}${file}`, 'utf8'))).toEqual([]);
  });

  it('fails on a field the schema does not have, so the checks above can fail', () => {
    const found = problems('{ company(domain: "hubspot.com") { twitter { handle } } }');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^Cannot query field "twitter" on type "Company"/);
  });
});
