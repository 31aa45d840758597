/**
 * Scalars that give values back exactly as the upstream wrote them.
 *
 * graphql-scalars' URL scalar serialises through `new URL(...).href`, which rewrites what the
 * upstream sent ("http://taylorswift.com" became "http://taylorswift.com/", non-ASCII paths were
 * percent-encoded). This URL scalar checks the value is an absolute http(s) URL and returns the
 * string unchanged; as input it is checked the same way and handed on as the string given.
 */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** The value itself when it is an absolute http(s) URL (WHATWG parsing), else null. */
export function exactHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || value.length > 65_536) return null;
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    const parsed = new URL(value);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? value : null;
  } catch {
    return null;
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
    if (text === null) throw new GraphQLError('URL must be an absolute http(s) URL', { extensions: { code: 'BAD_USER_INPUT' } });
    return text;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('URL must be a string', { nodes: ast, extensions: { code: 'BAD_USER_INPUT' } });
    const text = exactHttpUrl(ast.value.trim());
    if (text === null) throw new GraphQLError('URL must be an absolute http(s) URL', { nodes: ast, extensions: { code: 'BAD_USER_INPUT' } });
    return text;
  },
});
