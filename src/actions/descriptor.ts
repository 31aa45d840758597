/**
 * One descriptor per action: every fact about an action lives in its folder, in one object, and
 * the rest of the gateway (cache TTLs, the cost model, the symbol meter) reads it from
 * the action list (./all.ts) instead of keeping its own table keyed by the action's name.
 */
import type { GatewayContext } from '../operation/context.js';
import type { FieldCost, ListBound } from '../cost/model.js';
import { badInput } from '../kernel/errors.js';
import type { ActionEnvelope } from '../upstream/client.js';
import { lookup } from './loader.js';

/**
 * Everything the gateway knows about one action, K being the canonical key of one lookup. K defaults
 * to `never` (keys are only passed in), so a bare `ActionDescriptor` accepts any action's descriptor.
 */
export interface ActionDescriptor<K = never, V = unknown> {
  /** The upstream action name (the last path segment of its URL). */
  action: string;
  /** The Query field that looks the action up. */
  rootField: string;
  /** Canonical form of a key: THE key function. Equal lookups written differently share one call and one cache entry. */
  cacheKey: (key: K) => string;
  /** The upstream request body for a key. */
  body: (key: K) => Record<string, unknown>;
  /** Turns the envelope into the value fields resolve from; throws UPSTREAM_BAD_RESPONSE on a wrong shape. */
  parse: (envelope: ActionEnvelope, key: K) => V;
  /** How long a successful result stays in the cross-request cache by default (CACHE_TTL_SECONDS overrides it). */
  ttlSeconds: number;
  /** How often a lookup a live query watches is refreshed by default, in seconds (LIVE_REFRESH_SECONDS overrides it). */
  liveSeconds: number;
  /** Its results can name stock symbols (a company's ticker), so symbol batches wait for its calls. */
  namesSymbols: boolean;
  /** Keys are stock symbols that go upstream batched, many per call (costed per batch, not per lookup). */
  batchedSymbols?: boolean;
  /** The `first:` bounds of this action's lists that links resolve below, by list name. */
  lists?: Readonly<Record<string, ListBound>>;
  /** Loads one canonical key through this operation's loader, the cross-request cache and the budget. */
  load: (ctx: GatewayContext, key: K) => Promise<V>;
}

/** A descriptor for an action that takes one key per call: `load` goes through the shared single-key loader. */
export function defineLookup<K, V>(facts: Omit<ActionDescriptor<K, V>, 'load'>): ActionDescriptor<K, V> {
  const descriptor: ActionDescriptor<K, V> = { ...facts, load: (ctx, key) => lookup(ctx, descriptor, key) };
  return descriptor;
}

/** The cost extension of a field that loads `target`: one call per parent, or one symbol slot per parent for batched symbols. */
function costOf(target: Pick<ActionDescriptor, 'action' | 'batchedSymbols'>): { cost: FieldCost } {
  return { cost: { action: target.action, ...(target.batchedSymbols ? { batchedSymbols: true } : {}) } };
}

/**
 * The resolver and cost of a link field: `key` reads the target's canonical key from the parent (or
 * null: the link is null with no call and no error), and the field loads it through the target's
 * loader. Spread it into `t.field({ type, description, ...link(target, key) })`.
 */
export function link<P, K, V>(
  target: ActionDescriptor<K, V>,
  key: (parent: P) => K | null,
): { extensions: { cost: FieldCost }; resolve: (parent: P, args: object, ctx: GatewayContext) => Promise<V> | null } {
  return {
    extensions: costOf(target),
    resolve: (parent, _args, ctx) => {
      const k = key(parent);
      return k === null ? null : target.load(ctx, k);
    },
  };
}

/**
 * The `first:` argument of a list that links resolve below: give it to
 * `t.arg.int(listArgs(bound, 'videos'))`, put `listExtensions(bound)` in the field's extensions and
 * cut the list with `firstOf`. Without `first` the list is complete; the cost estimate counts `first`
 * items, or without it the most the upstream returns (`bound.most`), for each lookup selected below.
 */
export function listArgs(bound: ListBound, what: string) {
  return {
    required: false as const,
    description: `At most this many ${what}; all of them when omitted. Each one can cost the lookups selected below it: the cost estimate counts \`first\`, or without it ${bound.most} (the most the upstream returns here).`,
  };
}

/** The extensions of a list field with a `first:` argument. */
export function listExtensions(bound: ListBound): { listBound: ListBound } {
  return { listBound: bound };
}

/** Every item, or the first `first` when the client gives it; BAD_USER_INPUT when `first` is negative. */
export function firstOf<T>(items: T[], first: number | null | undefined): T[] {
  if (first === null || first === undefined) return items;
  if (!Number.isInteger(first) || first < 0)
    throw badInput(`"first" must be 0 or more, got ${first}`, { argument: 'first' });
  return items.slice(0, first);
}
