import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { sandboxCalls } from '../support/assertions.js';
import { call, httpClient, LOOKUP_TOOLS, textOf, toolDocument } from './support.js';

describe('MCP over Streamable HTTP at /mcp (the SDK client)', () => {
  let gw: RunningGateway;
  let client: Client;
  beforeAll(async () => {
    gw = await startGateway();
    client = await httpClient(gw.url);
  });
  afterAll(async () => {
    await client?.close();
    await gw?.close();
  });

  it('lists the eleven lookup tools with input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of LOOKUP_TOOLS) expect(names).toContain(name);
    const company = tools.find((tool) => tool.name === 'company')!;
    expect(company.inputSchema).toMatchObject({
      type: 'object',
      required: ['domain'],
      properties: { domain: { type: 'string' } },
    });
    expect(company.inputSchema.properties!.domain).toHaveProperty('description');
    expect(company.description).toMatch(/company/i);
    const news = tools.find((tool) => tool.name === 'news')!;
    expect(news.inputSchema.properties!.dateRange).toMatchObject({
      type: 'string',
      enum: ['PAST_DAY', 'PAST_MONTH', 'PAST_WEEK'],
      default: 'PAST_DAY',
    });
    expect(tools.find((tool) => tool.name === 'financial_profiles')!.inputSchema.properties!.symbols).toMatchObject({
      type: 'array',
      items: { type: 'string' },
    });
    expect(names).toContain('company_with_stock');
    // The sandbox: the optional tools are on.
    expect(names).toContain('execute');
    expect(names).toContain('search_schema');
  });

  it('company with a pasted URL answers what the same GraphQL operation answers; a repeat makes no upstream call', async () => {
    const domain = 'https://www.hubspot.com/pricing?utm_source=x';
    const before = sandboxCalls(gw);
    const first = await call(client, 'company', { domain });
    expect(first.isError).toBeFalsy();
    expect(sandboxCalls(gw) - before).toBe(1);
    const graphql = await gw.query(toolDocument('company.graphql'), { domain });
    expect(first.structuredContent).toEqual(graphql.body.data);
    expect(JSON.parse(textOf(first))).toEqual(first.structuredContent);
    expect(first._meta).toMatchObject({ gateway: { sandbox: true, upstreamCalls: 1, cost: { estimated: 1 } } });

    const again = await call(client, 'company', { domain: 'hubspot.com' });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta).toMatchObject({ gateway: { upstreamCalls: 0 } });
    expect(sandboxCalls(gw) - before).toBe(1);
  });

  it('20 concurrent identical calls make one upstream call', async () => {
    const before = sandboxCalls(gw);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(client, 'domain_info', { domain: 'https://coalesced.example/about' })),
    );
    expect(sandboxCalls(gw) - before).toBe(1);
    for (const result of results) {
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(results[0]!.structuredContent);
    }
    expect(results[0]!.structuredContent).toMatchObject({ domainInfo: { domainName: 'coalesced.example' } });
  });

  it('answers one keep-alive connection again and again, each reply compressed on its own', async () => {
    const { Agent, request } = await import('undici');
    const agent = new Agent({ connections: 1 });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'photosocial_profile', arguments: { username: 'keepalive' } },
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'accept-encoding': 'gzip',
    };
    try {
      for (let i = 0; i < 3; i++) {
        const res = await request(`${gw.url}/mcp`, { method: 'POST', headers, body, dispatcher: agent });
        const bytes = Buffer.from(await res.body.arrayBuffer());
        // Over 1 KB: compressed, and marked so only when it is.
        expect(res.headers['content-encoding'], `${bytes.length} B: ${bytes.toString('utf8').slice(0, 200)}`).toBe(
          'gzip',
        );
        const reply = JSON.parse(gunzipSync(bytes).toString('utf8')) as { result: { structuredContent: unknown } };
        expect(reply.result.structuredContent).toMatchObject({ photosocialProfile: { username: 'keepalive' } });
      }
    } finally {
      await agent.close();
    }
  });
});
