/**
 * The way from a resolver to the upstream, assembled here and nowhere else. Per lookup, outermost first:
 *
 *   context (the operation: deadline, one cancellation signal, loaders)
 *   → loader (src/actions/loader.ts: one call per distinct key per operation, stock symbols batched)
 *   → cache (src/cache: memory or Redis, coalescing across requests and replicas, @fresh)
 *   → budget (COST_BUDGET calls per operation) → quota (the client's paid calls, reserved as each call is made)
 *   → tracing span (when on) → metrics count
 *   → resilience (src/upstream: deadline → retries → rate-limit gate → breakers → concurrency bound)
 *   → client (undici)
 */
import type { Logger } from 'pino';
import { createLookupCache } from './cache/index.js';
import type { Config } from './config.js';
import type { GatewayContext, RequestFacts } from './kernel/context.js';
import { FreshReads } from './cache/fresh.js';
import { overBudget, SymbolMeter } from './cost/meter.js';
import type { Metrics } from './telemetry/metrics.js';
import { Operation } from './kernel/operation.js';
import { ActionError } from './kernel/errors.js';
import { traceCallAction, tracedStore, upstreamCallObserver } from './telemetry/spans.js';
import type { Tracing } from './telemetry/tracing.js';
import { type CallAction, createUpstream, type UpstreamTarget } from './upstream/index.js';

export interface RequestPathDeps {
  config: Config;
  logger: Logger;
  /** Where calls go and the token they carry by default: ACTION_BASE_URL or the sandbox gateway.ts started. */
  target: UpstreamTarget;
  /** The target is the built-in sandbox (reported in every response). */
  sandbox: boolean;
  metrics: Metrics;
  tracing: Tracing;
}

export async function createRequestPath({ config, logger, target, sandbox, metrics, tracing }: RequestPathDeps) {
  const traced = tracing.enabled;
  const upstream = createUpstream(config, target, logger, metrics.observeCall, traced ? upstreamCallObserver(tracing) : undefined);
  const { cache, status: cacheStatus } = await createLookupCache(
    config.cache,
    logger,
    metrics.observeLookup,
    traced ? (store) => tracedStore(tracing, store) : undefined,
  );
  const counted = metrics.instrument(upstream.callAction);
  const toUpstream: CallAction = traced ? traceCallAction(tracing, counted) : counted;
  const budget = config.costBudget;
  const operationTimeoutMs = config.resilience.operationTimeoutMs;

  /** The cache scope of an upstream token (null: the configured one). */
  const fingerprintFor = (upstreamToken: string | null) => cache.fingerprint(upstreamToken ?? target.token);
  /** The context of one operation: its own Operation, and the budget in front of every call it makes. */
  const contextFor = (request: RequestFacts): GatewayContext => {
    const upstreamToken = request.upstreamToken ?? null;
    const operation = new Operation(Date.now() + operationTimeoutMs, request.signal, new SymbolMeter(), new FreshReads());
    const client = request.client;
    const payer = request.payer ?? null;
    return {
      config,
      sandbox,
      operation,
      cache,
      tokenFingerprint: fingerprintFor(upstreamToken),
      loaders: new Map(),
      upstreamToken,
      callAction: (action, body, signal) => {
        // The runtime cost limit: a call past COST_BUDGET fails with COST_LIMIT_EXCEEDED instead of going out.
        const overLimit = overBudget(operation.callsAsked, budget, action);
        if (overLimit) return Promise.reject(overLimit.with({ refused: true }));
        operation.callsAsked += 1;
        let sent = false;
        const call = () =>
          toUpstream(action, body, {
            signal: signal ?? operation.signal,
            operationDeadline: operation.deadline,
            ...(client ? { client } : {}),
            ...(upstreamToken ? { token: upstreamToken } : {}),
            onSent: () => {
              sent = true;
              operation.callSent();
            },
          }).catch((error: unknown) => {
            // Nothing left the gateway for this lookup, and not for want of a connection: the gateway refused it, and says so.
            throw !sent && error instanceof ActionError && !error.neverSent ? error.with({ refused: true }) : error;
          });
        if (!payer) return call();
        // The quota is checked at the moment of paying: QUOTA_EXCEEDED here fails this lookup alone, before anything
        // is sent. A call that never left the gateway is given back.
        return payer.reserve(action).then(
          async (settle) => {
            try {
              const envelope = await call();
              settle(true);
              return envelope;
            } catch (error) {
              settle(sent);
              throw error;
            }
          },
          (refusal: unknown) => {
            operation.callsAsked -= 1;
            throw refusal;
          },
        );
      },
    };
  };

  return {
    contextFor,
    fingerprintFor,
    cache,
    cacheStatus,
    upstream,
    close: () => Promise.allSettled([upstream.close(), cache.close()]),
  };
}

export type RequestPath = Awaited<ReturnType<typeof createRequestPath>>;
