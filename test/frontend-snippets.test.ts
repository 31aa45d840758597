/**
 * docs/frontend.md's Apollo Client and urql snippets, run as written against the sandbox over HTTP: a
 * NOT_FOUND symbol beside good data keeps the data, and `extensions.gateway` reaches the code; a @live
 * query renders its first result and a pushed change, and unsubscribing closes its stream.
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
const liveSection = page.split('## Live queries: @live')[1]!.split('\n## ')[0]!;
const liveSnippets = [...liveSection.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** Runs a snippet as a module (in the repository, so its imports resolve) and returns the names it binds. */
async function run(snippet: string, url: string, names: string[], preamble = ''): Promise<Record<string, any>> {
  const dir = mkdtempSync(join(ROOT, 'test', '.snippet-'));
  try {
    const file = join(dir, 'snippet.ts');
    const source = snippet.replace('https://gateway.example/graphql', `${url}/graphql`);
    writeFileSync(
      file,
      `// @ts-nocheck\nconst accessToken = () => 'a-token-the-open-sandbox-gateway-ignores';\n${preamble}${source}\nexport { ${names.join(', ')} };\n`,
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

describe('docs/frontend.md: @live in Apollo Client and urql', () => {
  // Prices that move at every call, polled every second; the clients load beside the gateway (as above).
  const market = (start: (env: Record<string, string>) => Promise<RunningGateway>) =>
    start({
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SANDBOX_MARKET: 'moving',
      LIVE_REFRESH_SECONDS: 'company_financial_profile=1',
    });
  // What the snippet renders, in order, for the test to read.
  const preamble = 'const rendered = [];\nconst render = (price) => rendered.push(price);\n';

  it('has the two snippets', () => {
    expect(liveSnippets).toHaveLength(2);
    expect(liveSnippets[0]).toContain("from 'graphql-sse'");
    expect(liveSnippets[1]).toContain("from '@urql/core'");
  });

  for (const [index, client] of [
    [0, 'Apollo Client through the graphql-sse link'],
    [1, "urql's fetchExchange"],
  ] as const) {
    it(`${client} renders the first result and a pushed change; unsubscribing closes the stream`, {
      timeout: 20_000,
    }, async ({ startGateway }) => {
      const gw = await market(startGateway);
      const { rendered, watching } = await run(liveSnippets[index]!, gw.url, ['rendered', 'watching'], preamble);
      try {
        await expect.poll(() => rendered.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
        expect(rendered[0]).toEqual(expect.any(Number));
        expect(gw.gateway.live.open).toBe(1);
        // The next poll (every second) moves the price, and the stream pushes it.
        await expect.poll(() => rendered.length, { timeout: 8_000 }).toBeGreaterThanOrEqual(2);
        expect(rendered[1]).toEqual(expect.any(Number));
        expect(rendered[1]).not.toBe(rendered[0]);
      } finally {
        watching.unsubscribe();
      }
      await expect.poll(() => gw.gateway.live.open, { timeout: 5_000 }).toBe(0);
    });
  }
});
