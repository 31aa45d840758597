import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { GRAPHQL_PATH } from '../kernel/graphql-path.js';
import type { GraphQLBody } from './answer.js';

/** Headers of an MCP request that describe its own body: its tool calls' GraphQL requests have their own. */
const OWN = new Set(['content-length', 'content-type', 'accept', 'transfer-encoding']);

export type FetchAPI = Parameters<NonNullable<Plugin['onRequest']>>[0]['fetchAPI'];

/** A tool call's state on its GraphQL request itself, so it goes when the request goes (see cache/answered.ts). */
const TOOL_REQUEST = Symbol('tool request');
type Carrying = Request & { [TOOL_REQUEST]?: ToolRequest };
const pendingOf = (request: Request): ToolRequest | undefined => (request as Carrying)[TOOL_REQUEST];

interface ToolRequest {
  /** Settles the tool's wait for its GraphQL result. */
  answer(body: GraphQLBody): void;
  answered: boolean;
  /** The MCP response the HTTP request is answered with, when the GraphQL request is the MCP request itself. */
  reply?: () => Promise<Response>;
}

/**
 * The GraphQL requests that tool calls make. Each is an ordinary POST to /graphql that goes through
 * every plugin; its result is handed to the tool as an object (the last result hook, once every plugin
 * has stamped it), not serialised for the tool to parse again. A request refused before it ran (shed,
 * rate-limited, unauthenticated) hands over its refusal's body instead.
 */
export class ToolRequests {
  /**
   * A GraphQL request for a tool call, with the headers of `from` (the MCP request: its credentials,
   * trace, origin and encodings; or the headers stdio calls with), and the result it will hand over.
   * `reply`: the MCP response to answer it with, when it stands in for the MCP request itself.
   */
  create(
    fetchAPI: FetchAPI,
    from: Request | Record<string, string>,
    body: Record<string, unknown>,
    reply?: () => Promise<Response>,
  ): { request: Request; answer: Promise<GraphQLBody> } {
    const headers: Record<string, string> = {};
    const given: Iterable<[string, string]> = from instanceof fetchAPI.Request ? from.headers : Object.entries(from);
    for (const [name, value] of given) if (!OWN.has(name)) headers[name] = value;
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json';
    const request = new fetchAPI.Request(`http://localhost${GRAPHQL_PATH}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const answer = new Promise<GraphQLBody>((resolve) => {
      const pending: ToolRequest = {
        answered: false,
        answer: (result) => {
          pending.answered = true;
          resolve(result);
        },
        ...(reply ? { reply } : {}),
      };
      (request as Carrying)[TOOL_REQUEST] = pending;
    });
    return { request, answer };
  }

  /** A tool call's GraphQL request made through `fetch` (Yoga's own), and its result. */
  send(
    fetch: (request: Request, serverContext?: unknown) => unknown,
    fetchAPI: FetchAPI,
    from: Request | Record<string, string>,
    body: Record<string, unknown>,
    serverContext?: unknown,
  ): Promise<GraphQLBody> {
    const { request, answer } = this.create(fetchAPI, from, body);
    void fetch(request, serverContext);
    return answer;
  }

  /** The plugin that hands results over: after every plugin that changes a result, before compression. */
  plugin(): Plugin {
    return {
      onResultProcess({ request, result, setResultProcessor }) {
        const pending = pendingOf(request);
        if (!pending) return;
        pending.answer(bodyOf(result));
        setResultProcessor(async (_result, fetchAPI) => {
          if (!pending.reply) return new fetchAPI.Response(null, { status: 200 });
          return pending.reply();
        }, 'application/json');
      },
      async onResponse({ request, response, setResponse }) {
        const pending = pendingOf(request);
        if (!pending || pending.answered) return;
        // Refused before it ran: the refusal's own GraphQL body (its status in a code the tool reads).
        pending.answer(await refusalBody(response));
        if (pending.reply) setResponse(await pending.reply());
      },
    };
  }
}

/** A JSON-RPC answer; its headers a new object each time (the Response keeps it, and later plugins add to it). */
export function jsonResponse(fetchAPI: FetchAPI, message: unknown): Response {
  return jsonTextResponse(fetchAPI, JSON.stringify(message));
}

/** The same of a message serialised already. */
export function jsonTextResponse(fetchAPI: FetchAPI, json: string): Response {
  return new fetchAPI.Response(json, { status: 200, headers: { 'content-type': 'application/json' } });
}

/** A result as its JSON would read, without serialising it: errors as their JSON shape, Yoga's HTTP hints left out. */
function bodyOf(result: Parameters<NonNullable<Plugin['onResultProcess']>>[0]['result']): GraphQLBody {
  if (Array.isArray(result) || isAsyncIterable(result)) {
    return {
      errors: [
        { message: 'A tool runs one operation without @defer or @stream.', extensions: { code: 'BAD_USER_INPUT' } },
      ],
    };
  }
  const { data, errors, extensions } = result as ExecutionResult;
  const { http: _http, ...rest } = (extensions ?? {}) as Record<string, unknown>;
  return {
    ...(data !== undefined ? { data: data as GraphQLBody['data'] } : {}),
    ...(errors?.length
      ? {
          errors: errors.map((error) => {
            const { http: _status, ...codes } = (error.extensions ?? {}) as Record<string, unknown>;
            return { message: error.message, ...(error.path ? { path: [...error.path] } : {}), extensions: codes };
          }),
        }
      : {}),
    ...(Object.keys(rest).length > 0 ? { extensions: rest } : {}),
  };
}

async function refusalBody(response: Response): Promise<GraphQLBody> {
  try {
    return JSON.parse(await response.text()) as GraphQLBody;
  } catch {
    const code = response.status === 401 ? 'UNAUTHENTICATED' : 'INTERNAL_SERVER_ERROR';
    return { errors: [{ message: `The gateway answered HTTP ${response.status}.`, extensions: { code } }] };
  }
}
