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

/** A validation rule that refuses an operation whose count exceeds `limit`, with its own code and 400. */
export function countLimitRule({ code, noun, verb, count }: CountLimit, limit: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const found = count(operation, context);
      if (found <= limit) return;
      const message =
        found === Infinity
          ? `The operation has unbounded ${noun}: a fragment spreads itself.`
          : `The operation ${verb} ${found} ${noun}; the limit is ${limit}.`;
      context.reportError(rejection(code, message, 400, { extensions: { limit } }));
    },
  });
}
