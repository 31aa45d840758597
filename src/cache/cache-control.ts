/**
 * The `Cache-Control` header of GraphQL responses, from the lookups each operation used:
 *
 * - `no-store` when the response carries errors, made no lookup (introspection, `__typename`),
 *   the cache is off, or any lookup's remaining freshness is under a second;
 * - otherwise `max-age` = the shortest remaining freshness (TTL minus age) over its lookups, so a
 *   browser or proxy never keeps a value longer than the gateway would;
 * - `private` unless every lookup is shareable, which needs GATEWAY_AUTH=none: with API keys a
 *   shared cache would hand data to clients without a key, and in forward mode the data belongs to
 *   the caller's own upstream token. `public` only then.
 *
 * Also registers the @fresh validation rule and keeps the private fields of the lookup reports
 * (TTL, failure) out of `extensions`.
 */
import type { Plugin } from 'graphql-yoga';
import type { AnsweredOperations } from './answered.js';
import type { LookupReport } from './lookup-report.js';
import { freshOnLookupFields } from './fresh.js';

export function cacheControlFor(reports: readonly LookupReport[], hasErrors: boolean, shareable: boolean): string {
  if (hasErrors || reports.length === 0) return 'no-store';
  let maxAge = Infinity;
  for (const report of reports) {
    if (report.failed || !report.ttlSeconds) return 'no-store';
    maxAge = Math.min(maxAge, report.ttlSeconds - (report.ageSeconds ?? 0));
  }
  if (!(maxAge >= 1)) return 'no-store';
  return `${shareable ? 'public' : 'private'}, max-age=${Math.floor(maxAge)}`;
}

/** What a client sees of a lookup report. */
export function publicReport(report: LookupReport): LookupReport {
  return {
    action: report.action,
    key: report.key,
    source: report.source,
    ...(report.reason ? { reason: report.reason } : {}),
    ageSeconds: report.ageSeconds,
  };
}

/** The header of one response from its operations' values (several in a batch): the most restrictive wins. */
export function combinedCacheControl(values: readonly string[] | undefined): string {
  if (!values || values.length === 0) return 'no-store';
  if (values.length === 1) return values[0]!;
  if (values.includes('no-store')) return 'no-store';
  const maxAge = Math.min(...values.map((v) => Number(v.slice(v.indexOf('max-age=') + 8))));
  return `${values.every((v) => v.startsWith('public')) ? 'public' : 'private'}, max-age=${maxAge}`;
}

/** The plugin: the header from the operations the request was answered with, executed or remembered. */
export function useCacheControl(options: { shareable: boolean; answered: AnsweredOperations }): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(freshOnLookupFields);
    },
    onResponse({ request, response }) {
      if (!response.headers.get('content-type')?.includes('json')) return;
      // An operation without a single result of its own (it failed before one was made) is not cacheable.
      const values = options.answered
        .of(request)
        .map((operation) => cacheControlFor(operation.usage.lookups, operation.errors !== false, options.shareable));
      response.headers.set('cache-control', combinedCacheControl(values));
    },
  };
}
