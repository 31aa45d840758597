import { readFileSync } from 'node:fs';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { sha256Hex } from '../security/trusted-documents.js';
import type { SecuritySettings } from '../security/settings.js';
import { DEFAULT_OPERATIONS_DIR, loadToolOperations } from './operations.js';
import { useMcpEndpoint } from './plugin.js';
import { McpTools, type ExecuteGraphQL } from './server.js';
import type { McpSettings } from './settings.js';
import { type FetchAPI, ToolRequests } from './tool-requests.js';

export interface Mcp {
  tools: McpTools;
  /** The /mcp endpoint: first in the plugin list. */
  endpoint: Plugin;
  /** Hands each tool call's GraphQL result to its tool: after every plugin that changes a result. */
  toolRequests: Plugin;
  /** Tool calls with these headers (stdio: the configured API key), through the same pipeline. */
  runWith(headers: Record<string, string>): ExecuteGraphQL;
}

export interface McpOptions {
  settings: McpSettings;
  security: SecuritySettings;
  schema: GraphQLSchema;
  refusalOf(request: Request): Promise<GraphQLError | null> | GraphQLError | null;
  /** Counts one MCP message toward the client rate limit: the refusal, or null. */
  countMessage(request: Request, serverContext: unknown): Promise<GraphQLError | null>;
  /** A request made for a message countMessage counted: not counted again. */
  countedAlready(request: Request): void;
  logger: Logger;
  /** The gateway listens on a loopback address (HOST): loopback and same-origin origins may use /mcp. */
  loopback: boolean;
  /** The gateway answers from the built-in sandbox: the server's instructions say so. */
  sandbox: boolean;
  /** Yoga's own fetch: the one pipeline every tool call goes through. */
  fetch(request: Request, serverContext?: unknown): Promise<Response> | Response;
  /** The fetch API Yoga's requests and responses are made with. */
  fetchAPI(): FetchAPI;
}

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

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
  const tools = new McpTools({
    schema: options.schema,
    tools: operations,
    settings: options.settings,
    trustedDocuments: trusted !== null,
    version: VERSION,
    sandbox: options.sandbox,
  });

  const toolRequests = new ToolRequests();
  return {
    tools,
    endpoint: useMcpEndpoint({
      tools,
      toolRequests,
      refusalOf: options.refusalOf,
      corsOrigins: options.security.corsOrigins,
      loopback: options.loopback,
      maxRequestBytes: options.security.limits.maxRequestBytes,
      maxBatchOperations: options.security.limits.maxBatchOperations,
      maxInputDepth: options.security.limits.maxInputDepth,
      countMessage: options.countMessage,
      countedAlready: options.countedAlready,
      logger: options.logger,
      fetch: options.fetch,
    }),
    toolRequests: toolRequests.plugin(),
    runWith: (headers) => (body) => toolRequests.send(options.fetch, options.fetchAPI(), headers, body),
  };
}
