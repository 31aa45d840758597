import DataLoader from 'dataloader';
import { callAction } from '../operation/call-action.js';
import type { GatewayContext } from '../operation/context.js';
import { lookupReport } from '../cache/lookup-report.js';
import type { ActionEnvelope } from '../upstream/client.js';
import { ActionError } from '../kernel/errors.js';
import type { ActionDescriptor } from './descriptor.js';
import { tagOrigin } from '../identity/origin.js';

/** This request's loader for one action, created on first use so that every repeat is deduplicated. */
export function loaderFor<K, V>(ctx: GatewayContext, name: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
  let loader = ctx.loaders.get(name) as DataLoader<K, V> | undefined;
  if (!loader) {
    loader = create();
    ctx.loaders.set(name, loader as DataLoader<unknown, unknown>);
  }
  return loader;
}

/**
 * The items of a list field whose items are lookups, each failure settled as its Error value rather
 * than a rejected promise. Both executors answer an Error item as null with its error at the item's
 * own path; graphql-jit (0.8) instead appends a null to the list for a rejected item promise, so a
 * list whose failures settle before its other items came back longer or shorter than asked.
 */
export function settledItems<T>(items: ReadonlyArray<Promise<T>>): Array<Promise<T>> {
  // Typed as T for the schema builder: to the executors an Error value is the item's failure, not data.
  return items.map((item) =>
    item.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))) as T),
  );
}

/** What the single-key loader needs of an action's descriptor (./descriptor.ts). */
export type LookupSpec<K, V> = Pick<ActionDescriptor<K, V>, 'action' | 'cacheKey' | 'body' | 'parse' | 'namesSymbols'>;

/**
 * A loader for an action that takes one key per call: identical lookups in one operation make one
 * call, and every lookup goes through the cross-request cache (hits and concurrent twins cost nothing).
 */
export function lookup<K, V>(ctx: GatewayContext, spec: LookupSpec<K, V>, key: K): Promise<V> {
  const loader = loaderFor(
    ctx,
    spec.action,
    () =>
      new DataLoader<K, V, string>(
        (keys) => Promise.all(keys.map((k) => fetchOne(ctx, spec, k).catch((error: unknown) => error as Error))),
        {
          cacheKeyFn: spec.cacheKey,
          batch: false, // one key per upstream call: no reason to wait for a batch; the per-request cache still dedupes
        },
      ),
  );
  // Inside a @fresh field: a lookup this operation already read through the cache is made again, fresh.
  if (ctx.operation.fresh.request(spec.action, spec.cacheKey(key))) loader.clear(key);
  return loader.load(key);
}

async function fetchOne<K, V>(ctx: GatewayContext, spec: LookupSpec<K, V>, key: K): Promise<V> {
  const cacheKey = spec.cacheKey(key);
  const operation = ctx.operation;
  const fresh = operation.fresh.dispatch(spec.action, cacheKey);
  // The value this request's own call parsed: the envelope is parsed once, not again after the cache.
  const own: { envelope?: ActionEnvelope; value?: V } = {};
  // Tracing on: the lookup's trace, handed down to the cache (its store round trips) and the call (its span).
  const trace = operation.trace?.lookup(spec.action, cacheKey);
  // Counted as in flight from the start, cache round trips included, so that stock symbols this
  // lookup may name (a company's ticker) wait for it and join one financial batch.
  const outcome = await operation.symbols.track(
    spec.namesSymbols,
    ctx.cache.fetch<ActionEnvelope>(
      spec.action,
      ctx.tokenFingerprint,
      cacheKey,
      async (signal) => {
        // The call's signal: cancelled only when every request coalesced onto it has gone.
        const envelope = await callAction(ctx, spec.action, spec.body(key), signal, trace);
        own.value = spec.parse(envelope, key); // a wrong shape is an error, and errors are not cached
        own.envelope = envelope;
        return envelope;
      },
      operation, // the waiter: its signal and deadline, read only when it must wait
      fresh ? { fresh: new Set([cacheKey]), trace } : { trace },
    ),
  );
  operation.lookups.push(lookupReport(ctx.cache, spec.action, cacheKey, outcome));
  if (outcome.error) throw outcome.error;
  tagOrigin(outcome.value, spec.action, cacheKey); // items of the result derive their node ids from it
  return own.envelope !== undefined && own.envelope === outcome.value
    ? (own.value as V)
    : spec.parse(outcome.value!, key);
}

export function wrongShape(action: string, what: string): ActionError {
  return new ActionError('UPSTREAM_BAD_RESPONSE', `The upstream ${action} response is not ${what}`, { action });
}

/** `response` must be an object for most actions. */
export function responseObject(envelope: ActionEnvelope, action: string): Record<string, unknown> {
  const response = envelope.response;
  if (response === null || typeof response !== 'object' || Array.isArray(response))
    throw wrongShape(action, 'an object');
  return response as Record<string, unknown>;
}

export function responseArray(envelope: ActionEnvelope, action: string): unknown[] {
  if (!Array.isArray(envelope.response)) throw wrongShape(action, 'an array');
  return envelope.response;
}
