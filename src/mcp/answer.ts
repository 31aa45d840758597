import type { CallToolResult } from '@modelcontextprotocol/server';
import { type Fitted, fitAnswer } from './fit.js';

/** A GraphQL response body as the gateway sends it. */
export interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

/** One error as an agent reads it: what failed where, and what to do about it. */
export interface AgentError {
  code: string;
  message: string;
  path?: string;
  argument?: string;
  /** Seconds to wait before the same call can succeed (RATE_LIMITED, QUOTA_EXCEEDED, OVERLOADED). */
  retryAfter?: number;
  whatToDo: string;
}

/** What an agent should do about an error code (docs/errors.md tells the same to frontends). */
function whatToDo(code: string, retryAfter: unknown, argument: unknown): string {
  const wait = typeof retryAfter === 'number' ? `Retry after ${retryAfter} seconds.` : 'Retry in a few seconds.';
  switch (code) {
    case 'NOT_FOUND':
      return 'Nothing exists under this input: check its spelling, or search for the right one first.';
    case 'BAD_USER_INPUT':
      return typeof argument === 'string'
        ? `Correct the argument "${argument}" and call again.`
        : 'Correct the arguments and call again.';
    case 'RATE_LIMITED':
    case 'OVERLOADED':
      return wait;
    case 'UPSTREAM_TIMEOUT':
    case 'UPSTREAM_UNAVAILABLE':
    case 'UPSTREAM_BAD_RESPONSE':
      return `The data service failed for now. ${wait}`;
    case 'COST_LIMIT_EXCEEDED':
      return 'Ask for less in one call (fewer links or a smaller "first").';
    case 'UNAUTHENTICATED':
      return 'The credentials were refused: the user must configure a valid API key (MCP_API_KEY for the stdio server, the authorization header over HTTP); retrying will not help.';
    case 'QUOTA_EXCEEDED':
      return typeof retryAfter === 'number'
        ? `This client's quota of paid lookups is spent: retry after ${retryAfter} seconds, or use answers you already have.`
        : "This client's quota of paid lookups is spent: use answers you already have, or ask for less.";
    case 'GRAPHQL_PARSE_FAILED':
    case 'GRAPHQL_VALIDATION_FAILED':
      return 'Correct the query: search_schema finds the types and fields it may use.';
    case 'PERSISTED_QUERY_ONLY':
    case 'PERSISTED_QUERY_NOT_FOUND':
      return 'Only the predefined tools run on this server: use one of them.';
    default:
      return 'Do not retry the same call unchanged.';
  }
}

function agentErrors(errors: NonNullable<GraphQLBody['errors']>): AgentError[] {
  return errors.map((error) => {
    const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'INTERNAL_SERVER_ERROR';
    const argument = error.extensions?.argument;
    // A quota's refusal says when its window resets: the time to come back, as RATE_LIMITED's retryAfter.
    const given =
      error.extensions?.retryAfter ?? (code === 'QUOTA_EXCEEDED' ? error.extensions?.resetSeconds : undefined);
    const retryAfter = typeof given === 'number' ? given : undefined;
    return {
      code,
      message: error.message,
      ...(error.path ? { path: error.path.join('.') } : {}),
      ...(typeof argument === 'string' ? { argument } : {}),
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      whatToDo: whatToDo(code, retryAfter, argument),
    };
  });
}

/** Whether a root field's value holds anything: not null, nor a list of nulls only (an empty list is an answer). */
const hasData = (value: unknown): boolean =>
  value !== null && (!Array.isArray(value) || value.length === 0 || value.some(hasData));

/** A tool result that is an error: one text block of `{ errors: [...] }`. */
export function errorResult(errors: AgentError[], meta?: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ errors }) }],
    ...(meta ? { _meta: meta } : {}),
  };
}

/**
 * The tool result of a GraphQL response: the data (with the failed lookups beside it in `_errors`) as
 * structuredContent and as one text block of the same compact JSON, bounded to `maxBytes`; an error
 * result when no lookup answered. `_meta.gateway` is the response's `extensions.gateway`.
 */
export function toolResult(body: GraphQLBody, maxBytes: number, more: string): CallToolResult {
  const gateway = body.extensions?.gateway;
  const meta = gateway ? { gateway } : undefined;
  const errors = body.errors && body.errors.length > 0 ? agentErrors(body.errors) : [];
  const data = body.data ?? null;
  const answered = data !== null && Object.values(data).some(hasData);
  if (!answered) {
    return errorResult(
      errors.length > 0
        ? errors
        : [{ code: 'NOT_FOUND', message: 'The lookup returned nothing.', whatToDo: whatToDo('NOT_FOUND', null, null) }],
      meta,
    );
  }
  const fitted =
    errors.length > 0 ? fitAnswer({ ...data, _errors: errors }, maxBytes, more) : fitOnce(data, maxBytes, more);
  return {
    content: [{ type: 'text', text: fitted.json }],
    structuredContent: fitted.value,
    ...(meta ? { _meta: meta } : {}),
  };
}

interface Serialised {
  fitted: Fitted;
  maxBytes: number;
  more: string;
  /** The answer's JSON as a JSON string: the text block, serialised. */
  quoted: string;
}

/**
 * Answers fitted from data without errors, by that data: a remembered result (see cache/result-memo.ts)
 * hands every replay the same data object, so its answer is fitted and serialised once, not per call.
 */
const fittedByData = new WeakMap<object, Serialised>();
/** The same, by the answer a tool result carries as structuredContent. */
const serialisedByAnswer = new WeakMap<object, Serialised>();

function fitOnce(data: Record<string, unknown>, maxBytes: number, more: string): Fitted {
  const known = fittedByData.get(data);
  if (known && known.maxBytes === maxBytes && known.more === more) return known.fitted;
  const fitted = fitAnswer(data, maxBytes, more);
  const serialised = { fitted, maxBytes, more, quoted: JSON.stringify(fitted.json) };
  fittedByData.set(data, serialised);
  serialisedByAnswer.set(fitted.value, serialised);
  return fitted;
}

/**
 * A tool result's JSON. One that `toolResult` made of remembered data has its answer's JSON spliced in
 * (its text block and structuredContent), as a remembered GraphQL result has its data's: only `_meta` is
 * serialised for the call.
 */
export function toolResultJson(result: CallToolResult): string {
  const { content, structuredContent, ...rest } = result;
  const known = structuredContent ? serialisedByAnswer.get(structuredContent) : undefined;
  const [block] = content;
  if (!known || content.length !== 1 || block?.type !== 'text' || block.text !== known.fitted.json)
    return JSON.stringify(result);
  const tail = JSON.stringify(rest);
  return `{"content":[{"type":"text","text":${known.quoted}}],"structuredContent":${known.fitted.json}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
}
