import type { LookupReport } from '../kernel/operation.js';
import type { LookupCache, LookupOutcome } from './lookup-cache.js';
import { ActionError } from '../kernel/errors.js';

/** One line of `extensions.gateway.lookups`: where the value came from and how old it is. */
export function lookupReport(cache: Pick<LookupCache, 'ttlMs'>, action: string, key: string, outcome: LookupOutcome<unknown>): LookupReport {
  const ageSeconds = outcome.storedAt === undefined ? null : Math.max(0, Math.floor((Date.now() - outcome.storedAt) / 1000));
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
