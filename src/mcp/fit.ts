/**
 * Bounds a tool's answer to what an agent's context can take. Over the bound, the largest list loses
 * items from its end, or the largest text is cut at a word, until the answer fits; nothing is ever cut
 * inside a value (a URL, a number, an id). Each cut is stated in `_trimmed`. When that is not enough
 * (an answer of many short values, a small bound), whole fields are left out, the largest first, and
 * named; and when even that cannot fit, the answer is only `_trimmed` saying so. The bound always holds.
 */

export interface Fitted {
  /** The answer, trimmed when it had to be, with `_trimmed` stating what was left out. */
  value: Record<string, unknown>;
  /** Its compact JSON: what the text block carries. */
  json: string;
  /** Whether anything was left out. */
  trimmed: boolean;
}

type Path = Array<string | number>;

interface Candidate {
  kind: 'list' | 'text';
  path: Path;
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  bytes: number;
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');
const WORD = /\s/;
// A text shorter than this is a label, not prose: it is never cut.
const MIN_TEXT = 40;

export function fitAnswer(answer: Record<string, unknown>, maxBytes: number, more: string): Fitted {
  const json = JSON.stringify(answer);
  if (bytesOf(json) <= maxBytes) return { value: answer, json, trimmed: false };

  const value = structuredClone(answer);
  const lists = new Map<string, { path: Path; total: number; shown: number }>();
  const texts = new Map<string, { path: Path; total: number; kept: number }>();
  const notes = () => [
    ...[...lists.values()].map(
      ({ path, total, shown }) => `${shown} of ${total} ${label(path)} shown at ${format(path)}.`,
    ),
    ...[...texts.values()].map(
      ({ path, total, kept }) => `${format(path)} cut at a word after ${kept} of ${total} characters.`,
    ),
    more,
  ];
  const measure = () => {
    value._trimmed = notes();
    return JSON.stringify(value);
  };

  let text = measure();
  for (let round = 0; round < 10_000 && bytesOf(text) > maxBytes; round++) {
    const candidates = collect(value).sort((a, b) => b.bytes - a.bytes);
    const largest = candidates[0];
    if (!largest) break;
    const excess = bytesOf(text) - maxBytes;
    // Shrink the largest down to the next largest (so that the longest go first), or by the excess.
    const cut = Math.max(1, Math.min(excess, largest.bytes - (candidates[1]?.bytes ?? 0)));
    const id = format(largest.path);
    if (largest.kind === 'list') {
      const list = largest.parent[largest.key as never] as unknown[];
      const entry = lists.get(id) ?? { path: largest.path, total: list.length, shown: list.length };
      let removed = 0;
      while (list.length > 0 && removed < cut) removed += bytesOf(JSON.stringify(list.pop())) + 1;
      entry.shown = list.length;
      lists.set(id, entry);
    } else {
      const original = largest.parent[largest.key as never] as string;
      const entry = texts.get(id) ?? { path: largest.path, total: original.length, kept: original.length };
      const shortened = cutAtWord(original, Math.max(0, original.length - cut - 1));
      (largest.parent as Record<string, unknown>)[largest.key] = shortened;
      entry.kept = shortened.length - 1;
      texts.set(id, entry);
    }
    text = measure();
  }
  if (bytesOf(text) <= maxBytes) return { value, json: text, trimmed: true };

  // Whole fields, the largest first (with what their cut's note costs), counted while they are left
  // out and named once the answer fits; a field's value is never cut.
  const leftOut: string[] = [];
  const measureLeftOut = (named: boolean) => {
    const said = named
      ? `Left out to fit: ${leftOut.join(', ')}.`
      : `${leftOut.length} fields left out to fit (the tool's outputSchema lists them all).`;
    value._trimmed = [...notes().slice(0, -1), said, more];
    return JSON.stringify(value);
  };
  for (let round = 0; round < 10_000 && bytesOf(text) > maxBytes; round++) {
    const noteOf = (id: string) => (lists.has(id) || texts.has(id) ? 40 + id.length : 0);
    const leaf = leaves(value)
      .map((candidate) => ({ ...candidate, bytes: candidate.bytes + noteOf(format(candidate.path)) }))
      .sort((a, b) => b.bytes - a.bytes)[0];
    if (!leaf) break;
    const id = format(leaf.path);
    delete (leaf.parent as Record<string, unknown>)[leaf.key];
    lists.delete(id);
    texts.delete(id);
    leftOut.push(id);
    text = measureLeftOut(false);
  }
  if (leftOut.length > 0 && bytesOf(text) <= maxBytes) {
    const named = measureLeftOut(true);
    if (bytesOf(named) <= maxBytes) text = named;
    else text = measureLeftOut(false);
  }
  if (bytesOf(text) <= maxBytes) return { value, json: text, trimmed: true };

  // Nothing of the answer fits beside what says what was left out: only that, short enough for any bound.
  const none = `The answer is larger than ${maxBytes} bytes (MCP_MAX_RESULT_TOKENS) even trimmed: nothing of it fits.`;
  for (const trimmed of [[none, more], [none]]) {
    const json = JSON.stringify({ _trimmed: trimmed });
    if (bytesOf(json) <= maxBytes) return { value: { _trimmed: trimmed }, json, trimmed: true };
  }
  return { value: {}, json: '{}', trimmed: true };
}

/** The fields of the answer that hold no list or object with anything in it (not `_trimmed`): what can be left out whole. */
function leaves(root: Record<string, unknown>): Candidate[] {
  const found: Candidate[] = [];
  const pending: Array<{ node: Record<string, unknown> | unknown[]; path: Path }> = [{ node: root, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, path } = next;
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? [...node.entries()] : Object.entries(node);
    for (const [key, item] of entries) {
      if (path.length === 0 && key === '_trimmed') continue;
      const full = [...path, key];
      const filled = item !== null && typeof item === 'object' && Object.keys(item).length > 0;
      if (filled) pending.push({ node: item as Record<string, unknown>, path: full });
      else if (!Array.isArray(node))
        found.push({
          kind: 'text',
          path: full,
          parent: node,
          key,
          bytes: bytesOf(`${JSON.stringify(key)}:${JSON.stringify(item)},`),
        });
    }
  }
  return found;
}

/** Every non-empty list and every prose text of the answer (not `_trimmed`), with its JSON size. */
function collect(root: Record<string, unknown>): Candidate[] {
  const found: Candidate[] = [];
  const walk = (node: unknown, path: Path) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(node, index, item, [...path, index]);
    } else if (node && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) visit(node as Record<string, unknown>, key, item, [...path, key]);
    }
  };
  const visit = (parent: Candidate['parent'], key: string | number, item: unknown, path: Path) => {
    if (path.length === 1 && key === '_trimmed') return;
    if (Array.isArray(item) && item.length > 0)
      found.push({ kind: 'list', path, parent, key, bytes: bytesOf(JSON.stringify(item)) });
    else if (typeof item === 'string' && item.length > MIN_TEXT && WORD.test(item.trim())) {
      found.push({ kind: 'text', path, parent, key, bytes: bytesOf(JSON.stringify(item)) });
    }
    walk(item, path);
  };
  walk(root, []);
  return found;
}

/** `text` cut to at most `max` characters at the last white space, with an ellipsis. */
function cutAtWord(text: string, max: number): string {
  const head = text.slice(0, max);
  const space = head.search(/\s\S*$/);
  return `${(space > 0 ? head.slice(0, space) : '').trimEnd()}…`;
}

/** `videositeSearch.videos[0].title` */
function format(path: Path): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

/** The list's own name: its last field. */
function label(path: Path): string {
  return String([...path].reverse().find((part) => typeof part === 'string') ?? 'items');
}
