import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';

/**
 * The JSON body the replay route (src/replay-route.ts) already parsed, handed to Yoga with the request
 * it could not answer, so Yoga does not read it through whatwg-node's body and parse it again. Only a
 * body parsed for this request is handed over (a kept one is shared between requests).
 */
const PARSED = Symbol('lookup-graph.parsed-params');

type WithParams = IncomingMessage & { [PARSED]?: Record<string, unknown> };

export function handParsedParams(req: IncomingMessage, params: Record<string, unknown>): void {
  (req as WithParams)[PARSED] = params;
}

/**
 * Yoga's parser for the body, replaced by the parse already made when Yoga chose its POST JSON parser
 * (the same test as graphql-yoga's isPOSTJsonRequest), which would have returned this very object.
 * After Yoga's own parser plugins, which every user plugin is.
 */
export function parsedParams(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, serverContext }) {
      const params = (serverContext as { req?: WithParams }).req?.[PARSED];
      if (params === undefined || !requestParser || !isPostJson(request)) return;
      setRequestParser(() => params);
    },
  };
}

function isPostJson(request: Request): boolean {
  if (request.method !== 'POST') return false;
  const type = request.headers.get('content-type')?.split(',')[0];
  return type === 'application/json' || type?.startsWith('application/json;') === true;
}
