/**
 * The HTTP answer to work the gateway refused, whatever the client's media type:
 *  - a protection's rejection (see `rejection` in ./errors.ts) keeps its own status under
 *    `Accept: application/json` too. Yoga answers errors it marks `spec` with 200 for that media type
 *    (as the GraphQL-over-HTTP spec says for documents that do not parse or validate), and it marks
 *    every error thrown while parsing that way, overwriting a rejection's `spec: false`;
 *  - Yoga answers 200 for any result with data, whatever its errors said. Lookups the gateway refused
 *    (shed for load, or held by a spent rate limit) get what clients, proxies and load balancers
 *    understand: every response with such a refusal carries `Retry-After` (the longest `retryAfter`
 *    among them), and an operation whose every lookup was shed before it ran (nothing done, nothing
 *    else wrong) is HTTP 503, or 429 when each refusal was the client's own share. A batch keeps its
 *    200 (one status cannot speak for each operation) and still gets the header.
 * Runs before the response is made, so the status and the body agree for both media types.
 */
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../operation/context.js';
import type { LookupReport } from '../cache/lookup-report.js';
import { ActionError, refusedForClient } from '../kernel/errors.js';
import { isRejection } from './errors.js';

interface Refusal {
  retryAfter: number;
  status?: 429 | 503;
}

type HttpExtensions = { http?: { status?: number; headers?: Record<string, string> } };

export function useRefusalStatus(): Plugin<GatewayContext> {
  const batches = new WeakMap<Request, number>();
  return {
    onExecute({ args }) {
      const operation = args.contextValue.operation;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return; // incremental delivery: the status went out with the first part
          const refused = refusalOf(result, operation.lookups);
          if (!refused) return;
          const extensions = (result.extensions ?? {}) as HttpExtensions & Record<string, unknown>;
          const http = {
            ...extensions.http,
            headers: { ...extensions.http?.headers, 'Retry-After': String(refused.retryAfter) },
          };
          // The execution's own result object, made for this request alone.
          (result as ExecutionResult).extensions = {
            ...extensions,
            http: refused.status ? { ...http, status: refused.status } : http,
          };
        },
      };
    },
    onResultProcess({ request, result }) {
      if (Symbol.asyncIterator in result) return;
      const results = Array.isArray(result) ? result : [result];
      for (const error of results.flatMap((single) => single.errors ?? [])) {
        const http = error.extensions?.http;
        if (isRejection(http)) http.spec = false;
      }
      if (!Array.isArray(result)) return;
      let seconds = 0;
      for (const single of result)
        seconds = Math.max(
          seconds,
          Number((single.extensions as HttpExtensions | undefined)?.http?.headers?.['Retry-After'] ?? 0),
        );
      if (seconds > 0) batches.set(request, seconds);
    },
    onResponse({ request, response }) {
      const seconds = batches.get(request);
      if (seconds !== undefined) response.headers.set('Retry-After', String(seconds));
    },
  };
}

/** The refusals among the errors of one result, and whether they were all there was. */
function refusalOf(result: ExecutionResult, lookups: readonly LookupReport[]): Refusal | undefined {
  if (!result.errors?.length) return undefined;
  let retryAfter = 0;
  let onlyShed = true;
  let onlyOwnShare = true;
  for (const error of result.errors) {
    const cause = actionErrorOf(error);
    if (cause?.retryAfter !== undefined) retryAfter = Math.max(retryAfter, cause.retryAfter);
    if (!cause?.shed) onlyShed = false;
    else if (!refusedForClient(cause)) onlyOwnShare = false;
  }
  if (retryAfter === 0) return undefined;
  // Every lookup it made was shed: a lookup served (from the cache or the upstream) or failing otherwise keeps the 200.
  const nothingDone = onlyShed && lookups.every((lookup) => lookup.failed);
  return nothingDone ? { retryAfter, status: onlyOwnShare ? 429 : 503 } : { retryAfter };
}

function actionErrorOf(error: GraphQLError): ActionError | undefined {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause; depth += 1) {
    if (cause instanceof ActionError) return cause;
    cause = (cause as { originalError?: unknown }).originalError;
  }
  return undefined;
}
