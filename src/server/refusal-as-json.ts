import { isAsyncIterable, processRegularResult, type Plugin } from 'graphql-yoga';

/**
 * A refusal (errors, no data) for a client that accepts none of GraphQL's media types, such as a
 * browser's `Accept: text/html` on /graphql with GraphiQL off, goes out as application/json with the
 * refusal's own status and code, instead of Yoga's empty 406: the client reads what the request log
 * records. GraphQL over HTTP allows either (a 406, or disregarding Accept for application/json).
 */
export function useRefusalsAsJson(): Plugin {
  return {
    onResultProcess({ result, resultProcessor, setResultProcessor }) {
      if (resultProcessor || isAsyncIterable(result) || Array.isArray(result)) return;
      if (result.data == null && result.errors?.length) setResultProcessor(processRegularResult, 'application/json');
    },
  };
}
