/**
 * The way from a resolver to the upstream, assembled here and nowhere else. Per lookup, outermost first:
 *
 *   context (src/operation/context.ts contextFor: the operation's deadline, one cancellation signal, loaders)
 *   → loader (src/actions/loader.ts lookup: one call per distinct key per operation, stock symbols batched)
 *   → cache (src/cache/lookup-cache.ts LookupCache.fetch: memory or Redis, coalescing across requests and replicas, @fresh)
 *   → budget and quota (src/operation/call-action.ts callAction: COST_BUDGET calls per operation, the client's paid calls reserved as each call is made)
 *   → tracing span (when on) → metrics count
 *   → resilience (src/upstream: deadline → retries → rate-limit gate → breakers → concurrency bound)
 *   → client (undici)
 */
import type { Logger } from 'pino';
import { createLookupCache } from './cache/index.js';
import type { Config } from './config.js';
import {
  type ContextParts,
  contextAgain,
  contextFor,
  type GatewayContext,
  type RequestFacts,
} from './operation/context.js';
import type { Metrics } from './telemetry/metrics.js';
import type { Tracing } from './telemetry/tracing.js';
import { createUpstream, type UpstreamTarget } from './upstream/index.js';

export interface RequestPathDeps {
  config: Config;
  logger: Logger;
  /** Where calls go and the token they carry by default: ACTION_BASE_URL or the sandbox gateway.ts started. */
  target: UpstreamTarget;
  metrics: Metrics;
  tracing: Tracing;
}

export async function createRequestPath({ config, logger, target, metrics, tracing }: RequestPathDeps) {
  // Tracing off: the span makers (and OpenTelemetry's API) are never loaded.
  const spans = tracing.enabled ? await import('./telemetry/spans.js') : null;
  const upstream = createUpstream(config, target, logger, metrics.observeCall);
  const { cache, status: cacheStatus } = await createLookupCache(
    config.cache,
    logger,
    metrics.observeLookup,
    spans ? (store) => spans.tracedStore(store) : undefined,
  );
  const counted = metrics.instrument(upstream.callAction);
  const parts: ContextParts = {
    cache,
    upstream: spans ? spans.traceCallAction(counted) : counted,
    costBudget: config.costBudget,
    operationTimeoutMs: config.resilience.operationTimeoutMs,
    financialBatchSize: config.financialBatchSize,
    fingerprintFor: (upstreamToken) => cache.fingerprint(upstreamToken ?? target.token),
  };

  return {
    /** The context of one operation (src/operation/context.ts). */
    contextFor: (request: RequestFacts) => contextFor(parts, request),
    /** Another execution's context for the same operation (a live query's, src/operation/context.ts). */
    contextAgain: (ctx: GatewayContext) => contextAgain(parts, ctx),
    fingerprintFor: parts.fingerprintFor,
    cache,
    cacheStatus,
    upstream,
    close: () => Promise.allSettled([upstream.close(), cache.close()]),
  };
}

export type RequestPath = Awaited<ReturnType<typeof createRequestPath>>;
