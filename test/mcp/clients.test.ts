import { readFileSync } from 'node:fs';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCalls } from '../support/assertions.js';
import { forSuite } from '../support/fixtures.js';
import { startGateway } from '../support/gateway.js';
import { ROOT } from '../support/processes.js';
import { LOOKUP_TOOLS } from './support.js';

const SDL = readFileSync(`${ROOT}schema/schema.graphql`, 'utf8');
type Usage = { gateway?: { upstreamCalls?: number } };

/** What both SDK lines' clients offer, as these tests use it. */
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string; title?: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: Array<{ uri: string; mimeType?: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
  readResource(params: { uri: string }): Promise<{
    contents: Array<{ uri: string; mimeType?: string; text?: string }>;
    _meta?: Record<string, unknown>;
  }>;
  getPrompt(params: {
    name: string;
    arguments: Record<string, string>;
  }): Promise<{ messages: Array<{ role: string; content: { type: string; text?: string } }> }>;
  close(): Promise<void>;
}

const STDIO = { command: process.execPath, args: ['dist/mcp.js'], cwd: ROOT, env: { PATH: process.env.PATH ?? '' } };

const v2 = () =>
  new V2Client({ name: 'lookup-graph-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
const v1 = () => new V1Client({ name: 'lookup-graph-test', version: '1.0.0' });

/**
 * The same checks for each client line over each transport: tools, resources (the SDL byte for
 * byte), a template read paid once and then answered from the cache, and a prompt.
 */
function clientSuite(
  label: string,
  version: string,
  connect: () => Promise<{ client: AnyClient; negotiated: () => string | undefined | null }>,
  upstreamCalls: () => number | null,
) {
  describe(label, () => {
    let client: AnyClient;
    let negotiated: () => string | undefined | null;
    beforeAll(async () => {
      ({ client, negotiated } = await connect());
    }, 60_000);
    afterAll(async () => {
      await client?.close();
    });

    it(`negotiates ${version} (where the client tells)`, () => {
      const got = negotiated();
      if (got !== null) expect(got).toBe(version);
    });

    it('lists the tools with titles and calls one', async () => {
      const { tools } = await client.listTools();
      for (const name of LOOKUP_TOOLS) expect(tools.map((tool) => tool.name)).toContain(name);
      for (const tool of tools) expect(tool.title, tool.name).toBeTruthy();
      const result = (await client.callTool({ name: 'domain_info', arguments: { domain: 'clients.example' } })) as {
        isError?: boolean;
        structuredContent: { domainInfo: { domainName: string } };
      };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.domainInfo.domainName).toBe('clients.example');
    });

    it('lists and reads resources: the SDL equals schema/schema.graphql byte for byte', async () => {
      const { resources } = await client.listResources();
      const schema = resources.find((resource) => resource.uri === 'lookup://schema.graphql');
      expect(schema?.mimeType).toBe('application/graphql');
      expect(resources.map((resource) => resource.uri)).toContain('lookup://errors.md');
      expect(resources.map((resource) => resource.uri)).toContain('lookup://operations/company.graphql');
      const read = await client.readResource({ uri: 'lookup://schema.graphql' });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]!.mimeType).toBe('application/graphql');
      expect(Buffer.from(read.contents[0]!.text!, 'utf8').equals(Buffer.from(SDL, 'utf8'))).toBe(true);
    });

    it('reads a template resource through the pipeline: one upstream call, then none', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
        expect.arrayContaining(['lookup://company/{domain}', 'lookup://financial-profiles/{symbols*}']),
      );
      const domain = `${label.replace(/\W+/g, '-').toLowerCase()}.example`;
      const before = upstreamCalls();
      const first = await client.readResource({ uri: `lookup://company/${domain}` });
      expect(first.contents[0]!.mimeType).toBe('application/json');
      expect(JSON.parse(first.contents[0]!.text!)).toMatchObject({ company: { domain } });
      expect((first._meta as Usage).gateway?.upstreamCalls).toBe(1);
      if (before !== null) expect(upstreamCalls()! - before).toBe(1);
      const again = await client.readResource({ uri: `lookup://company/${domain}` });
      expect(again.contents[0]!.text).toBe(first.contents[0]!.text);
      expect((again._meta as Usage).gateway?.upstreamCalls).toBe(0);
      if (before !== null) expect(upstreamCalls()! - before).toBe(1);
    });

    it('gets a prompt that names the tools to call, with no data fetched', async () => {
      const before = upstreamCalls();
      const prompt = await client.getPrompt({ name: 'company_brief', arguments: { domain: 'hubspot.com' } });
      const text = prompt.messages.map((message) => message.content.text ?? '').join('\n');
      expect(text).toMatch(/company_with_stock/);
      expect(text).toMatch(/\bnews\b/);
      expect(text).toContain('hubspot.com');
      if (before !== null) expect(upstreamCalls()).toBe(before);
    });
  });
}

describe('both SDK lines over HTTP', () => {
  const gw = forSuite(() => startGateway());
  const calls = () => sandboxCalls(gw);
  clientSuite(
    'the v2 client over HTTP',
    '2026-07-28',
    async () => {
      const client = v2();
      await client.connect(new V2Http(new URL(`${gw.url}/mcp`)));
      return { client: client as unknown as AnyClient, negotiated: () => client.getNegotiatedProtocolVersion() };
    },
    calls,
  );
  clientSuite(
    'the v1 client over HTTP',
    '2025-11-25',
    async () => {
      const client = v1();
      const transport = new V1Http(new URL(`${gw.url}/mcp`));
      await client.connect(transport);
      return { client: client as unknown as AnyClient, negotiated: () => transport.protocolVersion };
    },
    calls,
  );
});

describe('both SDK lines over stdio (node dist/mcp.js)', () => {
  clientSuite(
    'the v2 client over stdio',
    '2026-07-28',
    async () => {
      const client = v2();
      await client.connect(new V2Stdio(STDIO));
      return { client: client as unknown as AnyClient, negotiated: () => client.getNegotiatedProtocolVersion() };
    },
    () => null,
  );
  clientSuite(
    'the v1 client over stdio',
    '2025-11-25',
    async () => {
      const client = v1();
      await client.connect(new V1Stdio(STDIO));
      // The v1 client over stdio does not tell what was negotiated: its initialize offers 2025-11-25.
      return { client: client as unknown as AnyClient, negotiated: () => null };
    },
    () => null,
  );
});
