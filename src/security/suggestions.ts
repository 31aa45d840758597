// Own, not graphql-armor's block-field-suggestions: that cleans validation errors only, not a variable's "Did you mean the enum value …?".
import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const DID_YOU_MEAN = /\s*Did you mean [\s\S]*\?$/;

/**
 * Production: "Did you mean ...?" is cut from every error message (validation, unknown arguments,
 * enum values in variables), so the schema cannot be guessed field by field with introspection off.
 */
export function useHiddenSuggestions(): Plugin {
  return {
    onExecutionResult({ result, setResult }) {
      if (result && !(Symbol.asyncIterator in result)) setResult(strip(result as ExecutionResult));
    },
  };
}

function strip(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.some((error) => DID_YOU_MEAN.test(error.message))) return result;
  return {
    ...result,
    errors: result.errors.map((error) =>
      DID_YOU_MEAN.test(error.message)
        ? new GraphQLError(error.message.replace(DID_YOU_MEAN, ''), {
            nodes: error.nodes,
            source: error.source,
            positions: error.positions,
            path: error.path,
            originalError: error.originalError,
            extensions: error.extensions,
          })
        : error,
    ),
  };
}
