import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../operation/context.js';
import type { Logger } from 'pino';
import { type ClientAccount, createClientAuth, tokenId } from './auth.js';
import { useBatchLimit } from './batching.js';
import { useBodyLimit } from './body-limit.js';
import { useCorsAllowlist } from './cors.js';
import { useCsrfGuard } from './csrf.js';
import { useRefusalStatus } from './refusal-status.js';
import { useInputDepth } from './input-depth.js';
import { useOperationLimits } from './limits/index.js';
import { useAutomaticPersistedQueries } from './persisted-queries.js';
import { createPersistedQueryStore } from './persisted-query-store.js';
import { clientAddress, createRateLimit, MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limit.js';
import type { SecuritySettings } from './settings.js';
import type { RedisGuardSettings } from '../redis/guard.js';
import { useHiddenSuggestions } from './suggestions.js';
import { useTrustedDocuments } from './trusted-documents.js';

/** One client's persisted-query registrations hold at most a quarter of the store (4 MiB). */
const PERSISTED_QUERY_SHARES = 4;

export interface Security {
  /** In order: refusal statuses (and Retry-After), CORS preflight, CSRF, client auth, rate limit, body size, batch size, input depth, automatic persisted queries or trusted documents, limits. */
  plugins: Array<Plugin | Plugin<GatewayContext>>;
  /** Yoga options that belong to the protections (Yoga's own CORS, body guard and multipart off). */
  yogaOptions: { cors: false; maxRequestBodySize: false; multipart: false; batching: false | { limit: number } };
  upstreamTokenFor(request: Request): string | null;
  /** What another endpoint served through the plugins (/mcp) must pass before its body is read: client auth. The refusal, or null. */
  refusalOf(request: Request): GraphQLError | null;
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
    backend: 'off' | 'memory' | 'redis';
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
): Promise<Security> {
  const auth = createClientAuth(settings.auth);
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
      limiter = new MemoryRateLimiter(settings.rateLimit.perMinute);
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
  const plugins: Security['plugins'] = [
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
    ...(settings.trustedDocuments ? [useTrustedDocuments(settings.trustedDocuments)] : []),
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
    },
    upstreamTokenFor: auth.upstreamTokenFor,
    refusalOf: auth.refusalOf,
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
          : { backend: 'memory', healthy: true },
    close: async () => {
      await Promise.allSettled([limiter?.close(), persistedQueries?.close()]);
    },
  };
}
