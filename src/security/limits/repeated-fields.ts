import { Kind, type ASTVisitor, type FieldNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import { rejection } from '../errors.js';
import type { FragmentLookup } from './expand.js';

/**
 * Field nodes walked in one operation, fragments expanded at each spread, before it is refused whatever
 * it repeats: what keeps this rule's own walk linear when fragments multiply.
 */
const MAX_FIELDS_WALKED = 10_000;

/**
 * MAX_REPEATED_FIELDS_EXCEEDED: more than `limit` field nodes answer at one response path (`company.name`
 * selected 500 times; the same field through many fragments or through repeated parents multiplies too).
 * graphql-js's OverlappingFieldsCanBeMerged compares every pair of fields at a path, so its work grows with
 * the square of these counts: 500 repeats cost 170 to 290 ms of CPU. This walk is linear in the fields of
 * the operation as it executes, and the limit rules run before the specified rules, so such a document is
 * refused before the quadratic rule sees it.
 */
export function maxRepeatedFieldsRule(limit: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const found = mostRepeated(operation.selectionSet, (name) => context.getFragment(name), limit);
      if (!found) return;
      const message =
        found.count === Infinity
          ? `The operation selects more than ${MAX_FIELDS_WALKED} fields once its fragments are expanded.`
          : `The operation selects "${found.path}" ${found.count} times; the limit is ${limit} at one path.`;
      context.reportError(
        rejection('MAX_REPEATED_FIELDS_EXCEEDED', message, 400, {
          extensions: { limit, ...(found.count === Infinity ? {} : { path: found.path }) },
        }),
      );
    },
  });
}

/** The first response path selected more than `limit` times, or `count: Infinity` past the walk's bound. */
function mostRepeated(
  root: SelectionSetNode,
  fragments: FragmentLookup,
  limit: number,
): { path: string; count: number } | null {
  let walked = 0;
  const overBound = { path: '', count: Infinity };
  // The fields of these selection sets as they execute together: inline fragments and spreads merged in.
  const collect = (sets: readonly SelectionSetNode[], into: Map<string, FieldNode[]>, spreading: Set<string>) => {
    for (const set of sets) {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if (++walked > MAX_FIELDS_WALKED) return false;
          const name = selection.alias?.value ?? selection.name.value;
          const same = into.get(name);
          if (same) same.push(selection);
          else into.set(name, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (!collect([selection.selectionSet], into, spreading)) return false;
        } else {
          const name = selection.name.value;
          const fragment = fragments(name);
          // An unknown fragment or one that spreads itself: the specified rules report it.
          if (!fragment || spreading.has(name)) continue;
          spreading.add(name);
          const ok = collect([fragment.selectionSet], into, spreading);
          spreading.delete(name);
          if (!ok) return false;
        }
      }
    }
    return true;
  };
  const walk = (sets: readonly SelectionSetNode[], prefix: string): { path: string; count: number } | null => {
    const byName = new Map<string, FieldNode[]>();
    if (!collect(sets, byName, new Set())) return overBound;
    for (const [name, fields] of byName) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (fields.length > limit) return { path, count: fields.length };
      const below = fields.flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
      if (below.length > 0) {
        const found = walk(below, path);
        if (found) return found;
      }
    }
    return null;
  };
  return walk([root], '');
}
