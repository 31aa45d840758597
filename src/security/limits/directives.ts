import { countLimitRule } from './count-rule.js';
import { sumSelections } from './expand.js';

/**
 * MAX_DIRECTIVES_EXCEEDED: an operation carries more than `limit` directives: the operation's own
 * and every field's, spread's and inline fragment's, a fragment's once per spread.
 */
export function maxDirectivesRule(limit: number) {
  return countLimitRule(
    {
      code: 'MAX_DIRECTIVES_EXCEEDED',
      noun: 'directives',
      verb: 'uses',
      count: (operation, context) =>
        (operation.directives?.length ?? 0) +
        sumSelections(
          operation.selectionSet,
          (name) => context.getFragment(name),
          (selection) => selection.directives?.length ?? 0,
        ),
    },
    limit,
  );
}
