import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Plugin } from 'graphql-yoga';
import { rejection } from './errors.js';

export const CSRF_HEADER = 'x-graphql-yoga-csrf';

/**
 * Yoga's CSRF prevention: a request a browser may send cross-site without a preflight (GET, or a
 * POST of text/plain, multipart/form-data or form-urlencoded) needs the x-graphql-yoga-csrf header.
 * application/json POSTs (GraphiQL, every GraphQL client) are preflighted and pass. The plugin's
 * refusal carries no code; it is re-thrown as CSRF_HEADER_REQUIRED (HTTP 403).
 */
export function useCsrfGuard(): Plugin {
  const inner = useCSRFPrevention({ requestHeaders: [CSRF_HEADER] });
  return {
    onRequestParse(payload) {
      try {
        return inner.onRequestParse?.(payload);
      } catch {
        throw rejection(
          'CSRF_HEADER_REQUIRED',
          `Send the operation as a POST with content-type application/json, or add the "${CSRF_HEADER}" header.`,
          403,
        );
      }
    },
  };
}
