/**
 * The Node interface (from @pothos/plugin-relay), `id` on every object one lookup returns, and the
 * `node(id:)` / `nodes(ids:)` root fields. A node is fetched again through the same loaders as the
 * root fields, so it goes through the cache, the cost budget and the same coded errors, and ids of
 * one lookup asked several times in an operation make one call.
 *
 * Two kinds of node, each declared next to its action (`src/actions/<action>/node.ts`):
 * - a lookup's own result (a company, a channel): id = the action and its canonical key;
 * - an item of a list result (a news article, a video of a search): id = the lookup the item came
 *   from and the item's own stable key. Fetched again by repeating that lookup (usually a cache hit)
 *   and finding the item; NOT_FOUND when the result no longer holds it.
 */
import { createHash } from 'node:crypto';
import type { InterfaceRef, ObjectRef } from '@pothos/core';
import type { GatewayContext } from '../operation/context.js';
import { type BuilderTypes as Types, builder } from '../schema/builder.js';
import { settledItems } from './loader.js';
import { ActionError, badInput } from '../kernel/errors.js';
import { nodeId, parseNodeKey, type NodeKey } from '../identity/global-id.js';
import { holdsItemNodes, markNodeType, originOf } from '../identity/origin.js';

const Node = builder.nodeInterfaceRef();

/** The most ids one `nodes(ids:)` takes. */
export const MAX_NODE_IDS = 100;

interface NodeDefinition {
  action: string;
  load: (ctx: GatewayContext, key: NodeKey) => Promise<object>;
}

const definitions = new Map<string, NodeDefinition>();

function notFound(typename: string, action: string): ActionError {
  return new ActionError('NOT_FOUND', `No ${typename} has this id any more: the ${action} result no longer holds it`, {
    action,
  });
}

function idField<T extends object>(ref: ObjectRef<Types, T>, typename: string, keyOf: (source: T) => NodeKey): void {
  ref.addInterfaces([Node]);
  builder.objectFields(ref, (t) => ({
    id: t.id({
      nullable: false,
      description: `Opaque, stable id of this ${typename}: the same ${typename} has the same id from any path. Pass it to \`node(id:)\` to fetch it again.`,
      resolve: (source) => nodeId(typename, keyOf(source)),
    }),
  }));
}

/**
 * A type that is the whole result of one lookup. `keyOf` gives the canonical key it was looked up
 * by (the lookup's cache key); `load` fetches it again from a key read out of an id, checking it as
 * the root field checks its argument.
 */
export function lookupNode<T extends object>(
  ref: ObjectRef<Types, T>,
  options: { action: string; keyOf: (source: T) => string; load: (ctx: GatewayContext, key: string) => Promise<T> },
): void {
  const typename = ref.name;
  idField(ref, typename, (source) => ({ action: options.action, key: options.keyOf(source) }));
  definitions.set(typename, { action: options.action, load: (ctx, key) => options.load(ctx, key.key) });
}

/** A stable key for an item with no key of its own: a hash of its content. */
function contentKey(item: object): string {
  return `sha1:${createHash('sha1').update(JSON.stringify(item)).digest('base64url')}`;
}

/**
 * A type that is an item inside one lookup's result. `itemKey` is the item's own stable key (a link,
 * a video id; a hash of its content when it has none); `items` lists the candidates inside the
 * parent result that `load` returns.
 */
export function itemNode<T extends object, P>(
  ref: ObjectRef<Types, T>,
  options: {
    action: string;
    itemKey: (item: T) => string | null;
    load: (ctx: GatewayContext, key: string) => Promise<P>;
    items: (parent: P) => T[];
  },
): void {
  const typename = ref.name;
  holdsItemNodes(options.action);
  const keyOf = (item: T): string => options.itemKey(item) ?? contentKey(item);
  idField(ref, typename, (item) => {
    const origin = originOf(item);
    // Every object a loader returns is tagged; an untagged one would be a programming error.
    if (!origin) throw new Error(`${typename} has no origin to derive its id from`);
    return { action: origin.action, key: origin.key, item: keyOf(item) };
  });
  definitions.set(typename, {
    action: options.action,
    load: async (ctx, key) => {
      if (key.item === undefined)
        throw badInput(`This id does not name an item of a ${typename} list`, { argument: 'id' });
      const parent = await options.load(ctx, key.key);
      const found = options.items(parent).find((item) => keyOf(item) === key.item);
      if (!found) throw notFound(typename, options.action);
      return found;
    },
  });
}

