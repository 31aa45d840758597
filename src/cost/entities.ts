/**
 * The cost of Federation's `_entities(representations:)`: a router's request for entities is a list of
 * lookups, known from the representations before anything runs. Each type counts its distinct
 * canonical keys (a URL and a bare domain naming one company are one lookup); stock symbols join the
 * operation's symbol batch. Below each type, its selections are counted once per distinct key.
 * Malformed or unknown representations cost nothing: they fail before any call.
 */

/** What the estimate knows of one entity type; the `_entities` field carries them in its extensions under `entities`. */
interface EntityKeyCost {
  /** The key field of its representations. */
  key: string;
  /** The canonical key of a representation's key value; null when it is not one. */
  canonical: (value: string) => string | null;
  /** Its keys are stock symbols, batched many per call. */
  batchedSymbols: boolean;
}

/** By entity type name. */
export type EntityCosts = Readonly<Record<string, EntityKeyCost>>;

export interface EntityLookups {
  /** Distinct canonical keys per type. */
  keys: Map<string, Set<string>>;
  /** Every distinct stock symbol (of the types whose keys are symbols). */
  symbols: Set<string>;
}

/** The lookups a list of representations asks for. */
export function entityLookups(representations: unknown, entities: EntityCosts): EntityLookups {
  const keys = new Map<string, Set<string>>();
  const symbols = new Set<string>();
  for (const representation of Array.isArray(representations) ? representations : [representations]) {
    if (representation === null || typeof representation !== 'object') continue;
    const { __typename: typename } = representation as { __typename?: unknown };
    const entity = typeof typename === 'string' && Object.hasOwn(entities, typename) ? entities[typename]! : undefined;
    const value = entity ? (representation as Record<string, unknown>)[entity.key] : undefined;
    const key = typeof value === 'string' ? entity!.canonical(value) : null;
    if (key === null) continue;
    const ofType = keys.get(typename as string) ?? new Set<string>();
    keys.set(typename as string, ofType.add(key));
    if (entity!.batchedSymbols) symbols.add(key);
  }
  return { keys, symbols };
}
