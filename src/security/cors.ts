import type { Plugin } from 'graphql-yoga';
import { addVary } from '../kernel/vary.js';

const ALLOWED_HEADERS = 'accept, content-type, authorization, x-api-key, x-graphql-yoga-csrf, mcp-protocol-version, mcp-session-id';

/**
 * CORS with an explicit allowlist (Yoga's own CORS is off: it reflects any Origin with
 * credentials). A listed origin gets itself back in Access-Control-Allow-Origin, never with
 * Access-Control-Allow-Credentials (clients authenticate with headers, not cookies); any other
 * origin gets no CORS header at all, and its preflight a 403. An empty list: no cross-origin access.
 */
export function useCorsAllowlist(origins: string[]): Plugin {
  const allowed = new Set(origins);
  const preflight: Plugin = {
    onRequest({ request, endResponse, fetchAPI }) {
      if (request.method !== 'OPTIONS') return;
      const origin = request.headers.get('origin');
      if (origin !== null && allowed.has(origin)) {
        endResponse(
          new fetchAPI.Response(null, {
            status: 204,
            headers: {
              'Access-Control-Allow-Origin': origin,
              'Access-Control-Allow-Methods': 'GET, POST',
              'Access-Control-Allow-Headers': ALLOWED_HEADERS,
              'Access-Control-Max-Age': '600',
              Vary: 'Origin',
              'Content-Length': '0',
            },
          }),
        );
      } else {
        endResponse(new fetchAPI.Response(null, { status: 403, headers: { Vary: 'Origin', 'Content-Length': '0' } }));
      }
    },
  };
  // An empty list: answers carry no CORS header (preflights are still refused).
  if (allowed.size === 0) return preflight;
  return {
    ...preflight,
    onResponse({ request, response }) {
      if (request.method === 'OPTIONS') return;
      for (const [name, value] of corsHeaders(allowed, request.headers.get('origin'))) {
        if (name === 'Vary') addVary(response.headers, value);
        else response.headers.set(name, value);
      }
    },
  };
}

/** The CORS headers of an answer (not a preflight) to a request from `origin`, for a non-empty allowlist. */
function corsHeaders(allowed: ReadonlySet<string>, origin: string | null): Array<[string, string]> {
  if (!origin || !allowed.has(origin)) return [['Vary', 'Origin']];
  return [
    ['Vary', 'Origin'],
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Expose-Headers', 'Retry-After'],
  ];
}
