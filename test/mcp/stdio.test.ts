import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway } from '../support/gateway.js';
import { ROOT } from '../support/processes.js';
import { call, LOOKUP_TOOLS, textOf, toolDocument } from './support.js';

type Usage = { gateway: { upstreamCalls: number; sandbox: boolean } };

describe('MCP over stdio: node dist/mcp.js (the build)', () => {
  const reference = forSuite(() => inProcessGateway());
  let client: Client;
  let stderr = '';
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['dist/mcp.js'],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    client = new Client({ name: 'lookup-graph-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the eleven lookup tools with input schemas; logs go to stderr only', async () => {
    const { tools } = await client.listTools();
    for (const name of LOOKUP_TOOLS) {
      const tool = tools.find((listed) => listed.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.inputSchema.type).toBe('object');
      expect(Object.keys(tool!.inputSchema.properties ?? {}).length, name).toBeGreaterThan(0);
    }
    expect(stderr).toMatch(/MCP over stdio, on the built-in SANDBOX/);
  });

  it('company with a pasted URL answers what the same GraphQL operation answers; a repeat makes no upstream call', async () => {
    const domain = 'HTTPS://WWW.HUBSPOT.COM/pricing';
    const first = await call(client, 'company', { domain });
    const graphql = await reference.query(toolDocument('company.graphql'), { domain });
    expect(first.structuredContent).toEqual(graphql.body.data);
    expect(JSON.parse(textOf(first))).toEqual(graphql.body.data);
    expect((first._meta as Usage).gateway).toMatchObject({ upstreamCalls: 1, sandbox: true });
    const again = await call(client, 'company', { domain: 'hubspot.com' });
    expect((again._meta as Usage).gateway.upstreamCalls).toBe(0);
    expect(again.structuredContent).toEqual(first.structuredContent);
  });

  it('20 concurrent identical calls make one upstream call', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(client, 'photosocial_profile', { username: '@stdio_concurrent' })),
    );
    const calls = results.map((result) => (result._meta as Usage).gateway.upstreamCalls);
    expect(calls.reduce((sum, n) => sum + n, 0)).toBe(1);
    for (const result of results) expect(result.structuredContent).toEqual(results[0]!.structuredContent);
  });
});

describe('node dist/mcp.js with MCP_ENABLED=false', () => {
  it('does not start', () => {
    const run = spawnSync(process.execPath, ['dist/mcp.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', MCP_ENABLED: 'false' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toMatch(/MCP_ENABLED=false/);
    expect(run.stdout).toBe('');
  });
});
