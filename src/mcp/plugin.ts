import {
  isInitializeRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { readWithin } from '../security/body-limit.js';
import { StatelessExchange } from './exchange.js';
import { MCP_PATH } from './path.js';
import type { ExecuteGraphQL, McpTools } from './server.js';
import { type FetchAPI, jsonResponse, type ToolRequests } from './tool-requests.js';

export interface McpEndpointOptions {
  tools: McpTools;
  /** The client auth's verdict on the request (the same check as /graphql's): the refusal, or null. */
  refusalOf(request: Request): GraphQLError | null;
  /** CORS_ORIGINS: a request from a browser page on another origin is refused (DNS rebinding). */
  corsOrigins: string[];
  maxRequestBytes: number;
  /** MAX_BATCH_OPERATIONS: 0 refuses a JSON-RPC batch, else it may hold at most this many messages. */
  maxBatchOperations: number;
  toolRequests: ToolRequests;
  /** Yoga's own fetch, for the tool calls of a JSON-RPC batch: each one GraphQL request through the pipeline. */
  fetch(request: Request, serverContext: unknown): Promise<Response> | Response;
}

const jsonRpcError = (
  fetchAPI: FetchAPI,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
) =>
  new fetchAPI.Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** What Streamable HTTP asks of a POST's headers (the SDK's transport asks the same), or the refusal. */
function headerRefusal(fetchAPI: FetchAPI, request: Request): Response | null {
  const accept = request.headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream'))
    return jsonRpcError(
      fetchAPI,
      406,
      'Not Acceptable: Client must accept both application/json and text/event-stream',
    );
  const type = request.headers.get('content-type');
  if ((type ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json')
    return jsonRpcError(fetchAPI, 415, 'Unsupported Media Type: Content-Type must be application/json');
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
    return jsonRpcError(
      fetchAPI,
      400,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
  return null;
}

/**
 * Streamable HTTP at /mcp, stateless, answering in JSON: one long-lived server of the official SDK
 * handles every request's messages (see StatelessExchange). First in the plugin list: it applies the
 * client auth, the CORS allowlist to `Origin` and the body and batch limits to the MCP request itself,
 * and then a tool call becomes a GraphQL request that takes the MCP request's place, so every plugin
 * after it (the request log, tracing, the protections, the cache) sees one ordinary /graphql request.
 * The calls of a batch each make a GraphQL request of their own through Yoga.
 */
export function useMcpEndpoint(options: McpEndpointOptions): Plugin {
  const origins = new Set(options.corsOrigins);
  const exchange = new StatelessExchange<ExecuteGraphQL>();
  void options.tools.server((requestId) => exchange.contextOf(requestId)).connect(exchange);

  /** The messages of an MCP request, or the HTTP answer that refuses it. */
  const messagesOf = async (
    fetchAPI: FetchAPI,
    request: Request,
    serverContext: unknown,
  ): Promise<{ messages: JSONRPCMessage[]; batch: boolean } | Response> => {
    const origin = request.headers.get('origin');
    if (origin !== null && !origins.has(origin))
      return jsonRpcError(fetchAPI, 403, 'This Origin may not use the MCP endpoint (CORS_ORIGINS).');
    const refusal = options.refusalOf(request);
    if (refusal) {
      const http = refusal.extensions.http as { status?: number; headers?: Record<string, string> } | undefined;
      return jsonRpcError(fetchAPI, http?.status ?? 401, refusal.message, http?.headers);
    }
    if (request.method !== 'POST')
      return jsonRpcError(fetchAPI, 405, 'This MCP server is stateless: send JSON-RPC messages as POST requests.', {
        Allow: 'POST',
      });
    const refused = headerRefusal(fetchAPI, request);
    if (refused) return refused;
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > options.maxRequestBytes)
      return jsonRpcError(fetchAPI, 413, `The request body is larger than ${options.maxRequestBytes} bytes.`);
    let parsed: unknown;
    try {
      // Through node:http a declared length is exactly what arrives (see useBodyLimit): no need to count.
      const viaNode = declared !== null && (serverContext as { req?: unknown } | undefined)?.req !== undefined;
      parsed = JSON.parse(
        viaNode ? await request.text() : new TextDecoder().decode(await readWithin(request, options.maxRequestBytes)),
      );
    } catch (error) {
      if ((error as GraphQLError).extensions?.code === 'PAYLOAD_TOO_LARGE')
        return jsonRpcError(fetchAPI, 413, (error as Error).message);
      return jsonRpcError(fetchAPI, 400, 'Parse error: the body is not JSON.', {}, -32700);
    }
    const batch = Array.isArray(parsed);
    if (batch) {
      if (options.maxBatchOperations === 0)
        return jsonRpcError(fetchAPI, 400, 'Batched JSON-RPC messages are not accepted here (MAX_BATCH_OPERATIONS).');
      if ((parsed as unknown[]).length > options.maxBatchOperations)
        return jsonRpcError(fetchAPI, 400, `A batch may hold at most ${options.maxBatchOperations} messages.`);
    }
    const messages: JSONRPCMessage[] = [];
    for (const message of batch ? (parsed as unknown[]) : [parsed]) {
      const checked = JSONRPCMessageSchema.safeParse(message);
      if (!checked.success) return jsonRpcError(fetchAPI, 400, 'Parse error: Invalid JSON-RPC message', {}, -32700);
      messages.push(checked.data);
    }
    if (messages.length > 1 && messages.some(isInitializeRequest))
      return jsonRpcError(fetchAPI, 400, 'Invalid Request: Only one initialization request is allowed', {}, -32600);
    return { messages, batch };
  };

  return {
    async onRequest({ url, request, endResponse, setRequest, serverContext, fetchAPI }) {
      if (url.pathname !== MCP_PATH) return;
      const read = await messagesOf(fetchAPI, request, serverContext);
      if (read instanceof fetchAPI.Response) return endResponse(read);
      const { messages, batch } = read as Exclude<typeof read, Response>;
      // Notifications and responses change nothing in a stateless server (no session to initialise, no
      // request of this client's still running to cancel): accepted, and not passed on.
      const requests = messages.filter((message): message is JSONRPCRequest => 'method' in message && 'id' in message);
      if (requests.length === 0) return endResponse(new fetchAPI.Response(null, { status: 202 }));

      const run: ExecuteGraphQL = (body) =>
        options.toolRequests.send(options.fetch, fetchAPI, request, body, serverContext);
      if (!batch && requests[0]!.method === 'tools/call') {
        // The tool's GraphQL request takes this request's place; its result becomes the JSON-RPC reply.
        let handOver: ((graphql: Request) => void) | null = null;
        const handedOver = new Promise<Request>((resolve) => {
          handOver = resolve;
        });
        const reply: Promise<JSONRPCMessage> = exchange.request(requests[0]!, (body) => {
          if (!handOver) return run(body);
          const created = options.toolRequests.create(fetchAPI, request, body, () => reply);
          handOver(created.request);
          handOver = null;
          return created.answer;
        });
        const next = await Promise.race([handedOver, reply.then(() => null)]);
        if (next) return setRequest(next);
        return endResponse(jsonResponse(fetchAPI, await reply));
      }
      const responses = await Promise.all(requests.map((message) => exchange.request(message, run)));
      endResponse(jsonResponse(fetchAPI, batch ? responses : responses[0]));
    },
  };
}
