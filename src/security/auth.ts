import type { Plugin } from 'graphql-yoga';
import { ApiKeys } from './api-keys.js';
import { rejection } from './errors.js';
import type { SecuritySettings } from './settings.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="lookup-graph"' };

export interface ClientAuth {
  plugin: Plugin;
  /** Forward mode: this request's own bearer token, to send upstream; otherwise null (ACTION_TOKEN). */
  upstreamTokenFor(request: Request): string | null;
  /** The authenticated API key's id (for per-client limits), or null. */
  clientOf(request: Request): string | null;
}

/**
 * Who may use the gateway, apart from the upstream token:
 *  - api-key: `x-api-key: <key>` or `authorization: Bearer <key>`, checked against hashed keys;
 *  - forward: `authorization: Bearer <token>` is the client's own action-service token, sent upstream
 *    in place of ACTION_TOKEN (the cache and coalescing are scoped by ctx.upstreamToken);
 *  - none: open (the development default).
 * A refusal is HTTP 401 UNAUTHENTICATED before the body is read, so before any upstream call.
 */
export function createClientAuth(settings: SecuritySettings['auth']): ClientAuth {
  const keys = new ApiKeys(settings.apiKeyHashes);
  const clients = new WeakMap<Request, string>();

  const plugin: Plugin = {
    onRequestParse({ request }) {
      if (settings.mode === 'none') return;
      if (settings.mode === 'forward') {
        if (!bearer(request)) {
          throw rejection('UNAUTHENTICATED', 'Send your action-service token as "authorization: Bearer <token>".', 401, { headers: CHALLENGE });
        }
        return;
      }
      const presented = request.headers.get('x-api-key') ?? bearer(request);
      if (!presented) {
        throw rejection('UNAUTHENTICATED', 'An API key is required: send it as "x-api-key: <key>" or "authorization: Bearer <key>".', 401, {
          headers: CHALLENGE,
        });
      }
      const client = keys.match(presented);
      if (!client) throw rejection('UNAUTHENTICATED', 'The API key is not valid.', 401, { headers: CHALLENGE });
      clients.set(request, client);
    },
  };

  return {
    plugin,
    upstreamTokenFor: (request) => (settings.mode === 'forward' ? bearer(request) : null),
    clientOf: (request) => clients.get(request) ?? null,
  };
}

function bearer(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}
