/**
 * Federation entities: the result of one lookup, found by the natural key another subgraph holds (a
 * domain, a stock symbol, a URL). A reference is reduced by the root field's own key function and
 * loaded through the same loader as the root field, so `_entities` shares the operation's calls, the
 * cross-request cache, coalescing, symbol batching and the cost budget with everything else.
 *
 * Each action that has an entity declares it in its own folder (`src/actions/<action>/entity.ts`).
 */
import type { ObjectRef } from '@pothos/core';
import { type GraphQLResolveInfo, isObjectType, isUnionType } from 'graphql';
import type { GatewayContext } from '../operation/context.js';
import type { ActionDescriptor } from './descriptor.js';
import { settledItems } from './loader.js';
import { shown } from './web-input.js';
import type { EntityCosts } from '../cost/entities.js';
import { type BuilderTypes, builder } from '../schema/builder.js';
import { badInput } from '../kernel/errors.js';

interface EntityDefinition {
  /** The one key field (`@key(fields:)`). */
  key: string;
  /** The root field's key function: the canonical key, or BAD_USER_INPUT naming `argument`. */
  canonical: (argument: string, value: string) => string;
  batchedSymbols: boolean;
}

const definitions = new Map<string, EntityDefinition>();

/** Each entity's `asEntity` call, made by `declareEntities` when the subgraph schema is built. */
const declarations: (() => void)[] = [];

/** The `__typename` each object `_entities` returned is shown as (the `_Entity` union's resolveType). */
const entityTypes = new WeakMap<object, string>();

/**
 * Makes `ref` an entity keyed by `key`, a field holding the lookup's key. A reference's key value may be
 * written in any form the root argument accepts (`canonical` is the root field's own function); it is
 * loaded through `lookup`'s loader.
 */
export function lookupEntity<T extends object, K extends string>(
  ref: ObjectRef<BuilderTypes, T>,
  options: {
    key: K;
    lookup: Pick<ActionDescriptor<string, T>, 'batchedSymbols' | 'load'>;
    canonical: (argument: string, value: string) => string;
  },
): void {
  const { key, lookup, canonical } = options;
  definitions.set(ref.name, { key, canonical, batchedSymbols: lookup.batchedSymbols === true });
  declarations.push(() =>
    builder.asEntity(ref, {
      key: builder.selection<Record<K, string>>(key as never),
      resolveReference: (reference, ctx) => {
        const value = (reference as Record<string, unknown>)[key];
        if (typeof value !== 'string') {
          throw badInput(`A ${ref.name} representation needs its key "${key}" as a string`, {
            argument: 'representations',
            typename: ref.name,
          });
        }
        return lookup.load(ctx, canonical(key, value));
      },
    }),
  );
}

/**
 * Declares the entities on the builder (`asEntity`, a method of @pothos/plugin-federation): called by the
 * subgraph build once it has loaded that plugin, so the plain schema's start never loads it.
 */
export function declareEntities(): void {
  for (const declare of declarations.splice(0)) declare();
}

/** Whether a type is an entity of this subgraph. */
export function isEntity(typename: string): boolean {
  return definitions.has(typename);
}

/** The entity types, for the cost estimate: each one's key field, canonical key and symbol batching. */
function entityCosts(): EntityCosts {
  const costs: Record<string, EntityCosts[string]> = {};
  for (const [typename, definition] of definitions) {
    costs[typename] = {
      key: definition.key,
      batchedSymbols: definition.batchedSymbols,
      canonical: (value) => {
        try {
          return definition.canonical(definition.key, value);
        } catch {
          return null; // refused before any call: costs nothing
        }
      },
    };
  }
  return costs;
}

type ResolveReference = (
  reference: object,
  ctx: GatewayContext,
  info: GraphQLResolveInfo,
) => Promise<object | null> | object | null;

let knownEntities: string | undefined;

function unknownEntity(typename: unknown): Error {
  // The entities are all defined once the schema is built, before any request.
  knownEntities ??= [...definitions.keys()].sort().join(', ');
  const known = knownEntities;
  if (typeof typename !== 'string') {
    return badInput(
      `A representation must be an object with a "__typename" naming one of this subgraph's entities (${known})`,
      {
        argument: 'representations',
      },
    );
  }
  return badInput(`"${shown(typename)}" is not an entity of this subgraph; its entities are ${known}`, {
    argument: 'representations',
  });
}

async function resolveOne(
  representation: unknown,
  ctx: GatewayContext,
  info: GraphQLResolveInfo,
): Promise<object | null> {
  const typename =
    representation !== null && typeof representation === 'object'
      ? (representation as { __typename?: unknown }).__typename
      : undefined;
  const type = typeof typename === 'string' && definitions.has(typename) ? info.schema.getType(typename) : undefined;
  const resolveReference = isObjectType(type)
    ? ((type.extensions as { apollo?: { subgraph?: { resolveReference?: ResolveReference } } }).apollo?.subgraph
        ?.resolveReference ?? null)
    : null;
  if (!type || !resolveReference) throw unknownEntity(typename);
  const entity = await resolveReference(representation as object, ctx, info);
  if (entity !== null) entityTypes.set(entity, type.name);
  return entity;
}

/**
 * The `_entities` resolver: one entity per representation, in order. A malformed or unknown
 * representation, and a lookup that fails, is null with its coded error at its own index; the others
 * still resolve. (@apollo/subgraph's own resolver fails the whole list on an unknown type and masks the error.)
 */
export function resolveEntities(
  _root: unknown,
  args: { representations: readonly unknown[] },
  ctx: GatewayContext,
  info: GraphQLResolveInfo,
) {
  // Settled: each failure stays at its own index (a router matches entities by position). Every lookup
  // starts in this turn (one call for all symbols); the failures are handed over paced.
  const paced = pacedFailures();
  return settledItems(args.representations.map((representation) => resolveOne(representation, ctx, info))).map((item) =>
    item.then((value) => (value instanceof Error ? paced(value) : value)),
  );
}

/** Failures handed to the executor per turn of the event loop. */
const FAILURES_PER_TURN = 250;

/**
 * Hands failures over FAILURES_PER_TURN at a time, a turn of the event loop apart: turning thousands of
 * failed items into GraphQL errors is CPU work that would otherwise hold every other request back
 * until it is done.
 */
function pacedFailures(): <T>(failure: T) => T | Promise<T> {
  const turns: Array<Promise<void>> = [Promise.resolve()];
  let failures = 0;
  return (failure) => {
    const turn = Math.floor(failures / FAILURES_PER_TURN);
    failures += 1;
    if (turn === 0) return failure;
    while (turns.length <= turn)
      turns.push(turns[turns.length - 1]!.then(() => new Promise<void>((resolve) => setImmediate(resolve))));
    return turns[turn]!.then(() => failure);
  };
}

/** The `_Entity` union's resolveType. */
function entityTypeOf(value: unknown): string | undefined {
  return value !== null && typeof value === 'object' ? entityTypes.get(value) : undefined;
}

/** Installs the resolvers above on a built subgraph schema's `_entities` field and `_Entity` union. */
export function entityResolvers(schema: { getType(name: string): unknown }): {
  resolve: typeof resolveEntities;
  extensions: { entities: EntityCosts };
} {
  const union = schema.getType('_Entity');
  if (isUnionType(union)) union.resolveType = entityTypeOf;
  return { resolve: resolveEntities, extensions: { entities: entityCosts() } };
}
