import type DataLoader from 'dataloader';
import type { Config } from './config.js';
import { overBudget } from './cost/meter.js';
import type { LookupCache, LookupSource } from './cache/lookup-cache.js';
import type { ActionEnvelope, CallOptions } from './upstream/client.js';

/** Sends one action to the upstream (or the layers in front of it) and returns its envelope. */
export type CallAction = (action: string, body: Record<string, unknown>, options?: CallOptions) => Promise<ActionEnvelope>;

/** What every resolver gets: the way upstream, this request's loaders and its accounting. */
export interface GatewayContext {
  config: Config;
  /** Aborted when the client goes away, so upstream calls it still waits on are cancelled. */
  signal: AbortSignal;
  /**
   * When this operation must be answered (epoch ms, OPERATION_TIMEOUT_MS after it arrived): every
   * upstream call ends by then, so the response goes out with whatever resolved.
   */
  deadline: number;
  /** Whether the upstream is the built-in sandbox (reported in every response's extensions). */
  sandbox: boolean;
  /** What this operation spent, reported in the response's extensions (an object: Yoga copies the context). */
  usage: { upstreamCalls: number; lookups: LookupReport[] };
  /** The cross-request cache every lookup goes through. */
  cache: LookupCache;
  /** Fingerprint of this request's upstream token: cache entries are never shared between tokens. */
  tokenFingerprint: string;
  /**
   * Calls an action for this operation: counted, cancelled with the request (or with `signal` when
   * given: a coalesced call is cancelled only when every request waiting for it has gone), with its token.
   */
  callAction: (action: string, body: Record<string, unknown>, signal?: AbortSignal) => Promise<ActionEnvelope>;
  /** The upstream token this request uses; null means the configured ACTION_TOKEN. */
  upstreamToken: string | null;
  /** This request's DataLoaders, one per action, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
}

export interface ContextDeps {
  config: Config;
  sandbox: boolean;
  callAction: CallAction;
  cache: LookupCache;
  /** The token used when a request brings none of its own (ACTION_TOKEN or the sandbox's). */
  defaultToken: string;
}

/** One lookup of the operation and where its value came from. */
export interface LookupReport {
  action: string;
  key: string;
  source: LookupSource;
  /** Seconds since the value was fetched from the upstream (0 for this operation's own call); null when it failed with nothing stored. */
  ageSeconds: number | null;
  /** How long the cache keeps this action's results (0 when off); not sent to clients, it sets Cache-Control. */
  ttlSeconds?: number;
  /** The lookup failed (not sent to clients: the error is in `errors`); the response is then not cacheable. */
  failed?: boolean;
}

export interface RequestFacts {
  signal: AbortSignal;
  upstreamToken?: string | null;
  /** Who the request is for fairness: its share of upstream slots, its weight in breaker counts. */
  client?: string;
}

export function createContext(deps: ContextDeps, request: RequestFacts): GatewayContext {
  const upstreamToken = request.upstreamToken ?? null;
  // Yoga's request.signal is a look-alike whose own `aborted` stops changing once AbortSignal.any()
  // follows it; one native follower per request is what everything below reads. It is made on first
  // use: an operation served from the cache never needs it.
  let native: AbortSignal | undefined;
  const context: GatewayContext = {
    config: deps.config,
    get signal() {
      native ??= AbortSignal.any([request.signal]);
      return native;
    },
    deadline: Date.now() + deps.config.resilience.operationTimeoutMs,
    sandbox: deps.sandbox,
    usage: { upstreamCalls: 0, lookups: [] },
    cache: deps.cache,
    tokenFingerprint: deps.cache.fingerprint(upstreamToken ?? deps.defaultToken),
    loaders: new Map(),
    upstreamToken,
    callAction: (action, body, signal) => {
      // The runtime cost limit: a call past COST_BUDGET fails with COST_LIMIT_EXCEEDED instead of going out.
      const refused = overBudget(context.usage.upstreamCalls, deps.config.costBudget, action);
      if (refused) return Promise.reject(refused);
      context.usage.upstreamCalls += 1;
      return deps.callAction(action, body, {
        signal: signal ?? context.signal,
        operationDeadline: context.deadline,
        ...(request.client ? { client: request.client } : {}),
        ...(upstreamToken ? { token: upstreamToken } : {}),
      });
    },
  };
  return context;
}
