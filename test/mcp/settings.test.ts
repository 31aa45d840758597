import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { sha256Hex } from '../../src/security/trusted-documents.js';
import { startSandboxLikeUpstream, upstreamEnv } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway, type TestGateway } from '../support/gateway.js';
import { call, inProcessClient, LOOKUP_TOOLS, textOf } from './support.js';

const KEY = 'lg_live_mcp_test_key_0123456789abcdef';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const postMcp = (gw: TestGateway, body: string, headers: Record<string, string> = {}) =>
  gw.fetch('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
  });

describe('production settings', () => {
  const up = forSuite(startSandboxLikeUpstream);
  const gw = forSuite(() =>
    inProcessGateway(
      upstreamEnv(up, {
        NODE_ENV: 'production',
        GATEWAY_API_KEY_HASHES: hashApiKey(KEY),
        CORS_ORIGINS: 'https://app.example.com',
        MAX_REQUEST_BYTES: '2048',
      }),
    ),
  );

  it('no key: 401, as /graphql', async () => {
    const res = await postMcp(gw, INITIALIZE);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await res.json()).error.message).toMatch(/API key is required/);
    expect((await postMcp(gw, INITIALIZE, { 'x-api-key': 'wrong-key-0000000000' })).status).toBe(401);
  });

  it('a foreign Origin: 403; a listed one passes', async () => {
    expect((await postMcp(gw, INITIALIZE, { 'x-api-key': KEY, origin: 'https://evil.example' })).status).toBe(403);
    expect((await postMcp(gw, INITIALIZE, { 'x-api-key': KEY, origin: 'https://app.example.com' })).status).toBe(200);
  });

  it('keeps the body and batch limits', async () => {
    const large = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4096) } });
    expect((await postMcp(gw, large, { 'x-api-key': KEY })).status).toBe(413);
    expect((await postMcp(gw, `[${INITIALIZE}]`, { 'x-api-key': KEY })).status).toBe(400);
  });

  it('with a key: the lookup tools, no execute or search_schema; a call carries the key through /graphql', async () => {
    const client = await inProcessClient(gw, { authorization: `Bearer ${KEY}` });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of LOOKUP_TOOLS) expect(names).toContain(name);
    expect(names).not.toContain('execute');
    expect(names).not.toContain('search_schema');
    await expect(call(client, 'execute', { query: '{ __typename }' })).rejects.toThrow(/Unknown tool "execute"/);
    const before = up.calls.length;
    const result = await call(client, 'crm_owners', { portal: '139981' });
    expect(result.isError).toBeFalsy();
    expect(up.calls.length - before).toBe(1);
    expect(JSON.stringify(result)).not.toContain(up.token);
    await client.close();
  });
});

describe('MCP_ENABLED=false', () => {
  const gw = forSuite(() => inProcessGateway({ MCP_ENABLED: 'false' }));
  it('serves no /mcp', async () => {
    expect((await postMcp(gw, INITIALIZE)).status).toBe(404);
    expect(gw.gateway.mcp).toBeNull();
  });
});

describe('MCP_OPERATIONS_DIR', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-graph-mcp-'));
  writeFileSync(
    join(dir, 'ticker.graphql'),
    '# The ticker of a company by its domain.\nquery Ticker($domain: String!) { company(domain: $domain) { ticker } }\n',
  );
  writeFileSync(
    join(dir, 'company.graphql'),
    '# A company: its name only.\nquery Company($domain: String!) { company(domain: $domain) { name } }\n',
  );
  const gw = forSuite(() => inProcessGateway({ MCP_OPERATIONS_DIR: dir }));

  it('adds tools and replaces those of the same name', async () => {
    const client = await inProcessClient(gw);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'ticker')!.description).toMatch(
      /^The ticker of a company by its domain\./,
    );
    expect(tools.filter((tool) => tool.name === 'company')).toHaveLength(1);
    expect((await call(client, 'ticker', { domain: 'hubspot.com' })).structuredContent).toEqual({
      company: { ticker: 'HUBS' },
    });
    expect((await call(client, 'company', { domain: 'hubspot.com' })).structuredContent).toEqual({
      company: { name: 'Hubspot' },
    });
    await client.close();
  });

  it('a file that does not validate stops start-up, naming the file and the error', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'lookup-graph-mcp-bad-'));
    writeFileSync(
      join(bad, 'broken.graphql'),
      'query Broken($domain: String!) { company(domain: $domain) { nmae } }\n',
    );
    await expect(inProcessGateway({ MCP_OPERATIONS_DIR: bad })).rejects.toThrow(
      /broken\.graphql: Cannot query field "nmae" on type "Company"/,
    );
  });
});

describe('with trusted documents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-graph-trusted-'));
  const document = 'query Only { __typename }';
  writeFileSync(join(dir, 'trusted.json'), JSON.stringify({ [`sha256:${sha256Hex(document)}`]: document }));
  const gw = forSuite(() => inProcessGateway({ TRUSTED_DOCUMENTS_FILE: join(dir, 'trusted.json') }));

  it('the tools run (trusted by construction); execute is not offered', async () => {
    const client = await inProcessClient(gw);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('execute');
    const result = await call(client, 'company', { domain: 'hubspot.com' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ company: { name: 'Hubspot' } });
    // A raw query is still refused on /graphql.
    expect((await gw.query('{ __typename }')).body.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_ONLY');
    await client.close();
  });
});