/** Interfaces whose implementations are nodes (e.g. VideositeVideo) implement Node too, with the same `id`. */
export function nodeInterface<T extends object>(ref: InterfaceRef<Types, T>): void {
  ref.addInterfaces([Node]);
  builder.interfaceFields(ref, (t) => ({
    id: t.id({
      nullable: false,
      description: 'Opaque, stable id of this object (see Node). Pass it to `node(id:)` to fetch it again.',
      resolve: () => {
        throw new Error('id is resolved by each implementing type');
      },
    }),
  }));
}

/** Fetches the node a decoded id names, through the loaders; BAD_USER_INPUT when the id cannot be one of ours. */
async function loadNode(ctx: GatewayContext, decoded: { typename: string; id: string }): Promise<object> {
  const definition = definitions.get(decoded.typename);
  const key = parseNodeKey(decoded.id);
  if (!definition || definition.action !== key.action) {
    throw badInput(`This id names no object type of this gateway that can be fetched again (${decoded.typename})`, {
      argument: 'id',
    });
  }
  const value = await definition.load(ctx, key);
  markNodeType(value, decoded.typename);
  return value;
}

/** The types that implement Node, for tests and documentation. */
export function nodeTypeNames(): string[] {
  return [...definitions.keys()].sort();
}

builder.queryFields((t) => ({
  node: t.field({
    type: Node,
    description:
      'Fetches again the object an `id` names (any type implementing Node), through the same loaders, cache and cost budget as the root fields. A malformed id is BAD_USER_INPUT; an object the upstream no longer has is null with NOT_FOUND. Costs one lookup.',
    args: {
      id: t.arg.globalID({
        required: true,
        description: 'An `id` exactly as the gateway returned it.',
        extensions: { relayGlobalIDAlwaysParse: true },
      }),
    },
    resolve: (_root, args, ctx) => loadNode(ctx, args.id),
  }),
  nodes: t.field({
    type: [Node],
    nullable: { list: false, items: true },
    description:
      'Fetches several objects by `id`, in the order given. Each failed one is null with its coded error at its index; the others still resolve. Ids of one lookup share one call; costs one lookup per distinct id (stock symbols batched as in `financialProfiles`).',
    args: {
      ids: t.arg.globalIDList({
        required: true,
        description: `Ids exactly as the gateway returned them (at most ${MAX_NODE_IDS}).`,
        extensions: { relayGlobalIDAlwaysParse: true },
      }),
    },
    resolve: (_root, args, ctx) => {
      if (args.ids.length > MAX_NODE_IDS)
        throw badInput(`"ids" takes at most ${MAX_NODE_IDS} ids`, { argument: 'ids' });
      return settledItems(args.ids.map((id) => loadNode(ctx, id)));
    },
  }),
}));

/**
 * A key read out of an id, checked the way the root field checks its argument: it must already be
 * in canonical form (ids are only ever made from canonical keys), else the id is not one of ours.
 */
export function canonicalKey(key: string, canonical: (value: string) => string): string {
  let checked: string;
  try {
    checked = canonical(key);
  } catch {
    checked = '';
  }
  if (checked !== key) throw badInput('This id does not name a lookup this gateway makes', { argument: 'id' });
  return key;
}

/** A JSON-array key read out of an id ("[query, window]"), or BAD_USER_INPUT. */
export function keyParts(key: string, length: number): unknown[] {
  try {
    const parts: unknown = JSON.parse(key);
    if (Array.isArray(parts) && parts.length === length) return parts;
  } catch {
    // falls through
  }
  throw badInput('This id does not name a lookup this gateway makes', { argument: 'id' });
}
