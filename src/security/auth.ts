import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ApiKeys } from './api-keys.js';
import { rejection } from './errors.js';
import type { SecuritySettings } from './settings.js';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="lookup-graph"' };

/** A header of the request, by its lower-case name: a fetch Request's or node's IncomingMessage's. */
type HeaderOf = (name: string) => string | null;

interface Admitted {
  /** The API key's id, for per-client limits. */
  client: string | null;
  /** Forward mode: the client's own token, sent upstream; otherwise null (ACTION_TOKEN). */
  upstreamToken: string | null;
}

export interface ClientAuth {
  /** The check of each request; none when the gateway is open (GATEWAY_AUTH=none). */
  plugin: Plugin | null;
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

  /** Who the request is when it may pass, else the refusal. */
  const check = (header: HeaderOf): Admitted | GraphQLError => {
    if (settings.mode === 'none') return { client: null, upstreamToken: null };
    if (settings.mode === 'forward') {
      const upstreamToken = bearer(header);
      return upstreamToken
        ? { client: null, upstreamToken }
        : rejection('UNAUTHENTICATED', 'Send your action-service token as "authorization: Bearer <token>".', 401, { headers: CHALLENGE });
    }
    const presented = header('x-api-key') ?? bearer(header);
    if (!presented) {
      return rejection('UNAUTHENTICATED', 'An API key is required: send it as "x-api-key: <key>" or "authorization: Bearer <key>".', 401, {
        headers: CHALLENGE,
      });
    }
    const client = keys.match(presented);
    return client ? { client, upstreamToken: null } : rejection('UNAUTHENTICATED', 'The API key is not valid.', 401, { headers: CHALLENGE });
  };

  const plugin: Plugin | null =
    settings.mode === 'none'
      ? null
      : {
          onRequestParse({ request }) {
            const verdict = check((name) => request.headers.get(name));
            if (verdict instanceof GraphQLError) throw verdict;
            if (verdict.client !== null) clients.set(request, verdict.client);
          },
        };

  return {
    plugin,
    upstreamTokenFor: (request) => (settings.mode === 'forward' ? bearer((name) => request.headers.get(name)) : null),
    clientOf: (request) => clients.get(request) ?? null,
  };
}

function bearer(header: HeaderOf): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '');
  return match ? match[1]! : null;
}
