import { GraphQLError, type ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import { countByCode, errorCodesOf, ERRORS_OMITTED } from '../telemetry/errors.js';

/** Errors one response lists; past this, the rest become one error that counts them. */
const MAX_LISTED_ERRORS = 100;

/**
 * Bounds the errors of one executed operation: a list of 5,000 failing items answers with its first
 * MAX_LISTED_ERRORS errors and one `ERRORS_OMITTED` error giving how many more there were, by code
 * (their fields are still null in `data`). Done when execution ends, before Yoga masks the errors, so
 * the omitted ones cost no masking either; the request log and the metrics count them from the summary.
 */
export function useBoundedErrors(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone(payload) {
          return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
            if ((result.errors?.length ?? 0) > MAX_LISTED_ERRORS) setResult(bounded(result));
          });
        },
      };
    },
  };
}

function bounded(result: ExecutionResult): ExecutionResult {
  const errors = result.errors!;
  const omitted = errors.slice(MAX_LISTED_ERRORS);
  const summary = new GraphQLError(
    `${omitted.length} more errors are not listed (the first ${MAX_LISTED_ERRORS} are); their fields are null.`,
    {
      extensions: { code: ERRORS_OMITTED, omitted: omitted.length, byCode: countByCode(errorCodesOf(omitted)) },
    },
  );
  return { ...result, errors: [...errors.slice(0, MAX_LISTED_ERRORS), summary] };
}
