import type DataLoader from 'dataloader';
import type { Config } from './config.js';
import type { ActionEnvelope } from './upstream/client.js';

/** Sends one action to the upstream (or the layers in front of it) and returns its envelope. */
export type CallAction = (action: string, body: Record<string, unknown>, signal?: AbortSignal) => Promise<ActionEnvelope>;

/** What every resolver gets: the way upstream, this request's loaders and its accounting. */
export interface GatewayContext {
  config: Config;
  /** Aborted when the client goes away, so upstream calls it still waits on are cancelled. */
  signal: AbortSignal;
  /** Whether the upstream is the built-in sandbox (reported in every response's extensions). */
  sandbox: boolean;
  /** What this operation spent, reported in the response's extensions (an object: Yoga copies the context). */
  usage: { upstreamCalls: number };
  callAction: CallAction;
  /** This request's DataLoaders, one per action, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
}

export interface ContextDeps {
  config: Config;
  sandbox: boolean;
  callAction: CallAction;
}

export function createContext(deps: ContextDeps, signal: AbortSignal): GatewayContext {
  const context: GatewayContext = {
    config: deps.config,
    signal,
    sandbox: deps.sandbox,
    usage: { upstreamCalls: 0 },
    loaders: new Map(),
    callAction: (action, body) => {
      context.usage.upstreamCalls += 1;
      return deps.callAction(action, body, signal);
    },
  };
  return context;
}
