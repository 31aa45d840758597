import { Kind } from 'graphql';
import { countLimitRule } from './count-rule.js';
import { sumSelections } from './expand.js';

/**
 * MAX_ALIASES_EXCEEDED: an operation uses more than `limit` aliases, counted as it would execute:
 * `__typename` aliases included, and a fragment's aliases once per spread.
 */
export function maxAliasesRule(limit: number) {
  return countLimitRule(
    {
      code: 'MAX_ALIASES_EXCEEDED',
      noun: 'aliases',
      verb: 'uses',
      count: (operation, context) =>
        sumSelections(
          operation.selectionSet,
          (name) => context.getFragment(name),
          (selection) => (selection.kind === Kind.FIELD && selection.alias ? 1 : 0),
        ),
    },
    limit,
  );
}
