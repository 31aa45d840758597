import {
  GraphQLError,
  getOperationAST,
  getVariableValues,
  valueFromASTUntyped,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Coerces the variables before anything executes: a missing or invalid variable is HTTP 400 with
 * BAD_USER_INPUT, as graphql-js would report it, and never reaches the cost estimate or the JIT
 * executor (which would answer 200 without a code). A variable left out that declares a default gets
 * its default here, as the GraphQL specification says, on every path (GraphQL, tools, trusted documents):
 * graphql-jit does not apply the default of a non-null variable and would refuse it as not provided.
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
      if (!coerced.errors) {
        args.variableValues = withDefaults(operation, (args.variableValues ?? {}) as Record<string, unknown>);
        return;
      }
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

/** The variables as sent, with each declared default in place of a variable left out (a null sent stays null). */
function withDefaults(operation: OperationDefinitionNode, sent: Record<string, unknown>): Record<string, unknown> {
  let values = sent;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!definition.defaultValue || Object.hasOwn(sent, name)) continue;
    if (values === sent) values = { ...sent };
    values[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return values;
}
