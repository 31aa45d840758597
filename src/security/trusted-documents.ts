import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';

/**
 * Trusted documents (TRUSTED_DOCUMENTS_FILE): only the operations of the file run, asked for by
 * `extensions: { persistedQuery: { version: 1, sha256Hash } }`. A raw query is PERSISTED_QUERY_ONLY,
 * an unknown hash PERSISTED_QUERY_NOT_FOUND, a request with neither PERSISTED_QUERY_ID_REQUIRED;
 * all HTTP 400. The trusted documents still pass the operation limits.
 */
export function useTrustedDocuments(documents: Map<string, string>): Plugin {
  return usePersistedOperations({
    allowArbitraryOperations: false,
    getPersistedOperation: (hash) => documents.get(hash) ?? null,
    customErrors: {
      notFound: {
        message: 'This operation is not one of the gateway\'s trusted documents.',
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
      },
      persistedQueryOnly: {
        message: 'Only trusted documents run here: send extensions.persistedQuery { version: 1, sha256Hash } instead of a query.',
        extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
      },
      keyNotFound: {
        message: 'Send extensions.persistedQuery { version: 1, sha256Hash } naming a trusted document.',
        extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } },
      },
    },
  }) as Plugin;
}
