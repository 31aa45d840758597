import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** Marks the `extensions.http` of a protection's refusal (a symbol: never serialised). */
const REFUSAL = Symbol('lookup-graph.refusal');

type HttpExtension = { status?: number; spec?: boolean; headers?: Record<string, string>; [REFUSAL]?: true };

/**
 * A rejection by one of the gateway's protections: a GraphQL error with its own `extensions.code`
 * and the HTTP status (and headers) Yoga answers with, whatever media type the client accepts
 * (see useRefusalStatus). Yoga strips `extensions.http` from the body.
 */
export function rejection(
  code: string,
  message: string,
  status: number,
  options: { headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
): GraphQLError {
  const http: HttpExtension = { status, spec: false, ...(options.headers ? { headers: options.headers } : {}), [REFUSAL]: true };
  return new GraphQLError(message, { extensions: { ...options.extensions, code, http } });
}

/**
 * Keeps every refusal at its own status under `Accept: application/json` too. Yoga answers the errors
 * it marks `spec` with 200 for that media type (as the GraphQL-over-HTTP spec says for documents that
 * do not parse or validate), and it marks every error thrown while parsing that way, overwriting a
 * refusal's `spec: false` (MAX_TOKENS_EXCEEDED answered 200 with application/json, 400 otherwise).
 * Runs before the response is made, so the status and the body agree for both media types.
 */
export function useRefusalStatus(): Plugin {
  return {
    onResultProcess({ result }) {
      if (isAsyncIterable(result)) return;
      for (const single of Array.isArray(result) ? result : [result]) {
        for (const error of single.errors ?? []) {
          const http = error.extensions?.http as HttpExtension | undefined;
          if (http?.[REFUSAL]) http.spec = false;
        }
      }
    },
  };
}
