import type DataLoader from 'dataloader';
import type { Config } from './config.js';
import type { ActionEnvelope, CallOptions } from './upstream/client.js';

/** Sends one action to the upstream (or the layers in front of it) and returns its envelope. */
export type CallAction = (action: string, body: Record<string, unknown>, options?: CallOptions) => Promise<ActionEnvelope>;

/** What every resolver gets: the way upstream, this request's loaders and its accounting. */
export interface GatewayContext {
  config: Config;
  /** Aborted when the client goes away, so upstream calls it still waits on are cancelled. */
  signal: AbortSignal;
  /** Whether the upstream is the built-in sandbox (reported in every response's extensions). */
  sandbox: boolean;
  /** What this operation spent, reported in the response's extensions (an object: Yoga copies the context). */
  usage: { upstreamCalls: number };
  /** Calls an action for this operation: counted, cancelled with the request, with its token. */
  callAction: (action: string, body: Record<string, unknown>) => Promise<ActionEnvelope>;
  /** The upstream token this request uses; null means the configured ACTION_TOKEN. */
  upstreamToken: string | null;
  /** This request's DataLoaders, one per action, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
}

export interface ContextDeps {
  config: Config;
  sandbox: boolean;
  callAction: CallAction;
}

export interface RequestFacts {
  signal: AbortSignal;
  upstreamToken?: string | null;
}

export function createContext(deps: ContextDeps, request: RequestFacts): GatewayContext {
  const upstreamToken = request.upstreamToken ?? null;
  const context: GatewayContext = {
    config: deps.config,
    signal: request.signal,
    sandbox: deps.sandbox,
    usage: { upstreamCalls: 0 },
    loaders: new Map(),
    upstreamToken,
    callAction: (action, body) => {
      context.usage.upstreamCalls += 1;
      return deps.callAction(action, body, { signal: request.signal, ...(upstreamToken ? { token: upstreamToken } : {}) });
    },
  };
  return context;
}
