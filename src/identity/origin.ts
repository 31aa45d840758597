/**
 * Where an object of a lookup's result came from, so that items inside a list result (a news
 * article, a video of a search, a CRM owner) can name their lookup in their node id. The loader tags
 * every object of an envelope once (objects are shared by cache hits, so the walk is done once per
 * envelope object); tags are weak, so they go with the objects.
 */

export interface Origin {
  action: string;
  key: string;
}

const origins = new WeakMap<object, Origin>();
const walked = new WeakSet<object>();
/** Actions whose results hold item nodes (registered by itemNode as the schema is built); only their results are walked. */
const holdingItems = new Set<string>();

export function holdsItemNodes(action: string): void {
  holdingItems.add(action);
}

/**
 * Tags `value` and every object inside it with the lookup it came from, when the action's results hold
 * item nodes; other results (a domain record, a 13 KB profile) have no item that asks for its origin.
 */
export function tagOrigin(value: unknown, action: string, key: string): void {
  if (!holdingItems.has(action) || value === null || typeof value !== 'object' || walked.has(value)) return;
  walked.add(value);
  const origin: Origin = { action, key };
  const stack: object[] = [value];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (origins.has(current)) continue;
    origins.set(current, origin);
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

/** The lookup an object of a result came from; undefined for objects no loader returned. */
export function originOf(value: object): Origin | undefined {
  return origins.get(value);
}

/** The GraphQL type each object returned by `node`/`nodes` is shown as (the Node interface's resolveType). */
const nodeTypes = new WeakMap<object, string>();

export function markNodeType(value: unknown, typename: string): void {
  if (value !== null && typeof value === 'object') nodeTypes.set(value, typename);
}

export function nodeTypeOf(value: unknown): string | undefined {
  return value !== null && typeof value === 'object' ? nodeTypes.get(value) : undefined;
}
