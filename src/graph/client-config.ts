/**
 * What a frontend needs to use this schema with typed clients and normalised caches, shipped as
 * code and as JSON (schema/client/*.json, written by `npm run schema:print`, checked by a test):
 *
 * - `scalars`: the GraphQL Code Generator scalar map (`config.scalars` of the typescript plugins),
 *   so generated types say string/number instead of unknown;
 * - `embeddedTypes`: the object types without an `id` (value objects such as CompanyMetrics that
 *   live inside their parent). Apollo Client needs nothing for them; urql Graphcache warns about
 *   each unless told with `keys: { CompanyMetrics: () => null, ... }` (see `urqlKeys`).
 */
import { isObjectType, type GraphQLSchema } from 'graphql';
import { schema } from './index.js';

/** GraphQL Code Generator `scalars` (input and output types of each custom scalar, as the gateway sends them). */
export const scalars = {
  /** ISO calendar date text, "2024-03-26". */
  Date: { input: 'string', output: 'string' },
  /** ISO 8601 timestamp text with a zone, "2024-03-26T12:00:00Z". */
  DateTime: { input: 'string', output: 'string' },
  /** Any JSON value. */
  JSON: { input: 'unknown', output: 'unknown' },
  /** An integer within ±(2^53 − 1), a JSON number. */
  SafeInt: { input: 'number', output: 'number' },
  /** An absolute http(s) URL, exactly as the upstream wrote it. */
  URL: { input: 'string', output: 'string' },
} as const;

/** Object types with no `id` field: embedded in their parent by normalising caches. */
export function embeddedTypes(target: GraphQLSchema = schema): string[] {
  return Object.values(target.getTypeMap())
    .filter(
      (type) =>
        isObjectType(type) &&
        !type.name.startsWith('__') &&
        type !== target.getQueryType() &&
        !('id' in type.getFields()),
    )
    .map((type) => type.name)
    .sort();
}

/** urql Graphcache `keys`: every embedded type keyed as null (embedded), every Node by its `id` (the default). */
export function urqlKeys(target: GraphQLSchema = schema): Record<string, () => null> {
  return Object.fromEntries(embeddedTypes(target).map((name) => [name, () => null]));
}
