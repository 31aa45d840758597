import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { readWithin } from '../security/body-limit.js';
import type { GraphQLBody } from './answer.js';
import type { McpTools } from './server.js';

const MCP_PATH = '/mcp';

export interface McpEndpointOptions {
  tools: McpTools;
  /** The client auth's verdict on the request (the same check as /graphql's): the refusal, or null. */
  refusalOf(request: Request): GraphQLError | null;
  /** CORS_ORIGINS: a request from a browser page on another origin is refused (DNS rebinding). */
  corsOrigins: string[];
  maxRequestBytes: number;
  /** MAX_BATCH_OPERATIONS: 0 refuses a JSON-RPC batch, else it may hold at most this many messages. */
  maxBatchOperations: number;
  /** One GraphQL request through the gateway's pipeline, made with this MCP request's credentials. */
  run(request: Request, serverContext: unknown, body: Record<string, unknown>): Promise<GraphQLBody>;
}

const jsonRpcError = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/**
 * Streamable HTTP at /mcp (stateless: a server and transport of the official SDK per request). Placed
 * after the security plugins; since Yoga's parse hooks never run for it, it applies the same client
 * auth, the CORS allowlist to `Origin`, and the body and batch limits itself, then each tool call is one
 * GraphQL request through Yoga with the caller's credentials.
 */
export function useMcpEndpoint(options: McpEndpointOptions): Plugin {
  const origins = new Set(options.corsOrigins);
  const answer = async (request: Request, serverContext: unknown): Promise<Response> => {
    const origin = request.headers.get('origin');
    if (origin !== null && !origins.has(origin)) return jsonRpcError(403, 'This Origin may not use the MCP endpoint (CORS_ORIGINS).');
    const refusal = options.refusalOf(request);
    if (refusal) {
      const http = refusal.extensions.http as { status?: number; headers?: Record<string, string> } | undefined;
      return jsonRpcError(http?.status ?? 401, refusal.message, http?.headers);
    }
    if (request.method !== 'POST') return jsonRpcError(405, 'This MCP server is stateless: send JSON-RPC messages as POST requests.', { Allow: 'POST' });
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > options.maxRequestBytes)
      return jsonRpcError(413, `The request body is larger than ${options.maxRequestBytes} bytes.`);
    let parsed: unknown;
    try {
      // Through node:http a declared length is exactly what arrives (see useBodyLimit): no need to count.
      const viaNode = declared !== null && (serverContext as { req?: unknown } | undefined)?.req !== undefined;
      parsed = JSON.parse(viaNode ? await request.text() : new TextDecoder().decode(await readWithin(request, options.maxRequestBytes)));
    } catch (error) {
      if ((error as GraphQLError).extensions?.code === 'PAYLOAD_TOO_LARGE') return jsonRpcError(413, (error as Error).message);
      return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON.' }, id: null }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (Array.isArray(parsed)) {
      if (options.maxBatchOperations === 0) return jsonRpcError(400, 'Batched JSON-RPC messages are not accepted here (MAX_BATCH_OPERATIONS).');
      if (parsed.length > options.maxBatchOperations) return jsonRpcError(400, `A batch may hold at most ${options.maxBatchOperations} messages.`);
    }
    const server = options.tools.server((body) => options.run(request, serverContext, body));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // Not closed after: in JSON-response mode nothing of the exchange outlives its answer (no stream, no
    // timer), and closing costs a tenth of a cached call (every request handler's abort).
    return transport.handleRequest(request, { parsedBody: parsed });
  };
  return {
    onRequest({ url, request, endResponse, serverContext }) {
      if (url.pathname !== MCP_PATH) return;
      return answer(request, serverContext).then(endResponse);
    },
  };
}
