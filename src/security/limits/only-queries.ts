import type { ASTVisitor, ValidationContext } from 'graphql';
import { rejection } from '../errors.js';

/**
 * OPERATION_NOT_SUPPORTED: the gateway is read-only and has no Mutation or Subscription type.
 * graphql-js 16 does not check the root type at validation, so without this rule such a document
 * reaches the executor (graphql-jit throws: HTTP 200, INTERNAL_SERVER_ERROR, a stack on stderr).
 * Here it is a client error: HTTP 400 with a code, before anything runs.
 */
export function onlyQueriesRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation === 'query') return;
      const name = node.name ? ` "${node.name.value}"` : '';
      context.reportError(
        rejection(
          'OPERATION_NOT_SUPPORTED',
          `This gateway answers queries only: the ${node.operation}${name} cannot run (there are no ${node.operation}s).`,
          400,
        ),
      );
    },
  };
}
