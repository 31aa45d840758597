/**
 * Node ids: opaque to clients, derived from what the object is, never from upstream data that might
 * repeat. An id names the GraphQL type, the upstream action that returns the object and the
 * canonical key of that lookup (the same key the cache uses), plus, for an item inside a list result
 * (a news article, a video in a search), the item's own stable key (its link, its video id):
 *
 *   base64url("Company:" + JSON.stringify([<company action>, "hubspot.com"]))
 *   base64url("NewsArticle:" + JSON.stringify([<news action>, "[\"ai\",\"24h\"]", "https://…"]))
 *
 * So the same thing reached by any path has the same id, and two different things never share one.
 * This module is pure (no schema): the cost estimate decodes ids with it too.
 */
import { badInput } from '../kernel/errors.js';

/** What a node id stands for. */
export interface NodeKey {
  /** The upstream action whose result holds the object. */
  action: string;
  /** The canonical key of that lookup (its cache key). */
  key: string;
  /** For an item of a list result: the item's own key within that result. */
  item?: string;
}

/** Longest id accepted (a search query or URL key is at most a few KB). */
const MAX_ID_LENGTH = 8192;
const TYPENAME = /^[A-Z][A-Za-z0-9_]{0,99}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The `id` part of a relay global id: the lookup and item, as JSON. */
function nodeKeyText(key: NodeKey): string {
  return JSON.stringify(key.item === undefined ? [key.action, key.key] : [key.action, key.key, key.item]);
}

/** Pothos relay's encodeGlobalID: the type name and the key text, base64url (no padding). */
export function encodeNodeId(typename: string, id: string | number | bigint): string {
  return Buffer.from(`${typename}:${String(id)}`, 'utf8').toString('base64url');
}

/** The id of a node of `typename` for `key`. */
export function nodeId(typename: string, key: NodeKey): string {
  return encodeNodeId(typename, nodeKeyText(key));
}

function malformed(globalID: string): Error {
  const shown = globalID.length > 40 ? `${globalID.slice(0, 40)}…` : globalID;
  return badInput(
    `"${shown}" is not a node id of this gateway: pass an \`id\` value exactly as the gateway returned it`,
    { argument: 'id' },
  );
}

/** Pothos relay's decodeGlobalID: a malformed id is BAD_USER_INPUT, never an internal error. */
export function decodeNodeId(globalID: string): { typename: string; id: string } {
  if (
    typeof globalID !== 'string' ||
    globalID.length === 0 ||
    globalID.length > MAX_ID_LENGTH ||
    !BASE64URL.test(globalID)
  )
    throw malformed(String(globalID));
  const text = Buffer.from(globalID, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const typename = colon > 0 ? text.slice(0, colon) : '';
  if (!TYPENAME.test(typename)) throw malformed(globalID);
  const id = text.slice(colon + 1);
  parseNodeKey(id, globalID); // checks the shape now, so a bad id fails before anything runs
  return { typename, id };
}

/** The lookup and item an id's key text names; BAD_USER_INPUT when it is not one. */
export function parseNodeKey(id: string, globalID = id): NodeKey {
  let parts: unknown;
  try {
    parts = JSON.parse(id);
  } catch {
    throw malformed(globalID);
  }
  if (
    !Array.isArray(parts) ||
    (parts.length !== 2 && parts.length !== 3) ||
    !parts.every((part) => typeof part === 'string' && part !== '')
  ) {
    throw malformed(globalID);
  }
  const [action, key, item] = parts as string[];
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(action!)) throw malformed(globalID);
  return item === undefined ? { action: action!, key: key! } : { action: action!, key: key!, item };
}

/** The lookup a global id names, or null when it is malformed (for the cost estimate, which never throws). */
function lookupOfNodeId(globalID: unknown): { typename: string; key: NodeKey } | null {
  if (typeof globalID !== 'string') return null;
  try {
    const { typename, id } = decodeNodeId(globalID);
    return { typename, key: parseNodeKey(id) };
  } catch {
    return null;
  }
}

/** The root fields that fetch nodes by id, and their id arguments (for the cost estimate). */
export const NODE_ROOTS: Readonly<Record<string, { argument: string; list: boolean }>> = {
  node: { argument: 'id', list: false },
  nodes: { argument: 'ids', list: true },
};

/**
 * What fetching these ids can cost: one lookup per distinct action and key (items of one list
 * result share their parent's lookup), and the stock symbols of financial-profile ids, which are
 * batched with the operation's other symbols. Malformed ids cost nothing (they fail before any call).
 */
export function lookupsOfNodeIds(
  ids: unknown,
  batchesSymbols: (action: string) => boolean,
): { lookups: number; symbols: string[] } {
  const list = Array.isArray(ids) ? ids : [ids];
  const lookups = new Set<string>();
  const symbols = new Set<string>();
  for (const globalID of list) {
    const decoded = lookupOfNodeId(globalID);
    if (!decoded) continue;
    if (batchesSymbols(decoded.key.action)) symbols.add(decoded.key.key);
    else lookups.add(`${decoded.key.action}\u0000${decoded.key.key}`);
  }
  return { lookups: lookups.size, symbols: [...symbols] };
}
