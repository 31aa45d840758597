import type { LookupCache, LookupOutcome, LookupSource } from './lookup-cache.js';
import { ActionError } from '../kernel/errors.js';

/** One lookup of the operation and where its value came from. */
export interface LookupReport {
  action: string;
  key: string;
  source: LookupSource;
  /** With `source: refused`: the code of the refusal (the lookup's error at its path). */
  reason?: string;
  /** Seconds since the value was fetched from the upstream (0 for this operation's own call); null when it failed with nothing stored. */
  ageSeconds: number | null;
  /** How long the cache keeps this action's results (0 when off); not sent to clients, it sets Cache-Control. */
  ttlSeconds?: number;
  /** The lookup failed (not sent to clients: the error is in `errors`); the response is then not cacheable. */
  failed?: boolean;
  /** When the value was fetched (epoch ms; not sent to clients): which cache entry the result was built from (result-memo.ts). */
  storedAt?: number;
}

/** One line of `extensions.gateway.lookups`: where the value came from and how old it is. */
export function lookupReport(
  cache: Pick<LookupCache, 'ttlMs'>,
  action: string,
  key: string,
  outcome: LookupOutcome<unknown>,
): LookupReport {
  const ageSeconds =
    outcome.storedAt === undefined ? null : Math.max(0, Math.floor((Date.now() - outcome.storedAt) / 1000));
  return {
    action,
    key,
    source: outcome.source,
    ...(outcome.source === 'refused' && outcome.error instanceof ActionError ? { reason: outcome.error.code } : {}),
    ageSeconds,
    ...(outcome.error ? { failed: true } : {}),
    ttlSeconds: Math.floor(cache.ttlMs(action) / 1000),
    ...(outcome.storedAt === undefined ? {} : { storedAt: outcome.storedAt }),
  };
}
