import type DataLoader from 'dataloader';
import { FreshReads } from '../cache/fresh.js';
import type { LookupCache } from '../cache/lookup-cache.js';
import { SymbolMeter } from '../cost/meter.js';
import type { Payer } from '../quota/payer.js';
import type { CallAction } from '../upstream/index.js';
import { Operation } from './operation.js';

/** What every operation's context is made from: assembled once, by src/request-path.ts. */
export interface ContextParts {
  /** The cross-request cache every lookup goes through. */
  cache: LookupCache;
  /**
   * The way upstream behind the budget and the quota, composed in src/request-path.ts: the call's span
   * (src/telemetry/spans.ts traceCallAction, when tracing is on), its count (src/telemetry/metrics.ts
   * Metrics.instrument), the resilience layers (src/upstream/index.ts createUpstream) and the HTTP client.
   */
  upstream: CallAction;
  /** COST_BUDGET: the most calls one operation may send upstream. */
  costBudget: number;
  operationTimeoutMs: number;
  /** Symbols per financial-profile call. */
  financialBatchSize: number;
  /** The cache scope of an upstream token (null: the configured one). */
  fingerprintFor(upstreamToken: string | null): string;
}

/** What the gateway knows of a request when it makes the operation's context. */
export interface RequestFacts {
  /** Yoga's request signal; read only when the operation first needs its own signal. */
  signal: () => AbortSignal | undefined;
  upstreamToken?: string | null;
  /** Who the request is for fairness: its share of upstream slots, its weight in breaker counts. */
  client?: string;
  /** Who pays for its upstream calls when the client has a quota (src/quota). */
  payer?: Payer | null;
}

/** What every resolver gets: the way upstream, this operation's loaders and its accounting. */
export interface GatewayContext {
  /** This operation's own state: spending, estimate, symbol meter, fresh reads, deadline and cancellation (an object: Yoga copies the context). */
  operation: Operation;
  /** The cross-request cache every lookup goes through. */
  cache: LookupCache;
  /** Fingerprint of this request's upstream token: cache entries are never shared between tokens. */
  tokenFingerprint: string;
  /** The upstream token this request uses; null means the configured ACTION_TOKEN. */
  upstreamToken: string | null;
  /** Who the request is for fairness upstream (absent: nobody in particular). */
  client: string | undefined;
  /** Who pays for this operation's calls; null without a quota. */
  payer: Payer | null;
  /** The way upstream that `callAction` (./call-action.ts) sends through once the budget and the quota allow. */
  upstream: CallAction;
  costBudget: number;
  financialBatchSize: number;
  /** This operation's DataLoaders, one per action, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
}

/** The context of one operation: its own Operation, and what its lookups go through. */
export function contextFor(parts: ContextParts, request: RequestFacts): GatewayContext {
  const upstreamToken = request.upstreamToken ?? null;
  return {
    operation: new Operation(
      Date.now() + parts.operationTimeoutMs,
      request.signal,
      new SymbolMeter(),
      new FreshReads(),
    ),
    cache: parts.cache,
    tokenFingerprint: parts.fingerprintFor(upstreamToken),
    upstreamToken,
    client: request.client,
    payer: request.payer ?? null,
    upstream: parts.upstream,
    costBudget: parts.costBudget,
    financialBatchSize: parts.financialBatchSize,
    loaders: new Map(),
  };
}

/**
 * The context of another execution of the same operation (a live query's, src/operation/live.ts): the same
 * request, client, payer and token, with a new Operation (its own spending, lookups, budget and deadline,
 * cancelled with the first) and new loaders, so each execution reads the cache anew.
 */
export function contextAgain(parts: Pick<ContextParts, 'operationTimeoutMs'>, ctx: GatewayContext): GatewayContext {
  const first = ctx.operation;
  return {
    ...ctx,
    operation: new Operation(
      Date.now() + parts.operationTimeoutMs,
      () => first.signal,
      new SymbolMeter(),
      new FreshReads(),
    ),
    loaders: new Map(),
  };
}
