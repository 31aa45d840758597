/** Values derived from the channel page's display text. */

/**
 * Channel keywords arrive as one string: space-separated words with multi-word keywords in double
 * quotes (`music "live concert" tour`), or, from some channels, comma-separated. Duplicates are dropped.
 */
export function splitKeywords(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const parts = value.includes('"')
    ? Array.from(value.matchAll(/"([^"]*)"|([^\s"]+)/g), (m) => m[1] ?? m[2] ?? '')
    : value.includes(',')
      ? value.split(',')
      : value.split(/\s+/);
  const seen = new Set<string>();
  for (const part of parts) {
    const keyword = part.trim().replace(/\s+/g, ' ');
    if (keyword !== '') seen.add(keyword);
  }
  return [...seen];
}

const SPACED_UTC = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s*(?:UTC|GMT|Z)$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 timestamp, also from the "YYYY-MM-DD HH:MM:SS UTC" form search engines write; else null. */
export function timestamp(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const spaced = SPACED_UTC.exec(trimmed);
  const candidate = spaced ? `${spaced[1]}T${spaced[2]}Z` : trimmed;
  return RFC3339.test(candidate) && !Number.isNaN(Date.parse(candidate)) ? candidate : null;
}

/** The handle in a channel reference ("@name"), or null when the reference is an id. */
export function handleOf(value: unknown): string | null {
  return typeof value === 'string' && /^@[^\s/]+$/.test(value.trim()) ? value.trim() : null;
}
