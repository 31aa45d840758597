import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestGateway } from '../support/gateway.js';
import { ROOT } from '../support/processes.js';

/** The eleven lookups' tools, one per root field. */
export const LOOKUP_TOOLS = [
  'company',
  'financial_profiles',
  'domain_info',
  'crm_owners',
  'microblog_posts',
  'news',
  'photosocial_profile',
  'professionalnet_profile',
  'videosite_channel',
  'videosite_transcript',
  'videosite_search',
];

/** The text of a default tool's operation file. */
export const toolDocument = (file: string) => readFileSync(`${ROOT}schema/mcp/${file}`, 'utf8');

/** The SDK's own client over Streamable HTTP, connected (initialize done). */
export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'lookup-graph-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The SDK's own client over Streamable HTTP to a gateway in this process (its `yoga.fetch`, no socket). */
export async function inProcessClient(gw: TestGateway, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'lookup-graph-test', version: '1.0.0' });
  const fetchInProcess = (url: string | URL, init?: RequestInit) =>
    Promise.resolve(gw.gateway.yoga.fetch(String(url), init as never));
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: fetchInProcess,
      requestInit: { headers },
    }),
  );
  return client;
}

/** A tool call's result, typed as a tool result. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The one text block of a result. */
export function textOf(result: CallToolResult): string {
  const [block] = result.content;
  if (block?.type !== 'text') throw new Error(`expected one text block, got ${JSON.stringify(result.content)}`);
  return block.text;
}

/** A JSON-RPC body POSTed to /mcp as a 2025-06-18 client sends it, with `headers` over the defaults. */
export const postMcp = (gw: TestGateway, body: string, headers: Record<string, string> = {}) =>
  gw.fetch('/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body,
  });
