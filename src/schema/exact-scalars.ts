/**
 * Scalars that give values back exactly as the upstream wrote them.
 *
 * graphql-scalars' URL scalar serialises through `new URL(...).href`, which rewrites what the
 * upstream sent ("http://taylorswift.com" became "http://taylorswift.com/", non-ASCII paths were
 * percent-encoded). This URL scalar checks the value is an absolute http(s) URL and returns the
 * string unchanged; as input it is checked the same way and handed on as the string given.
 */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * URLs already checked, with their verdict. A cached profile serves the same few hundred URLs on
 * every request, each read by a resolver and again by this scalar: WHATWG parsing was ~5% of the CPU
 * of a full profile. Bounded by the characters held (URLs can be kilobytes long).
 */
const checked = new LRUCache<string, boolean>({
  max: 20_000,
  maxSize: 4_000_000,
  sizeCalculation: (_verdict, url) => url.length,
});

/** The value itself when it is an absolute http(s) URL (WHATWG parsing), else null. */
export function exactHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > 65_536) return null;
  let valid = checked.get(value);
  if (valid === undefined) {
    valid = isAbsoluteHttpUrl(value);
    checked.set(value, valid);
  }
  return valid ? value : null;
}

function isAbsoluteHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

export const ExactURLScalar = new GraphQLScalarType<string, string>({
  name: 'URL',
  description:
    'An absolute http(s) URL, returned exactly as the upstream wrote it (no trailing slash added, nothing re-encoded). As input it must be an absolute http(s) URL.',
  specifiedByURL: 'https://url.spec.whatwg.org/',
  serialize(value) {
    const text = value instanceof URL ? value.href : exactHttpUrl(value);
    if (text === null) throw new GraphQLError('URL cannot represent a value that is not an absolute http(s) URL');
    return text;
  },
  parseValue(value) {
    const text = exactHttpUrl(typeof value === 'string' ? value.trim() : value);
    if (text === null)
      throw new GraphQLError('URL must be an absolute http(s) URL', { extensions: { code: 'BAD_USER_INPUT' } });
    return text;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING)
      throw new GraphQLError('URL must be a string', { nodes: ast, extensions: { code: 'BAD_USER_INPUT' } });
    const text = exactHttpUrl(ast.value.trim());
    if (text === null)
      throw new GraphQLError('URL must be an absolute http(s) URL', {
        nodes: ast,
        extensions: { code: 'BAD_USER_INPUT' },
      });
    return text;
  },
});
