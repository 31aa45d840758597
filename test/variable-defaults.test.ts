import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskError } from '../src/kernel/graphql-errors.js';
import { call, inProcessClient, LOOKUP_TOOLS, textOf } from './mcp/support.js';
import { startSandboxLikeUpstream } from './support/fault-upstream.js';
import { forSuite } from './support/fixtures.js';
import { inProcessGateway, type TestGateway } from './support/gateway.js';

/**
 * A variable left out that declares a default takes it, as the GraphQL specification says, on every path:
 * graphql-jit (the executor) refuses a non-null variable with a default as "not provided", and in production
 * that error made masking throw, so the answer was INTERNAL_SERVER_ERROR.
 */
const DEFAULTS = `query Defaults($d: String! = "example.com", $r: NewsDateRange! = PAST_WEEK, $n: Int! = 3) {
  domainInfo(domain: $d) { domainName }
  news(query: "chips", dateRange: $r) { query dateRange }
  microblogPosts(query: "chips", first: $n) { text }
}`;

const dir = mkdtempSync(join(tmpdir(), `lookup-graph-defaults-${process.pid}-`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const documentId = `sha256:${createHash('sha256').update(DEFAULTS).digest('hex')}`;
const trustedFile = join(dir, 'trusted.json');
writeFileSync(trustedFile, JSON.stringify({ [documentId]: DEFAULTS }));

const expectDefaultsApplied = (body: { data?: Record<string, any> | null; errors?: unknown[] }) => {
  expect(body.errors).toBeUndefined();
  expect(body.data?.domainInfo).toEqual({ domainName: 'example.com' });
  expect(body.data?.news).toEqual({ query: 'chips', dateRange: 'PAST_WEEK' });
  expect(body.data?.microblogPosts).toHaveLength(3);
};

describe.each([
  ['development', {}],
  ['production settings (no GraphiQL, masked errors)', { NODE_ENV: 'production', GATEWAY_AUTH: 'none' }],
])('variable defaults, %s', (_name, env) => {
  const up = forSuite(startSandboxLikeUpstream);
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await inProcessGateway({
      ...env,
      TRUSTED_DOCUMENTS_FILE: trustedFile,
      ACTION_BASE_URL: up.url,
      ACTION_TOKEN: up.token,
    });
  });
  afterAll(() => gw.close());

  it('GraphQL: non-null variables left out take their defaults (String!, an enum, Int!)', async () => {
    const { status, body } = await gw.post(JSON.stringify({ documentId }));
    expect(status).toBe(200);
    expectDefaultsApplied(body);
  });

  it('a variable sent wins over its default; a null sent for a non-null one is BAD_USER_INPUT, not the default', async () => {
    const sent = await gw.post(JSON.stringify({ documentId, variables: { d: 'sent.example' } }));
    expect(sent.body.data?.domainInfo).toEqual({ domainName: 'sent.example' });
    const nulled = await gw.post(JSON.stringify({ documentId, variables: { d: null } }));
    expect(nulled.status).toBe(400);
    expect(nulled.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('MCP tools called with only their required arguments', () => {
  let gw: TestGateway;
  let client: Client;
  beforeAll(async () => {
    gw = await inProcessGateway();
    client = await inProcessClient(gw);
  });
  afterAll(async () => {
    await client.close();
    await gw.close();
  });

  const SAMPLE: Record<string, unknown> = {
    domain: 'hubspot.com',
    symbols: ['AAPL'],
    portal: '12345',
    query: 'chips',
    username: 'nasa',
    handle: 'satyanadella',
    url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  };
  // A channel's url names a channel, a transcript's a video.
  const SAMPLE_FOR: Record<string, Record<string, unknown>> = { videosite_channel: { url: '@nasa' } };

  it('every lookup tool answers without an error, its optional arguments defaulted', async () => {
    const { tools } = await client.listTools();
    for (const name of LOOKUP_TOOLS) {
      const tool = tools.find((t) => t.name === name)!;
      const required = (tool.inputSchema.required ?? []) as string[];
      const args = Object.fromEntries(required.map((arg) => [arg, SAMPLE_FOR[name]?.[arg] ?? SAMPLE[arg]]));
      expect(Object.values(args), `${name}: a sample for each required argument`).not.toContain(undefined);
      const result = await call(client, name, args);
      expect(result.isError, `${name}: ${textOf(result).slice(0, 300)}`).toBeFalsy();
    }
  });
});

describe('maskError never throws', () => {
  it("passes graphql-jit's own errors, which have no extensions object, in production", () => {
    const jitError = new GraphQLError('Variable "$d" of required type "String!" was not provided.');
    (jitError as { extensions: unknown }).extensions = undefined;
    expect(() => maskError(jitError, 'Unexpected error.', true)).not.toThrow();
    expect(maskError(jitError, 'Unexpected error.', true).message).toBe(jitError.message);
  });
});
