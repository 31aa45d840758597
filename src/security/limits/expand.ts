import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionNode, type SelectionSetNode } from 'graphql';

/** Finds a fragment of the document by name (ValidationContext.getFragment). */
export type FragmentLookup = (name: string) => FragmentDefinitionNode | null | undefined;

/**
 * Sums `weigh(selection)` over a selection set as it would execute: nested selections included and
 * every fragment counted once per spread, so a fragment spread five times counts five times. Each
 * fragment is measured once (memoised), so a 200-fragment chain costs 200 steps; a fragment that
 * spreads itself, directly or through others, sums to Infinity.
 */
export function sumSelections(
  set: SelectionSetNode,
  fragments: FragmentLookup,
  weigh: (selection: SelectionNode) => number,
  /** false: stay at this level (fields' own selections are not visited; fragments still are). */
  intoFields = true,
): number {
  const fragmentSum = measureFragments(fragments, (selectionSet) => sum(selectionSet));
  const sum = (selectionSet: SelectionSetNode): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      total += weigh(selection);
      if (selection.kind === Kind.FRAGMENT_SPREAD) total += fragmentSum(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT || intoFields)
        total += selection.selectionSet ? sum(selection.selectionSet) : 0;
    }
    return total;
  };
  return sum(set);
}

/**
 * The depth of a selection set as it would execute: a field is one level, fragments and inline
 * fragments add none, whatever their names. Fields for which `counts` says no are left out with
 * their subtrees. A fragment that spreads itself is Infinity deep.
 */
export function selectionDepth(
  set: SelectionSetNode,
  fragments: FragmentLookup,
  counts: (field: FieldNode) => boolean = () => true,
): number {
  const fragmentDepth = measureFragments(fragments, (selectionSet) => depth(selectionSet));
  const depth = (selectionSet: SelectionSetNode): number => {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      let value = 0;
      if (selection.kind === Kind.FIELD) {
        if (!counts(selection)) continue;
        value = 1 + (selection.selectionSet ? depth(selection.selectionSet) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        value = depth(selection.selectionSet);
      } else {
        value = fragmentDepth(selection.name.value);
      }
      if (value > deepest) deepest = value;
    }
    return deepest;
  };
  return depth(set);
}

/**
 * Measures a named fragment's selection set with `measure`, once per fragment (memoised). A
 * fragment that spreads itself, directly or through others, measures Infinity; an unknown one 0
 * (KnownFragmentNamesRule reports it).
 */
function measureFragments(
  fragments: FragmentLookup,
  measure: (set: SelectionSetNode) => number,
): (name: string) => number {
  const memo = new Map<string, number>();
  const visiting = new Set<string>();
  return (name) => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return Infinity;
    const fragment = fragments(name);
    if (!fragment) return 0;
    visiting.add(name);
    const value = measure(fragment.selectionSet);
    visiting.delete(name);
    memo.set(name, value);
    return value;
  };
}
