import { readFileSync } from 'node:fs';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { sha256Hex } from '../security/trusted-documents.js';
import type { SecuritySettings } from '../security/settings.js';
import type { GraphQLBody } from './answer.js';
import { DEFAULT_OPERATIONS_DIR, loadToolOperations } from './operations.js';
import { useMcpEndpoint } from './plugin.js';
import { McpTools, type ExecuteGraphQL } from './server.js';
import type { McpSettings } from './settings.js';

/** The headers of an MCP request that its tool calls carry into /graphql: credentials and the trace. */
const FORWARDED = ['authorization', 'x-api-key', 'traceparent', 'tracestate'];

export interface Mcp {
  tools: McpTools;
  /** The /mcp endpoint, for the plugin list (after the security plugins). */
  endpoint: Plugin;
  /** Tool calls with these headers (stdio: the configured API key), through the same pipeline. */
  runWith(headers: Record<string, string>): ExecuteGraphQL;
}

export interface McpOptions {
  settings: McpSettings;
  security: SecuritySettings;
  schema: GraphQLSchema;
  refusalOf(request: Request): GraphQLError | null;
  /** Yoga's own fetch: the one pipeline every tool call goes through. */
  fetch(url: string, init: RequestInit, serverContext?: unknown): Promise<Response> | Response;
}

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The MCP server's tools (schema/mcp/ and MCP_OPERATIONS_DIR, validated against the schema: a bad file
 * throws, naming it) and its endpoint. With trusted documents on, the tool operations are added to
 * them: trusted by construction.
 */
export function createMcp(options: McpOptions): Mcp {
  const dirs = [DEFAULT_OPERATIONS_DIR, ...(options.settings.operationsDir ? [options.settings.operationsDir] : [])];
  const operations = loadToolOperations(options.schema, dirs);
  const trusted = options.security.trustedDocuments;
  for (const operation of operations) trusted?.set(sha256Hex(operation.document), operation.document);
  const tools = new McpTools({ schema: options.schema, tools: operations, settings: options.settings, trustedDocuments: trusted !== null, version: VERSION });

  const post = async (url: string, headers: Headers, body: Record<string, unknown>, serverContext?: unknown): Promise<GraphQLBody> => {
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json');
    const response = await options.fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }, serverContext);
    const text = await response.text();
    try {
      return JSON.parse(text) as GraphQLBody;
    } catch {
      return {
        errors: [
          {
            message: `The gateway answered HTTP ${response.status}.`,
            extensions: { code: response.status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL_SERVER_ERROR' },
          },
        ],
      };
    }
  };
  const endpoint = useMcpEndpoint({
    tools,
    refusalOf: options.refusalOf,
    corsOrigins: options.security.corsOrigins,
    maxRequestBytes: options.security.limits.maxRequestBytes,
    maxBatchOperations: options.security.limits.maxBatchOperations,
    run: (request, serverContext, body) => {
      const headers = new Headers();
      for (const name of FORWARDED) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      return post(new URL('/graphql', request.url).href, headers, body, serverContext);
    },
  });
  return {
    tools,
    endpoint,
    runWith: (headers) => (body) => post('http://localhost/graphql', new Headers(headers), body),
  };
}
