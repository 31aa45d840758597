import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../operation/context.js';
import type { Logger } from 'pino';
import { type ClientAccount, createClientAuth, tokenId } from './auth.js';
import { useBatchLimit } from './batching.js';
import { useBodyLimit } from './body-limit.js';
import { useCorsAllowlist } from './cors.js';
import { useCsrfGuard } from './csrf.js';
import { createDocumentCache } from './document-cache.js';
import type { CachePart } from '../cache/store.js';
import { useRefusalStatus } from './refusal-status.js';
import { useInputDepth } from './input-depth.js';
import { useOperationLimits } from './limits/index.js';
import { useAutomaticPersistedQueries } from './persisted-queries.js';
import { createPersistedQueryStore } from './persisted-query-store.js';
import {
  clientAddress,
  createRateLimit,
  MemoryRateLimiter,
  PrimaryRateLimiter,
  RedisRateLimiter,
  type RateLimiter,
} from './rate-limit.js';
import { inWorkerGroup } from '../kernel/cluster-ipc.js';
import type { SecuritySettings } from './settings.js';
import type { RedisGuardSettings } from '../redis/guard.js';
import { useHiddenSuggestions } from './suggestions.js';
import { useAnonymousTrustedDocuments, useTrustedDocuments } from './trusted-documents.js';
import type { KeySetStatus } from './tokens/key-set.js';
import { useProtectedResourceMetadata } from './tokens/resource-metadata.js';
import type { TokenVerifier } from './tokens/verifier.js';

/** One client's persisted-query registrations hold at most a quarter of the store (4 MiB). */
const PERSISTED_QUERY_SHARES = 4;

export interface Security {
  /** In order: protected resource metadata (PUBLIC_URL with tokens), refusal statuses (and Retry-After), CORS preflight, CSRF, client auth, rate limit, body size, batch size, input depth, automatic persisted queries or trusted documents (anonymous requests: those only), limits. */
  plugins: Array<Plugin | Plugin<GatewayContext>>;
  /** Yoga options that belong to the protections (Yoga's own CORS, body guard and multipart off). */
  yogaOptions: {
    cors: false;
    maxRequestBodySize: false;
    multipart: false;
    batching: false | { limit: number };
    parserAndValidationCache: false;
  };
  /** The kept documents' bytes and entries (DOCUMENT_CACHE_MB), for the cache gauges. */
  documentCacheParts(): CachePart[];
  upstreamTokenFor(request: Request): string | null;
  /** What another endpoint served through the plugins (/mcp) must pass before its body is read: client auth. The refusal, or null. */
  refusalOf(request: Request): Promise<GraphQLError | null> | GraphQLError | null;
  /** The identity provider's signing keys (JWT_ISSUER, JWT_JWKS_URL): whether any was ever loaded; null when tokens are off. */
  identityStatus: (() => KeySetStatus) | null;
  /** Counts one message of another endpoint (/mcp) toward the client rate limit, after refusalOf admitted it: the refusal, or null (also with no limit). */
  countMessage(request: Request, serverContext: unknown): Promise<GraphQLError | null>;
  /** A request made for a message countMessage counted (an MCP batch's tool call): the rate limit passes it uncounted. */
  countedAlready(request: Request): void;
  /** Who a request is for fairness (upstream shares, breaker counts): API key, forwarded token's hash, or address. */
  clientFor(request: Request, serverContext: unknown): string;
  /** Who pays for the request's upstream calls (quotas): its API key's account or its forwarded token; null when the gateway is open. */
  accountOf(request: Request): ClientAccount | null;
  /** Where the client rate limit counts and whether that backend answers (for /healthz). */
  rateLimitStatus(): {
    backend: 'off' | 'memory' | 'workers' | 'redis';
    healthy: boolean;
    lastError?: string | null;
    since?: string;
  };
  close(): Promise<void>;
}

