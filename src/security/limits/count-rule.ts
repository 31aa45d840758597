import type { ASTVisitor, OperationDefinitionNode, ValidationContext } from 'graphql';
import { rejection } from '../errors.js';

export interface CountLimit {
  code: string;
  /** What is counted, plural: "aliases". */
  noun: string;
  /** How the message says the operation has them: "uses", "selects". */
  verb: string;
  /** The count for one operation, Infinity when a fragment spreads itself. */
  count: (operation: OperationDefinitionNode, context: ValidationContext) => number;
}

/** The refusal of an operation whose count exceeds `limit`: its own code, 400, and the limit. */
export function overLimit({ code, noun, verb }: Omit<CountLimit, 'count'>, found: number, limit: number) {
  const message =
    found === Infinity
      ? `The operation has unbounded ${noun}: a fragment spreads itself.`
      : `The operation ${verb} ${found} ${noun}; the limit is ${limit}.`;
  return rejection(code, message, 400, { extensions: { limit } });
}

/** A validation rule that refuses an operation whose count exceeds `limit`. */
export function countLimitRule(limitOf: CountLimit, limit: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const found = limitOf.count(operation, context);
      if (found > limit) context.reportError(overLimit(limitOf, found, limit));
    },
  });
}
