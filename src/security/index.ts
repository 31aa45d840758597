import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { createClientAuth } from './auth.js';
import { useBatchLimit } from './batching.js';
import { useBodyLimit } from './body-limit.js';
import { corsHeaders, useCorsAllowlist } from './cors.js';
import { useCsrfGuard } from './csrf.js';
import { useOperationLimits } from './limits/index.js';
import { clientAddress, markCounted, MemoryRateLimiter, type RateVerdict, RedisRateLimiter, useRateLimit, type RateLimiter } from './rate-limit.js';
import type { SecuritySettings } from './settings.js';
import type { RedisGuardSettings } from '../cache/redis-guard.js';
import { useHiddenSuggestions } from './suggestions.js';
import { useTrustedDocuments } from './trusted-documents.js';

export interface Security {
  /** In order: CORS preflight, CSRF, client auth, rate limit, body size, batch size, trusted documents, limits. */
  plugins: Plugin[];
  /** Yoga options that belong to the protections (Yoga's own CORS, body guard and multipart off). */
  yogaOptions: { cors: false; maxRequestBodySize: false; multipart: false; batching: false | { limit: number } };
  upstreamTokenFor(request: Request): string | null;
  /**
   * For an answer made before Yoga (src/replay-route.ts), a plain JSON POST: its upstream token (forward
   * mode) when every protection lets it through as it would in Yoga (CSRF: a JSON POST passes; auth; body
   * size; the client rate limit, counted here once), or null for Yoga to answer it (a refusal).
   */
  admitPlainPost(req: IncomingMessage, contentLength: number): Admission | null | Promise<Admission | null>;
  /** TRUSTED_DOCUMENTS_FILE's documents by sha256 hex, or null when any query text may run. */
  trustedDocuments: Map<string, string> | null;
  /** The CORS headers of an answer to a request from `origin`. */
  corsHeaders(origin: string | null | undefined): Array<[string, string]>;
  /** Who a request is for fairness (upstream shares, breaker counts): API key, forwarded token's hash, or address. */
  clientFor(request: Request, serverContext: unknown): string;
  /** Where the client rate limit counts and whether that backend answers (for /healthz). */
  rateLimitStatus(): { backend: 'off' | 'memory' | 'redis'; healthy: boolean; lastError?: string | null; since?: string };
  close(): Promise<void>;
}

export interface Admission {
  /** Forward mode: the request's own token, sent upstream; null: ACTION_TOKEN. */
  upstreamToken: string | null;
}

/** Every client-facing protection of the gateway; each refusal comes before any upstream call. */
export async function createSecurity(settings: SecuritySettings, logger: Logger, redisGuard?: RedisGuardSettings): Promise<Security> {
  const auth = createClientAuth(settings.auth);
  let limiter: RateLimiter | null = null;
  if (settings.rateLimit.perMinute > 0) {
    if (settings.rateLimit.redisUrl) {
      const redis = new RedisRateLimiter(settings.rateLimit.redisUrl, settings.rateLimit.redisPrefix, settings.rateLimit.perMinute, logger, redisGuard);
      await redis.ready();
      if (!redis.health().healthy) logger.warn({ rateLimit: 'memory' }, 'rate limit: Redis unreachable; counting in memory (per process) until it answers');
      limiter = redis;
    } else {
      limiter = new MemoryRateLimiter(settings.rateLimit.perMinute);
    }
  }
  const plugins: Plugin[] = [
    useCorsAllowlist(settings.corsOrigins),
    useCsrfGuard(),
    auth.plugin,
    ...(limiter
      ? [useRateLimit(limiter, settings.rateLimit.perMinute, (request, serverContext) => auth.clientOf(request) ?? clientAddress(serverContext))]
      : []),
    useBodyLimit(settings.limits.maxRequestBytes),
    useBatchLimit(settings.limits.maxBatchOperations),
    ...(settings.trustedDocuments ? [useTrustedDocuments(settings.trustedDocuments)] : []),
    useOperationLimits(settings.limits, { introspection: settings.introspection }),
    ...(settings.hideSuggestions ? [useHiddenSuggestions()] : []),
  ];
  const header = (req: IncomingMessage) => (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : null;
  };
  const admitPlainPost: Security['admitPlainPost'] = (req, contentLength) => {
    if (contentLength > settings.limits.maxRequestBytes) return null;
    const admitted = auth.admits(header(req));
    if (!admitted) return null;
    const admission = { upstreamToken: admitted.upstreamToken };
    if (!limiter) return admission;
    const client = admitted.client ?? clientAddress({ req });
    const counted = (verdict: RateVerdict) => {
      markCounted(req, verdict);
      return verdict.allowed ? admission : null;
    };
    // The memory limiter answers at once: no promise on the way of a replay.
    return limiter instanceof MemoryRateLimiter ? counted(limiter.hitNow(client, Date.now())) : limiter.hit(client).then(counted);
  };
  return {
    plugins,
    admitPlainPost,
    trustedDocuments: settings.trustedDocuments,
    corsHeaders: corsHeaders(settings.corsOrigins),
    yogaOptions: {
      cors: false,
      maxRequestBodySize: false,
      multipart: false,
      batching: settings.limits.maxBatchOperations > 0 ? { limit: settings.limits.maxBatchOperations } : false,
    },
    upstreamTokenFor: auth.upstreamTokenFor,
    clientFor: (request, serverContext) => {
      const forwarded = auth.upstreamTokenFor(request);
      return (
        auth.clientOf(request) ?? (forwarded ? `token:${createHash('sha256').update(forwarded).digest('hex').slice(0, 16)}` : clientAddress(serverContext))
      );
    },
    rateLimitStatus: () =>
      !limiter
        ? { backend: 'off', healthy: true }
        : limiter instanceof RedisRateLimiter
          ? { backend: 'redis', ...limiter.health() }
          : { backend: 'memory', healthy: true },
    close: async () => limiter?.close(),
  };
}
