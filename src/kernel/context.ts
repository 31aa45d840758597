import type DataLoader from 'dataloader';
import type { Config } from '../config.js';
import type { LookupCache } from '../cache/lookup-cache.js';
import type { Operation } from './operation.js';
import type { ActionEnvelope } from '../upstream/client.js';
import type { Payer } from '../quota/payer.js';

/** What every resolver gets: the way upstream, this operation's loaders and its accounting. */
export interface GatewayContext {
  config: Config;
  /** Whether the upstream is the built-in sandbox (reported in every response's extensions). */
  sandbox: boolean;
  /** This operation's own state: spending, estimate, symbol meter, fresh reads, deadline and cancellation (an object: Yoga copies the context). */
  operation: Operation;
  /** The cross-request cache every lookup goes through. */
  cache: LookupCache;
  /** Fingerprint of this request's upstream token: cache entries are never shared between tokens. */
  tokenFingerprint: string;
  /**
   * Calls an action for this operation: within its budget, counted, cancelled with the request (or with
   * `signal` when given: a coalesced call is cancelled only when every request waiting for it has gone),
   * with its token. Assembled in src/request-path.ts.
   */
  callAction: (action: string, body: Record<string, unknown>, signal?: AbortSignal) => Promise<ActionEnvelope>;
  /** The upstream token this request uses; null means the configured ACTION_TOKEN. */
  upstreamToken: string | null;
  /** This operation's DataLoaders, one per action, created on first use. */
  loaders: Map<string, DataLoader<unknown, unknown>>;
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
