import { Kind, type ASTVisitor, type ValidationContext } from 'graphql';
import { rejection } from '../errors.js';
import { sumSelections } from './expand.js';

/**
 * MAX_ROOT_FIELDS_EXCEEDED: an operation selects more than `limit` root fields (each root field is
 * a lookup): fields of the root selection set, of inline fragments and of fragments spread there, a
 * fragment's once per spread, `__typename` included.
 */
export function maxRootFieldsRule(limit: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const found = sumSelections(operation.selectionSet, (name) => context.getFragment(name), (selection) => (selection.kind === Kind.FIELD ? 1 : 0), false);
      if (found > limit) {
        context.reportError(
          rejection('MAX_ROOT_FIELDS_EXCEEDED', found === Infinity ? 'The operation has unbounded root fields: a fragment spreads itself.' : `The operation selects ${found} root fields; the limit is ${limit}.`, 400, { extensions: { limit } }),
        );
      }
    },
  });
}
