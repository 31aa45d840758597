import { GraphQLError } from 'graphql';
import { ActionError } from './errors.js';

/**
 * Yoga's maskError: coded ActionErrors become GraphQL errors with `extensions.code` (and `action`,
 * `retryAfter`); GraphQL's own errors pass; anything else is masked with no message or stack.
 * With `hideDetails` (production) a passing error loses `extensions.originalError`, which Yoga's request
 * parser adds (the SyntaxError of a malformed JSON body): a client sees the code and message only.
 */
export function maskError(error: unknown, message: string, hideDetails = false): Error {
  const graphqlError = error instanceof GraphQLError ? error : null;
  const original = graphqlError ? graphqlError.originalError : error;
  if (original instanceof ActionError) {
    return new GraphQLError(original.message, {
      nodes: graphqlError?.nodes,
      source: graphqlError?.source,
      positions: graphqlError?.positions,
      path: graphqlError?.path,
      extensions: {
        ...original.extensions,
        code: original.code,
        ...(original.action ? { action: original.action } : {}),
        ...(original.retryAfter !== undefined ? { retryAfter: original.retryAfter } : {}),
      },
    });
  }
  if (graphqlError && (!original || original instanceof GraphQLError)) {
    // In place: a new error object would make Yoga log a client's malformed body as a server error.
    // graphql-jit makes errors of its own with no extensions object at all.
    if (hideDetails && graphqlError.extensions && 'originalError' in graphqlError.extensions)
      delete (graphqlError.extensions as Record<string, unknown>).originalError;
    return graphqlError;
  }
  return new GraphQLError(message, {
    nodes: graphqlError?.nodes,
    source: graphqlError?.source,
    positions: graphqlError?.positions,
    path: graphqlError?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
