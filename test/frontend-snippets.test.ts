/**
 * docs/frontend.md's Apollo Client and urql snippets, run as written against the sandbox over HTTP: a
 * NOT_FOUND symbol beside good data keeps the data, and `extensions.gateway` reaches the code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from './support/fixtures.js';
import type { RunningGateway } from './support/gateway.js';
import { ROOT } from './support/processes.js';

const page = readFileSync(join(ROOT, 'docs', 'frontend.md'), 'utf8');
const section = page.split('### Partial results and `extensions.gateway` in a client')[1]!.split('\n## ')[0]!;
const snippets = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** Runs a snippet as a module (in the repository, so its imports resolve) and returns the names it binds. */
async function run(snippet: string, url: string, names: string[]): Promise<Record<string, any>> {
  const dir = mkdtempSync(join(ROOT, 'test', '.snippet-'));
  try {
    const file = join(dir, 'snippet.ts');
    const source = snippet.replace('https://gateway.example/graphql', `${url}/graphql`);
    writeFileSync(
      file,
      `// @ts-nocheck\nconst accessToken = () => 'a-token-the-open-sandbox-gateway-ignores';\n${source}\nexport { ${names.join(', ')} };\n`,
    );
    return await import(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The partial result both clients must keep: the company and AAPL beside the second symbol's NOT_FOUND. */
const expectPartial = (data: any, firstError: unknown) => {
  expect(data.company.name).toBe('Hubspot');
  expect(data.financialProfiles[0]).toMatchObject({ symbol: 'AAPL', price: expect.any(Number) });
  expect(data.financialProfiles[1]).toBeNull();
  expect(firstError).toMatchObject({ path: ['financialProfiles', 1], extensions: { code: 'NOT_FOUND' } });
};

describe('docs/frontend.md: partial results in Apollo Client and urql', () => {
  // The clients load in this process beside the gateway: their first import must not read as an overloaded event loop.
  const runSnippet = async (
    index: number,
    start: (env: Record<string, string>) => Promise<RunningGateway>,
    names: string[],
  ) => run(snippets[index]!, (await start({ SHED_EVENT_LOOP_DELAY_MS: '0' })).url, names);

  it('has the two snippets', () => {
    expect(snippets).toHaveLength(2);
    expect(snippets[0]).toContain("errorPolicy: 'all'");
  });

  it('Apollo Client with errorPolicy "all" keeps the company and AAPL beside the NOT_FOUND, and its link reads extensions.gateway', async ({
    startGateway,
  }) => {
    const { data, error, lastUsage } = await runSnippet(0, startGateway, ['data', 'error', 'lastUsage']);
    expectPartial(data, error.errors[0]);
    expect(lastUsage).toMatchObject({ sandbox: true, upstreamCalls: expect.any(Number) });
  });

  it('urql keeps the partial data and gives extensions.gateway', async ({ startGateway }) => {
    const { data, error, extensions } = await runSnippet(1, startGateway, ['data', 'error', 'extensions']);
    expectPartial(data, error.graphQLErrors[0]);
    expect(extensions.gateway).toMatchObject({ sandbox: true, upstreamCalls: expect.any(Number) });
  });
});
