import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { QuotaSpec } from '../quota/window.js';
import { ApiKeys, keyId } from './api-keys.js';
import { rejection } from './errors.js';
import type { SecuritySettings } from './settings.js';

// The body of a refused request is never read: the connection closes after the answer, so a client
// that drips its body does not hold the socket until the request timeout.
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="lookup-graph"', Connection: 'close' };

/** A header of the request, by its lower-case name: a fetch Request's or node's IncomingMessage's. */
type HeaderOf = (name: string) => string | null;

interface Admitted {
  /** The API key's id, for per-client limits. */
  client: string | null;
  /** The API key's digest, to find its line in the keys file. */
  digest?: string;
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
  /** Who pays for the request's upstream calls: its API key's account, or its forwarded token; null when the gateway is open. */
  accountOf(request: Request): ClientAccount | null;
  /** The same check as the plugin's, for an endpoint served before Yoga parses a request (/mcp): the refusal, or null. */
  refusalOf(request: Request): GraphQLError | null;
}

/** A client as quotas count it. */
export interface ClientAccount {
  /** Where its quota is counted: its name, else an id that is no secret (the start of its key's digest, or of its token's hash). */
  id: string;
  /** Its name from the keys file, for metrics, the request log and `npm run quota`; null when it has none. */
  name: string | null;
  /** Its own quota from the keys file (null: none); undefined: CLIENT_QUOTA. */
  quota: QuotaSpec | null | undefined;
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
  const clients = new WeakMap<Request, { client: string; digest: string }>();

  /** Who the request is when it may pass, else the refusal. */
  const check = (header: HeaderOf): Admitted | GraphQLError => {
    if (settings.mode === 'none') return { client: null, upstreamToken: null };
    if (settings.mode === 'forward') {
      const upstreamToken = bearer(header);
      return upstreamToken
        ? { client: null, upstreamToken }
        : rejection('UNAUTHENTICATED', 'Send your action-service token as "authorization: Bearer <token>".', 401, {
            headers: CHALLENGE,
          });
    }
    const presented = header('x-api-key') ?? bearer(header);
    if (!presented) {
      return rejection(
        'UNAUTHENTICATED',
        'An API key is required: send it as "x-api-key: <key>" or "authorization: Bearer <key>".',
        401,
        {
          headers: CHALLENGE,
        },
      );
    }
    const digest = keys.digestOf(presented);
    return digest
      ? { client: keyId(digest), digest, upstreamToken: null }
      : rejection('UNAUTHENTICATED', 'The API key is not valid.', 401, { headers: CHALLENGE });
  };

  return {
    plugin: settings.mode === 'none' ? null : useClientAuth(check, clients),
    upstreamTokenFor: (request) => (settings.mode === 'forward' ? bearer((name) => request.headers.get(name)) : null),
    clientOf: (request) => clients.get(request)?.client ?? null,
    accountOf: (request) => {
      if (settings.mode === 'forward') {
        const token = bearer((name) => request.headers.get(name));
        return token ? { id: tokenId(token), name: null, quota: undefined } : null;
      }
      const admitted = clients.get(request);
      if (!admitted) return null;
      const account = settings.accounts.get(admitted.digest);
      return { id: account?.name ?? admitted.client, name: account?.name ?? null, quota: account?.quota };
    },
    refusalOf: (request) => {
      const verdict = check((name) => request.headers.get(name));
      if (verdict instanceof GraphQLError) return verdict;
      // Known, as after the plugin's check: the endpoint's messages count for this key (rate limit).
      if (verdict.client !== null && verdict.digest)
        clients.set(request, { client: verdict.client, digest: verdict.digest });
      return null;
    },
  };
}

/** Refuses a request `check` refuses before its body is read; remembers the API key's id and digest of one it admits. */
function useClientAuth(
  check: (header: HeaderOf) => Admitted | GraphQLError,
  clients: WeakMap<Request, { client: string; digest: string }>,
): Plugin {
  return {
    onRequestParse({ request }) {
      const verdict = check((name) => request.headers.get(name));
      if (verdict instanceof GraphQLError) throw verdict;
      if (verdict.client !== null && verdict.digest)
        clients.set(request, { client: verdict.client, digest: verdict.digest });
    },
  };
}

function bearer(header: HeaderOf): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '');
  return match ? match[1]! : null;
}

/** A forwarded token's short, non-secret id (the start of its sha256). */
export function tokenId(token: string): string {
  return `token:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
}
