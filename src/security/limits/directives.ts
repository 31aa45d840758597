import { type ASTVisitor, type ValidationContext } from 'graphql';
import { rejection } from '../errors.js';
import { sumSelections } from './expand.js';

/**
 * MAX_DIRECTIVES_EXCEEDED: an operation carries more than `limit` directives: the operation's own
 * and every field's, spread's and inline fragment's, a fragment's once per spread.
 */
export function maxDirectivesRule(limit: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const found =
        (operation.directives?.length ?? 0) +
        sumSelections(operation.selectionSet, (name) => context.getFragment(name), (selection) => selection.directives?.length ?? 0);
      if (found > limit) {
        context.reportError(
          rejection('MAX_DIRECTIVES_EXCEEDED', found === Infinity ? 'The operation has unbounded directives: a fragment spreads itself.' : `The operation uses ${found} directives; the limit is ${limit}.`, 400, { extensions: { limit } }),
        );
      }
    },
  });
}
