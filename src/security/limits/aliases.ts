import { Kind, type ASTVisitor, type ValidationContext } from 'graphql';
import { rejection } from '../errors.js';
import { sumSelections } from './expand.js';

/**
 * MAX_ALIASES_EXCEEDED: an operation uses more than `limit` aliases, counted as it would execute:
 * `__typename` aliases included, and a fragment's aliases once per spread.
 */
export function maxAliasesRule(limit: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const found = sumSelections(operation.selectionSet, (name) => context.getFragment(name), (selection) =>
        selection.kind === Kind.FIELD && selection.alias ? 1 : 0,
      );
      if (found > limit) {
        context.reportError(
          rejection('MAX_ALIASES_EXCEEDED', found === Infinity ? 'The operation has unbounded aliases: a fragment spreads itself.' : `The operation uses ${found} aliases; the limit is ${limit}.`, 400, { extensions: { limit } }),
        );
      }
    },
  });
}
