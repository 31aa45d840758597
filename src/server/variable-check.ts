import { GraphQLError, getOperationAST, getVariableValues, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Coerces the variables before anything executes: a missing or invalid variable is HTTP 400 with
 * BAD_USER_INPUT, as graphql-js would report it, and never reaches the cost estimate or the JIT
 * executor (which would answer 200 without a code).
 */
export function useVariableCheck(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation: OperationDefinitionNode | null | undefined = getOperationAST(
        args.document,
        args.operationName ?? undefined,
      );
      // No operation: the executor reports it. No variables declared: nothing can fail to coerce.
      if (!operation?.variableDefinitions?.length) return;
      const coerced = getVariableValues(
        args.schema,
        operation.variableDefinitions,
        (args.variableValues ?? {}) as Record<string, unknown>,
        { maxErrors: 10 },
      );
      if (!coerced.errors) return;
      setResultAndStopExecution({
        errors: coerced.errors.map(
          (error) =>
            new GraphQLError(error.message, {
              nodes: error.nodes,
              source: error.source,
              positions: error.positions,
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            }),
        ),
      });
    },
  };
}
