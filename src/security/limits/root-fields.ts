import { Kind } from 'graphql';
import { countLimitRule } from './count-rule.js';
import { sumSelections } from './expand.js';

/**
 * MAX_ROOT_FIELDS_EXCEEDED: an operation selects more than `limit` root fields (each root field is
 * a lookup): fields of the root selection set, of inline fragments and of fragments spread there, a
 * fragment's once per spread, `__typename` included.
 */
export function maxRootFieldsRule(limit: number) {
  return countLimitRule(
    {
      code: 'MAX_ROOT_FIELDS_EXCEEDED',
      noun: 'root fields',
      verb: 'selects',
      count: (operation, context) =>
        sumSelections(
          operation.selectionSet,
          (name) => context.getFragment(name),
          (selection) => (selection.kind === Kind.FIELD ? 1 : 0),
          false,
        ),
    },
    limit,
  );
}
