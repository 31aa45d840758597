// Own, not graphql-armor's max-depth: it skips `__schema` whole or refuses GraphiQL's introspection, and misreads fragment cycles.
import {
  getIntrospectionQuery,
  parse,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type ValidationContext,
} from 'graphql';
import { rejection } from '../errors.js';
import { selectionDepth, type FragmentLookup } from './expand.js';

const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);
const notIntrospection = (field: FieldNode) => !INTROSPECTION_FIELDS.has(field.name.value);

/**
 * How deep an introspection query may go: as deep as graphql-js's full introspection query (the one
 * GraphiQL sends), and no deeper, so `__schema { types { fields { type { fields ...` cannot fan out.
 */
export const INTROSPECTION_DEPTH = documentDepth(
  parse(
    getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    }),
  ),
);

/**
 * MAX_DEPTH_EXCEEDED: an operation nests fields deeper than `limit` (the root field is depth 1).
 * Fragments are expanded wherever they are spread, whatever their names (a fragment named `__schema`
 * is a fragment like any other), and a fragment cycle is unbounded depth. Only the introspection
 * fields themselves (by field name, never alias) get the introspection query's allowance.
 */
export function maxDepthRule(limit: number, introspectionAllowed: boolean) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments: FragmentLookup = (name) => context.getFragment(name);
    return {
      OperationDefinition(operation) {
        const withIntrospection = selectionDepth(operation.selectionSet, fragments);
        const depth = introspectionAllowed
          ? selectionDepth(operation.selectionSet, fragments, notIntrospection)
          : withIntrospection;
        const allowance = introspectionAllowed ? Math.max(limit, INTROSPECTION_DEPTH) : limit;
        if (depth > limit || withIntrospection > allowance) {
          const found = Math.max(depth, withIntrospection);
          context.reportError(
            rejection(
              'MAX_DEPTH_EXCEEDED',
              found === Infinity
                ? 'The operation has unbounded depth: a fragment spreads itself.'
                : `The operation is ${found} fields deep; the limit is ${depth > limit ? limit : allowance}.`,
              400,
              { extensions: { limit: depth > limit ? limit : allowance } },
            ),
          );
        }
      },
    };
  };
}

function documentDepth(document: DocumentNode): number {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])),
  );
  let deepest = 0;
  for (const definition of document.definitions) {
    if (definition.kind === 'OperationDefinition')
      deepest = Math.max(
        deepest,
        selectionDepth(definition.selectionSet, (name) => fragments.get(name)),
      );
  }
  return deepest;
}
