// Hand-written rather than @graphql-yoga/plugin-apq: that plugin (3.6.2, peer @graphql-tools/utils ^10)
// does not install beside this project's graphql-tools 11/12, answers an unknown hash and a wrong hash
// with one status switch, and stores a query before it is known to parse and pass the limits.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { rejection } from './errors.js';
import { entryCost, type PersistedQueryStore } from './persisted-query-store.js';
import { RegistrationShares } from './registration-shares.js';
import { sha256Hex } from './trusted-documents.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** `extensions.persistedQuery` of a request, or null when it has none. */
function persistedQueryOf(extensions: unknown): { version?: unknown; sha256Hash?: unknown } | null {
  const persisted = (extensions as { persistedQuery?: unknown } | null | undefined)?.persistedQuery;
  return persisted !== null && typeof persisted === 'object'
    ? (persisted as { version?: unknown; sha256Hash?: unknown })
    : null;
}

/**
 * The answer clients wait for to send the query text with its hash. Apollo Client's PersistedQueryLink
 * reads the code or the message, urql's persistedExchange the message alone; HTTP 200 under both media
 * types, as both expect (not a refusal: the client retries at once). Like every answer with errors, it
 * says Cache-Control: no-store (src/cache/cache-control.ts), so no shared cache keeps a miss for a GET.
 */
const notFound = () =>
  new GraphQLError('PersistedQueryNotFound', {
    extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200 } },
  });

/**
 * Automatic persisted queries, the protocol of Apollo Client's PersistedQueryLink and urql's
 * persistedExchange: a request names its query by `extensions.persistedQuery { version: 1, sha256Hash }`.
 * - The hash alone: the registered query runs, or PERSISTED_QUERY_NOT_FOUND (HTTP 200) asks for its text.
 * - The hash with its query: the hash must be the sha256 of the text (else PERSISTED_QUERY_HASH_MISMATCH,
 *   400); the query runs as any other, and is registered once it has parsed and passed validation and
 *   the operation limits, so nothing that would be refused is ever stored. Each client registers
 *   within its share of the budget (`shareBytes`, per process): its registrations past it push out
 *   its own oldest ones, so one client cannot evict everyone else's.
 * Another version, or a hash that is not 64 hex characters, is PERSISTED_QUERY_NOT_SUPPORTED (400).
 */
export function useAutomaticPersistedQueries(
  store: PersistedQueryStore,
  fairness: { clientOf: (request: Request, serverContext: unknown) => string; shareBytes: number },
): Plugin {
  const shares = new RegistrationShares(fairness.shareBytes);
  // Hashes whose query arrived with them in a request, by request (a batch holds several), until validated.
  const pending = new WeakMap<Request, Map<string, string>>();
  return {
    async onParams({ params, setParams, request }) {
      const persisted = persistedQueryOf(params.extensions);
      if (!persisted) return;
      const hash = typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash.toLowerCase() : null;
      if (persisted.version !== 1 || hash === null || !SHA256_HEX.test(hash)) {
        throw rejection(
          'PERSISTED_QUERY_NOT_SUPPORTED',
          'Automatic persisted queries take extensions.persistedQuery { version: 1, sha256Hash: "<64 hex characters>" }.',
          400,
        );
      }
      if (typeof params.query !== 'string') {
        const query = await store.get(hash);
        if (query === null) throw notFound();
        setParams({ ...params, query });
        return;
      }
      if (sha256Hex(params.query) !== hash) {
        throw rejection(
          'PERSISTED_QUERY_HASH_MISMATCH',
          'extensions.persistedQuery.sha256Hash is not the sha256 of the query text sent with it.',
          400,
        );
      }
      const hashes = pending.get(request) ?? new Map<string, string>();
      pending.set(request, hashes);
      hashes.set(hash, params.query);
    },
    onValidate({ context }) {
      const { request, params } = context as { request?: Request; params?: { extensions?: unknown } };
      const hashes = request && pending.get(request);
      if (!hashes) return;
      const hash = String(persistedQueryOf(params?.extensions)?.sha256Hash ?? '').toLowerCase();
      const query = hashes.get(hash);
      if (query === undefined) return;
      hashes.delete(hash);
      return ({ valid }) => {
        if (!valid) return;
        // Within the client's own share: past it, its own oldest registrations go, never another client's.
        const forget = shares.register(fairness.clientOf(request, context), hash, entryCost(query));
        if (forget === null) return;
        for (const old of forget) void store.delete(old);
        void store.set(hash, query);
      };
    },
  };
}