/** Every client-facing protection of the gateway; each refusal comes before any upstream call. */
export async function createSecurity(
  settings: SecuritySettings,
  logger: Logger,
  redisGuard?: RedisGuardSettings,
  observeKeySetFetch?: (outcome: 'ok' | 'error') => void,
): Promise<Security> {
  // jose is loaded only when tokens are configured (JWT_ISSUER, JWT_JWKS_URL).
  const tokens: TokenVerifier | null = settings.auth.tokens
    ? new (await import('./tokens/verifier.js')).TokenVerifier(
        settings.auth.tokens,
        settings.publicResource,
        (outcome) => {
          observeKeySetFetch?.(outcome);
          if (outcome === 'error')
            logger.warn(
              { identity: tokens?.status() },
              'identity: the signing keys could not be fetched; the keys loaded before stay in use',
            );
        },
      )
    : null;
  // Fetched at start-up, so that the first token does not wait for it and /readyz knows when tokens can be checked.
  void tokens?.keySet?.refresh();
  const auth = createClientAuth(settings.auth, {
    tokens,
    anonymous: settings.auth.anonymousTrustedDocuments,
  });
  let limiter: RateLimiter | null = null;
  if (settings.rateLimit.perMinute > 0) {
    if (settings.rateLimit.redisUrl) {
      const redis = new RedisRateLimiter(
        settings.rateLimit.redisUrl,
        settings.rateLimit.redisPrefix,
        settings.rateLimit.perMinute,
        logger,
        redisGuard,
      );
      await redis.ready();
      if (!redis.health().healthy)
        logger.warn(
          { rateLimit: 'memory' },
          'rate limit: Redis unreachable; counting in memory (per process) until it answers',
        );
      limiter = redis;
    } else {
      // WORKERS > 1: one count for the process group, held by the primary.
      limiter = inWorkerGroup()
        ? new PrimaryRateLimiter(settings.rateLimit.perMinute)
        : new MemoryRateLimiter(settings.rateLimit.perMinute);
    }
  }
  const rateLimit = limiter
    ? createRateLimit(
        limiter,
        settings.rateLimit.perMinute,
        (request, serverContext) => auth.clientOf(request) ?? clientAddress(serverContext),
      )
    : null;
  const persistedQueries = settings.persistedQueries.enabled
    ? createPersistedQueryStore(settings.persistedQueries, logger, redisGuard)
    : null;
  // In place of Yoga's own parser and validation cache (yogaOptions below), which no setting bounds in bytes.
  const documents = createDocumentCache(settings.limits.documentCacheBytes);
  const plugins: Security['plugins'] = [
    ...(tokens && settings.publicResource
      ? [useProtectedResourceMetadata(settings.publicResource, settings.auth.tokens!)]
      : []),
    useRefusalStatus(),
    ...useCorsAllowlist(settings.corsOrigins),
    useCsrfGuard(),
    ...(auth.plugin ? [auth.plugin] : []),
    ...(rateLimit ? [rateLimit.plugin] : []),
    useBodyLimit(settings.limits.maxRequestBytes),
    useBatchLimit(settings.limits.maxBatchOperations),
    useInputDepth(settings.limits.maxInputDepth),
    ...(persistedQueries
      ? [
          useAutomaticPersistedQueries(persistedQueries, {
            clientOf: (request, serverContext) => auth.clientOf(request) ?? clientAddress(serverContext),
            shareBytes: Math.floor(settings.persistedQueries.maxBytes / PERSISTED_QUERY_SHARES),
          }),
        ]
      : []),
    ...(settings.trustedDocuments && settings.auth.anonymousTrustedDocuments
      ? [useAnonymousTrustedDocuments(settings.trustedDocuments, auth.isAnonymous, auth.challenge)]
      : []),
    ...(settings.trustedDocuments ? [useTrustedDocuments(settings.trustedDocuments)] : []),
    documents.plugin,
    useOperationLimits(settings.limits, { introspection: settings.introspection }),
    ...(settings.hideSuggestions ? [useHiddenSuggestions()] : []),
  ];
  return {
    plugins,
    yogaOptions: {
      cors: false,
      maxRequestBodySize: false,
      multipart: false,
      batching: settings.limits.maxBatchOperations > 0 ? { limit: settings.limits.maxBatchOperations } : false,
      parserAndValidationCache: false,
    },
    documentCacheParts: documents.parts,
    upstreamTokenFor: auth.upstreamTokenFor,
    refusalOf: (request) => auth.refusalOf(request, 'mcp'),
    identityStatus: tokens ? () => tokens.status() : null,
    countMessage: async (request, serverContext) => (rateLimit ? rateLimit.hit(request, serverContext) : null),
    countedAlready: (request) => rateLimit?.countedAlready(request),
    clientFor: (request, serverContext) => {
      const forwarded = auth.upstreamTokenFor(request);
      return auth.clientOf(request) ?? (forwarded ? tokenId(forwarded) : clientAddress(serverContext));
    },
    accountOf: auth.accountOf,
    rateLimitStatus: () =>
      !limiter
        ? { backend: 'off', healthy: true }
        : limiter instanceof RedisRateLimiter
          ? { backend: 'redis', ...limiter.health() }
          : { backend: limiter instanceof PrimaryRateLimiter ? 'workers' : 'memory', healthy: true },
    close: async () => {
      await Promise.allSettled([limiter?.close(), persistedQueries?.close()]);
    },
  };
}
