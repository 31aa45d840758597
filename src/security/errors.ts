import { GraphQLError } from 'graphql';

/**
 * A rejection by one of the gateway's protections: a GraphQL error with its own `extensions.code`
 * and the HTTP status (and headers) Yoga answers with. Yoga strips `extensions.http` from the body.
 */
export function rejection(
  code: string,
  message: string,
  status: number,
  options: { headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
): GraphQLError {
  return new GraphQLError(message, {
    extensions: {
      ...options.extensions,
      code,
      // spec: false keeps the status when the client accepts only application/json (Yoga answers
      // spec validation errors with 200 there, as the GraphQL-over-HTTP spec says for that type).
      http: { status, spec: false, ...(options.headers ? { headers: options.headers } : {}) },
    },
  });
}
