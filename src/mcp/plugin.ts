import {
  createMcpHandler,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isLegacyRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { readWithin } from '../security/body-limit.js';
import { errorResult } from './answer.js';
import { StatelessExchange } from './exchange.js';
import { answerToolCall, surelyLegacy } from './tool-call.js';
import { allowedOrigins, originRefusal } from './origins.js';
import { invalidParams, tooDeep } from './params.js';
import { MCP_PATH } from './path.js';
import { type Caller, type ExecuteGraphQL, type McpTools, PROTOCOL_VERSIONS } from './server.js';
import { type FetchAPI, jsonResponse, jsonTextResponse, type ToolRequests } from './tool-requests.js';
import { rejection } from '../security/errors.js';
import { sha256Hex } from '../security/trusted-documents.js';

export interface McpEndpointOptions {
  tools: McpTools;
  /** The client auth's verdict on the request (the same check as /graphql's): the refusal, or null. */
  refusalOf(request: Request): Promise<GraphQLError | null> | GraphQLError | null;
  /** CORS_ORIGINS: a request from a browser page on another origin is refused (DNS rebinding). */
  corsOrigins: string[];
  /** The gateway listens on a loopback address: same-origin and loopback origins and hosts are accepted too. */
  loopback: boolean;
  maxRequestBytes: number;
  /** MAX_BATCH_OPERATIONS: 0 refuses a JSON-RPC batch, else it may hold at most this many messages. */
  maxBatchOperations: number;
  toolRequests: ToolRequests;
  /** Yoga's own fetch, for the tool calls of a JSON-RPC batch: each one GraphQL request through the pipeline. */
  fetch(request: Request, serverContext: unknown): Promise<Response> | Response;
  /** MAX_INPUT_DEPTH: how deep a value of a message may nest (a tool argument as a variable on /graphql). */
  maxInputDepth: number;
  /** Counts one message toward the client rate limit (CLIENT_RATE_LIMIT_PER_MINUTE): the refusal, or null. */
  countMessage(request: Request, serverContext: unknown): Promise<GraphQLError | null>;
  /** A batch's tool call's GraphQL request, whose message countMessage counted: not counted again. */
  countedAlready(request: Request): void;
  /** Where the one line of an MCP request with refused messages goes. */
  logger: Logger;
}

type RequestId = string | number | null;

/** A JSON-RPC message's own id when it has one that can be answered under. */
const idOf = (message: unknown): RequestId => {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** A coded refusal (rate limit, depth) as a JSON-RPC error: its code and extensions in `data`. */
function rpcErrorOf(refusal: GraphQLError, id: RequestId, code: number) {
  const { http: _http, ...data } = refusal.extensions as Record<string, unknown>;
  return { jsonrpc: '2.0' as const, id, error: { code, message: refusal.message, data } };
}

/** The same as an HTTP answer, with the refusal's status and headers (Retry-After). */
function refusalResponse(fetchAPI: FetchAPI, refusal: GraphQLError, id: RequestId, code: number): Response {
  const http = refusal.extensions.http as { status?: number; headers?: Record<string, string> } | undefined;
  return new fetchAPI.Response(JSON.stringify(rpcErrorOf(refusal, id, code)), {
    status: http?.status ?? 400,
    headers: { 'content-type': 'application/json', ...http?.headers },
  });
}

/** A request the endpoint answered refusing some or all of its messages itself (no GraphQL request logged them). */
interface Refused {
  messages: number;
  codes: string[];
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
  if (version !== null && !PROTOCOL_VERSIONS.includes(version))
    return jsonRpcError(
      fetchAPI,
      400,
      `Bad Request: Unsupported protocol version: ${version} (supported versions: ${PROTOCOL_VERSIONS.join(', ')})`,
    );
  return null;
}

/**
 * Streamable HTTP at /mcp, stateless, answering in JSON: a single 2025-era tool call is answered by the
 * tools themselves (see tool-call.ts), every other 2025-era message by one long-lived server of the
 * official SDK (see StatelessExchange), and 2026-07-28 messages by the SDK's handler, a server per
 * request. First in the plugin list: it applies the
 * client auth, the CORS allowlist to `Origin` and the body and batch limits to the MCP request itself,
 * and then a tool call becomes a GraphQL request that takes the MCP request's place, so every plugin
 * after it (the request log, tracing, the protections, the cache) sees one ordinary /graphql request.
 * The calls of a batch each make a GraphQL request of their own through Yoga.
 */
export function useMcpEndpoint(options: McpEndpointOptions): Plugin {
  const origins = allowedOrigins(options.corsOrigins);
  /** Who sent each admitted MCP request: its messages' calls run with its credentials. */
  const callers = new WeakMap<Request, Caller>();
  const callerOf = (ctx: ServerContext): Caller => {
    const caller = ctx.http?.req ? callers.get(ctx.http.req) : undefined;
    if (!caller) throw new Error('An MCP message came from a request the endpoint did not admit.');
    return caller;
  };
  // 2026-07-28 (a request with its `_meta` envelope): the SDK's stateless handler, a server per request.
  const modern = createMcpHandler(() => options.tools.server(callerOf), { legacy: 'reject' });
  // 2025-era messages (initialize, then requests without an envelope): one long-lived server for all.
  const exchange = new StatelessExchange();
  let connected: Promise<void> | null = null;
  const legacy = async (fetchAPI: FetchAPI, request: Request, body: JSONRPCRequest | JSONRPCRequest[]) => {
    connected ??= (() => {
      const server = options.tools.server(callerOf);
      // Shared by every client, it keeps no level between requests: its answers carry no notices anyway.
      server.setRequestHandler('logging/setLevel', () => ({}));
      return server.connect(exchange);
    })();
    await connected;
    const replies = Array.isArray(body)
      ? await Promise.all(body.map((message) => exchange.request(message, request)))
      : await exchange.request(body, request);
    return jsonResponse(fetchAPI, replies);
  };
  /** One MCP request's messages through the SDK, as the caller: the era each message claims decides the leg. */
  const serve = async (
    fetchAPI: FetchAPI,
    request: Request,
    body: JSONRPCRequest | JSONRPCRequest[],
    caller: Caller,
  ): Promise<Response> => {
    callers.set(request, caller);
    const legacyEra = Array.isArray(body)
      ? body.every((message) => surelyLegacy(request, message))
      : surelyLegacy(request, body);
    if (legacyEra || (await isLegacyRequest(request, body))) return legacy(fetchAPI, request, body);
    const response = await modern.fetch(request, { parsedBody: body });
    // A JSON answer made again with Yoga's own Response, so the plugins after (compression) treat it as theirs.
    if (!response.headers.get('content-type')?.startsWith('application/json')) return response;
    return new fetchAPI.Response(await response.text(), {
      status: response.status,
      headers: { 'content-type': 'application/json' },
    });
  };

  /** A JSON-RPC request of this client refused before it ran (RATE_LIMITED); a tool call's as a tool error. */
  const refusedAnswer = (message: JSONRPCMessage, refusal: GraphQLError): JSONRPCMessage => {
    const id = idOf(message) as string | number;
    if ('method' in message && message.method === 'tools/call') {
      const { extensions } = refusal;
      const retryAfter = typeof extensions.retryAfter === 'number' ? extensions.retryAfter : null;
      const wait = retryAfter === null ? 'Retry in a few seconds.' : `Retry after ${retryAfter} seconds.`;
      return {
        jsonrpc: '2.0',
        id,
        result: errorResult([{ code: String(extensions.code), message: refusal.message, whatToDo: wait }]),
      };
    }
    return rpcErrorOf(refusal, id, -32000) as JSONRPCMessage;
  };

  /**
   * The messages of an MCP request, or the HTTP answer that refuses it. `refused`: messages of this
   * client over its rate limit, by index; `counted`: whether the endpoint counted the messages (every
   * request but a single tool call, whose GraphQL request counts it).
   */
  const messagesOf = async (
    fetchAPI: FetchAPI,
    request: Request,
    serverContext: unknown,
    log: (refused: Refused) => void,
  ): Promise<{ messages: JSONRPCMessage[]; batch: boolean; refused: Map<number, GraphQLError> } | Response> => {
    const foreign = originRefusal(request, origins, options.loopback);
    if (foreign) return jsonRpcError(fetchAPI, 403, foreign);
    const refusal = await options.refusalOf(request);
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
    /** A body refused whole still counts as one message: over the limit, the rate limit's answer instead. */
    const refuseBody = async (answer: () => Response, code: string) => {
      const overLimit = await options.countMessage(request, serverContext);
      const response = overLimit ? refusalResponse(fetchAPI, overLimit, null, -32000) : answer();
      log({ messages: 1, codes: [overLimit ? String(overLimit.extensions.code) : code] });
      return response;
    };
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
      return refuseBody(
        () => jsonRpcError(fetchAPI, 400, 'Parse error: the body is not JSON.', {}, -32700),
        'PARSE_ERROR',
      );
    }
    const batch = Array.isArray(parsed);
    const raw = batch ? (parsed as unknown[]) : [parsed];
    // Before anything reads the messages further (schemas, the SDK, logs): a loop, linear in the body.
    for (const message of raw) {
      const deep = tooDeep(message, options.maxInputDepth);
      if (!deep) continue;
      return refuseBody(
        () =>
          refusalResponse(
            fetchAPI,
            rejection(
              'MAX_INPUT_DEPTH_EXCEEDED',
              `${deep} nests lists or objects more than ${options.maxInputDepth} deep.`,
              400,
              {
                extensions: { limit: options.maxInputDepth },
              },
            ),
            batch ? null : idOf(message),
            -32602,
          ),
        'MAX_INPUT_DEPTH_EXCEEDED',
      );
    }
    if (batch) {
      if (options.maxBatchOperations === 0)
        return refuseBody(
          () => jsonRpcError(fetchAPI, 400, 'Batched JSON-RPC messages are not accepted here (MAX_BATCH_OPERATIONS).'),
          'BATCH_NOT_ALLOWED',
        );
      if (raw.length > options.maxBatchOperations)
        return refuseBody(
          () => jsonRpcError(fetchAPI, 400, `A batch may hold at most ${options.maxBatchOperations} messages.`),
          'BATCH_TOO_LARGE',
        );
    }
    // Every message counts once, here; a single tool call is counted by the GraphQL request it becomes.
    const single = !batch && (parsed as { method?: unknown } | null)?.method === 'tools/call';
    const overLimit = new Map<number, GraphQLError>();
    if (!single) {
      const verdicts = await Promise.all(raw.map(() => options.countMessage(request, serverContext)));
      for (const [index, verdict] of verdicts.entries()) if (verdict) overLimit.set(index, verdict);
      if (!batch && overLimit.size > 0) {
        log({ messages: 1, codes: [String(overLimit.get(0)!.extensions.code)] });
        return refusalResponse(fetchAPI, overLimit.get(0)!, idOf(parsed), -32000);
      }
    }
    const messages: JSONRPCMessage[] = [];
    for (const message of raw) {
      if (!isJSONRPCRequest(message) && !isJSONRPCNotification(message) && !isJSONRPCResponse(message)) {
        log({ messages: raw.length, codes: ['INVALID_REQUEST'] });
        return jsonRpcError(fetchAPI, 400, 'Parse error: Invalid JSON-RPC message', {}, -32700);
      }
      messages.push(message);
    }
    if (messages.length > 1 && messages.some(isInitializeRequest))
      return jsonRpcError(fetchAPI, 400, 'Invalid Request: Only one initialization request is allowed', {}, -32600);
    if (overLimit.size > 0)
      log({ messages: raw.length, codes: [...overLimit.values()].map((refusal) => String(refusal.extensions.code)) });
    return { messages, batch, refused: overLimit };
  };

  return {
    async onRequest({ url, request, endResponse, setRequest, serverContext, fetchAPI }) {
      if (url.pathname !== MCP_PATH) return;
      const started = performance.now();
      let refusedOf: Refused | null = null;
      const read = await messagesOf(fetchAPI, request, serverContext, (refused) => {
        refusedOf = refused;
      });
      /** One line for the request however many of its messages were refused, written when it is answered. */
      const answer = (response: Response) => {
        const refused = refusedOf as Refused | null;
        if (refused) {
          options.logger.info(
            {
              request: {
                mcp: true,
                status: response.status,
                durationMs: Math.round((performance.now() - started) * 1000) / 1000,
                messages: refused.messages,
                refused: refused.codes.length,
                errorCodes: [...new Set(refused.codes)],
              },
            },
            'mcp request',
          );
        }
        endResponse(response);
      };
      if (read instanceof fetchAPI.Response) return answer(read);
      const { messages, batch, refused } = read as Exclude<typeof read, Response>;
      // Notifications and responses change nothing in a stateless server (no session to initialise, no
      // request of this client's still running to cancel): accepted, and not passed on.
      const requests = messages
        .map((message, index) => ({ message, refusal: refused.get(index) }))
        .filter((entry): entry is { message: JSONRPCRequest; refusal: GraphQLError | undefined } => {
          const { message } = entry;
          return 'method' in message && 'id' in message;
        });
      if (requests.length === 0) return answer(new fetchAPI.Response(null, { status: 202 }));
      const client = clientOf(request, serverContext);
      // Bad params are the client's mistake (-32602), not the server's internal error.
      if (!batch) {
        const invalid = invalidParams(requests[0]!.message);
        if (invalid) return answer(jsonResponse(fetchAPI, invalid));
      }

      if (!batch && requests[0]!.message.method === 'tools/call') {
        // The tool's GraphQL request takes this request's place; the call's answer becomes its response.
        let handOver: ((graphql: Request) => void) | null = null;
        const handedOver = new Promise<Request>((resolve) => {
          handOver = resolve;
        });
        const run: ExecuteGraphQL = (body) => {
          if (!handOver) return options.toolRequests.send(options.fetch, fetchAPI, request, body, serverContext);
          const created = options.toolRequests.create(fetchAPI, request, body, () => reply);
          handOver(created.request);
          handOver = null;
          return created.answer;
        };
        const message = requests[0]!.message;
        const reply: Promise<Response> = surelyLegacy(request, message)
          ? answerToolCall(options.tools, message, { run, client }).then((json) => jsonTextResponse(fetchAPI, json))
          : serve(fetchAPI, request, message, { run, client });
        const next = await Promise.race([handedOver, reply.then(() => null)]);
        if (next) return setRequest(next);
        return answer(await reply);
      }
      // A batch's tool calls were counted with their messages: their GraphQL requests are not counted again.
      const run: ExecuteGraphQL = (body) => {
        const created = options.toolRequests.create(fetchAPI, request, body);
        options.countedAlready(created.request);
        void options.fetch(created.request, serverContext);
        return created.answer;
      };
      if (!batch) return answer(await serve(fetchAPI, request, requests[0]!.message, { run, client }));
      const invalid = new Map(requests.map(({ message }) => [message.id, invalidParams(message)]));
      const admitted = requests
        .filter(({ message, refusal }) => !refusal && !invalid.get(message.id))
        .map(({ message }) => message);
      const served = admitted.length > 0 ? await serve(fetchAPI, request, admitted, { run, client }) : null;
      const replies = served && served.status === 200 ? ((await served.json()) as JSONRPCMessage[]) : [];
      if (served && served.status !== 200) return answer(served);
      const byId = new Map(replies.map((reply) => [idOf(reply), reply]));
      const responses = requests.map(({ message, refusal }) =>
        refusal ? refusedAnswer(message, refusal) : (invalid.get(message.id) ?? byId.get(message.id)),
      );
      answer(jsonResponse(fetchAPI, responses.filter(Boolean)));
    },
  };
}

/**
 * Who sends an MCP request, for what only that client may see (completion's recent keys): a hash of its
 * credentials, or without any its address.
 */
function clientOf(request: Request, serverContext: unknown): string {
  const credentials = request.headers.get('authorization') ?? request.headers.get('x-api-key');
  if (credentials) return `key:${sha256Hex(credentials)}`;
  const address = (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket
    ?.remoteAddress;
  return `address:${address ?? 'in-process'}`;
}
