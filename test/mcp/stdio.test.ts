import { spawn, spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway } from '../support/gateway.js';
import { ROOT, waitFor } from '../support/processes.js';
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

describe('node dist/mcp.js: a message over 10 MiB', () => {
  it('is refused on its own and logged; the server answers the next messages and exits 0 when stdin ends', async () => {
    const child = spawn(process.execPath, ['dist/mcp.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const replies = () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              id: number | null;
              result?: { tools?: unknown[] };
              error?: { code: number; message: string };
            },
        );
    const send = (line: string) => new Promise<void>((resolve) => child.stdin.write(line, () => resolve()));

    await send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    await waitFor(() => replies().some((reply) => reply.id === 1), 20_000, 'the initialize reply');
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'company', arguments: { domain: 'x'.repeat(11 * 1024 * 1024) } },
    });
    // In pieces, as a pipe delivers it.
    for (let at = 0; at < huge.length; at += 1024 * 1024) await send(huge.slice(at, at + 1024 * 1024));
    await send(`\n${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })}\n`);
    await waitFor(() => replies().some((reply) => reply.id === 3), 20_000, 'the tools/list reply');

    const refusal = replies().find((reply) => reply.id === null);
    expect(refusal?.error?.code).toBe(-32600);
    expect(refusal?.error?.message).toMatch(new RegExp(`${Buffer.byteLength(huge)} bytes, more than the 10485760`));
    expect(replies().find((reply) => reply.id === 3)?.result?.tools?.length).toBeGreaterThan(10);
    expect(replies().some((reply) => reply.id === 2)).toBe(false);
    expect(stderr).toMatch(/a message larger than the limit was refused/);
    // Bad params are the client's mistake here too, not an internal error.
    await send(
      `${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'company', arguments: ['x'] } })}\n`,
    );
    await waitFor(() => replies().some((reply) => reply.id === 4), 20_000, 'the tools/call reply');
    expect(replies().find((reply) => reply.id === 4)?.error?.code).toBe(-32602);
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});
