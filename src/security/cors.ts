import { type CORSOptions, useCORS } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { addVary } from '../kernel/vary.js';

/**
 * CORS with an explicit allowlist, by @whatwg-node/server's useCORS (Yoga's own `cors` option is off: by
 * default it reflects any Origin with credentials). A listed origin gets itself back in
 * Access-Control-Allow-Origin, never with Access-Control-Allow-Credentials (clients authenticate with
 * headers, not cookies); any other origin gets no CORS header at all, and its preflight a 403. An empty
 * list: no cross-origin access.
 */
export function useCorsAllowlist(origins: string[]): Plugin[] {
  const allowed = new Set(origins);
  const listed = (request: Request) => {
    const origin = request.headers.get('origin');
    return origin !== null && allowed.has(origin) ? origin : null;
  };
  const options = (origin: string): CORSOptions => ({
    origin: [origin],
    methods: ['GET', 'POST'],
    allowedHeaders: [
      'accept',
      'content-type',
      'authorization',
      'x-api-key',
      'x-graphql-yoga-csrf',
      'mcp-protocol-version',
      'mcp-session-id',
    ],
    exposedHeaders: ['Retry-After'],
    credentials: false,
    maxAge: 600,
  });
  // useCORS answers every preflight 204; an unlisted origin's is refused first. Every answer varies on
  // Origin when the list is not empty (useCORS adds Vary only for a list of several).
  const guard: Plugin = {
    onRequest({ request, endResponse, fetchAPI }) {
      if (request.method === 'OPTIONS' && !listed(request)) {
        endResponse(new fetchAPI.Response(null, { status: 403, headers: { Vary: 'Origin', 'Content-Length': '0' } }));
      }
    },
    onResponse({ response }) {
      if (allowed.size > 0) addVary(response.headers, 'Origin');
    },
  };
  return [
    guard,
    useCORS((request) => {
      const origin = listed(request);
      return origin ? options(origin) : false;
    }) as Plugin,
  ];
}
