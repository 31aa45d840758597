import { GraphQLError } from 'graphql';

/** Marks the `extensions.http` of a protection's refusal (a symbol: never serialised). */
const REFUSAL = Symbol('lookup-graph.refusal');

type HttpExtension = { status?: number; spec?: boolean; headers?: Record<string, string>; [REFUSAL]?: true };

/**
 * A rejection by one of the gateway's protections: a GraphQL error with its own `extensions.code`
 * and the HTTP status (and headers) Yoga answers with, whatever media type the client accepts
 * (see ./refusal-status.ts). Yoga strips `extensions.http` from the body.
 */
export function rejection(
  code: string,
  message: string,
  status: number,
  options: { headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
): GraphQLError {
  const http: HttpExtension = {
    status,
    spec: false,
    ...(options.headers ? { headers: options.headers } : {}),
    [REFUSAL]: true,
  };
  return new GraphQLError(message, { extensions: { ...options.extensions, code, http } });
}

/** Whether an error's `extensions.http` is a rejection's (see ./refusal-status.ts). */
export function isRejection(http: unknown): http is HttpExtension {
  return typeof http === 'object' && http !== null && (http as HttpExtension)[REFUSAL] === true;
}
