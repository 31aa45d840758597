import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { QuotaSpec } from '../quota/window.js';
import { ANONYMOUS } from '../quota/accounts.js';
import { ApiKeys, keyId } from './api-keys.js';
import { rejection } from './errors.js';
import type { SecuritySettings } from './settings.js';
import { looksLikeToken } from './tokens/shape.js';
import type { TokenVerifier } from './tokens/verifier.js';

// The body of a refused request is never read: the connection closes after the answer, so a client
// that drips its body does not hold the socket until the request timeout.
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="lookup-graph"', Connection: 'close' };

/** A header of the request, by its lower-case name: a fetch Request's or node's IncomingMessage's. */
type HeaderOf = (name: string) => string | null;

/** Who a request is, once admitted. */
type Admitted =
  /** The gateway is open (GATEWAY_AUTH=none). */
  | { kind: 'open' }
  /** Forward mode: the client's own token, sent upstream in place of ACTION_TOKEN. */
  | { kind: 'forward'; upstreamToken: string }
  /** An API key: its digest finds its line in the keys file. */
  | { kind: 'key'; digest: string }
  /** A signed token: the client its claim names. */
  | { kind: 'token'; name: string }
  /** No credential, and ANONYMOUS_ACCESS lets it run trusted documents. */
  | { kind: 'anonymous' };

type Verdict = Admitted | GraphQLError;

/** Where a request came in: anonymous requests may run trusted documents on /graphql, never use /mcp. */
type Endpoint = 'graphql' | 'mcp';

export interface ClientAuth {
  /** The check of each request; none when the gateway is open (GATEWAY_AUTH=none). */
  plugin: Plugin | null;
  /** Forward mode: this request's own bearer token, to send upstream; otherwise null (ACTION_TOKEN). */
  upstreamTokenFor(request: Request): string | null;
  /** The authenticated client's id for per-client limits (an API key's short id, or a token's client), or null. */
  clientOf(request: Request): string | null;
  /** Who pays for the request's upstream calls: its API key's or token client's account, the anonymous account, or its forwarded token; null when the gateway is open. */
  accountOf(request: Request): ClientAccount | null;
  /** Whether the request came without a credential and was let in to run trusted documents only. */
  isAnonymous(request: Request): boolean;
  /** The same check as the plugin's, for an endpoint served before Yoga parses a request (/mcp): the refusal, or null. */
  refusalOf(request: Request, endpoint?: Endpoint): Promise<GraphQLError | null> | GraphQLError | null;
  /** The challenge of a request without a credential (with where to sign in when PUBLIC_URL names it). */
  challenge(): Record<string, string>;
}

/** A client as quotas count it. */
export interface ClientAccount {
  /** Where its quota is counted: its name, else an id that is no secret (the start of its key's digest, or of its token's hash). */
  id: string;
  /** Its name from the keys file or its token's claim, for metrics, the request log and `npm run quota`; null when it has none. */
  name: string | null;
  /** Its own quota from the keys file (null: none); undefined: CLIENT_QUOTA. */
  quota: QuotaSpec | null | undefined;
}

export interface ClientAuthOptions {
  /** JWT_*: signed tokens checked beside the API keys; null when off. */
  tokens: TokenVerifier | null;
  /** ANONYMOUS_ACCESS=trusted-documents: a request without a credential is let in to run trusted documents only. */
  anonymous: boolean;
}

/**
 * Who may use the gateway, apart from the upstream token:
 *  - api-key: `x-api-key: <key>` or `authorization: Bearer <key>`, checked against hashed keys; and,
 *    with JWT_ISSUER or JWT_JWKS_URL, `authorization: Bearer <JWT>`, a signed access token (a bearer
 *    credential of the JWT shape is always a token: one that fails is refused, never tried as a key);
 *    with ANONYMOUS_ACCESS, a request without any credential runs trusted documents only;
 *  - forward: `authorization: Bearer <token>` is the client's own action-service token, sent upstream
 *    in place of ACTION_TOKEN (the cache and coalescing are scoped by ctx.upstreamToken);
 *  - none: open (the development default).
 * A refusal (401, or 403 for a missing scope) comes before the body is read, so before any upstream call.
 */
export function createClientAuth(settings: SecuritySettings['auth'], options: ClientAuthOptions): ClientAuth {
  const keys = new ApiKeys(settings.apiKeyHashes);
  const admitted = new WeakMap<Request, Admitted>();
  const { tokens } = options;
  const challenge = (): Record<string, string> =>
    tokens ? { 'WWW-Authenticate': tokens.challenge(), Connection: 'close' } : CHALLENGE;

  /** Who the request is when it may pass, else the refusal; a promise only when it carries a token. */
  const check = (header: HeaderOf, endpoint: Endpoint): Verdict | Promise<Verdict> => {
    if (settings.mode === 'none') return { kind: 'open' };
    if (settings.mode === 'forward') {
      const upstreamToken = bearer(header);
      return upstreamToken
        ? { kind: 'forward', upstreamToken }
        : rejection('UNAUTHENTICATED', 'Send your action-service token as "authorization: Bearer <token>".', 401, {
            headers: CHALLENGE,
          });
    }
    const presentedBearer = bearer(header);
    if (tokens && presentedBearer && looksLikeToken(presentedBearer)) {
      return tokens
        .verify(presentedBearer)
        .then(
          (identity): Verdict =>
            identity instanceof GraphQLError ? identity : { kind: 'token', name: identity.client },
        );
    }
    const presented = header('x-api-key') ?? presentedBearer;
    if (!presented) {
      if (options.anonymous && endpoint === 'graphql') return { kind: 'anonymous' };
      return rejection(
        'UNAUTHENTICATED',
        tokens
          ? 'Sign in: send an access token as "authorization: Bearer <token>" (or an API key as "x-api-key: <key>").'
          : 'An API key is required: send it as "x-api-key: <key>" or "authorization: Bearer <key>".',
        401,
        { headers: challenge() },
      );
    }
    const digest = keys.digestOf(presented);
    return digest
      ? { kind: 'key', digest }
      : rejection('UNAUTHENTICATED', 'The API key is not valid.', 401, { headers: challenge() });
  };

  return {
    plugin: settings.mode === 'none' ? null : useClientAuth(check, admitted),
    upstreamTokenFor: (request) => (settings.mode === 'forward' ? bearer((name) => request.headers.get(name)) : null),
    clientOf: (request) => {
      const who = admitted.get(request);
      if (who?.kind === 'key') return keyId(who.digest);
      if (who?.kind === 'token') return `jwt:${who.name}`;
      return null;
    },
    accountOf: (request) => {
      if (settings.mode === 'forward') {
        const token = bearer((name) => request.headers.get(name));
        return token ? { id: tokenId(token), name: null, quota: undefined } : null;
      }
      const who = admitted.get(request);
      if (who?.kind === 'key') {
        const account = settings.accounts.get(who.digest);
        return { id: account?.name ?? keyId(who.digest), name: account?.name ?? null, quota: account?.quota };
      }
      if (who?.kind === 'token' || who?.kind === 'anonymous') {
        const name = who.kind === 'token' ? who.name : ANONYMOUS;
        // Named in the keys file: counted under that name, with the quota it gives (and shared with keys of that name).
        const named = settings.names.get(name);
        return { id: named || who.kind === 'anonymous' ? name : `jwt:${name}`, name, quota: named?.quota };
      }
      return null;
    },
    isAnonymous: (request) => admitted.get(request)?.kind === 'anonymous',
    refusalOf: (request, endpoint = 'mcp') => {
      const verdict = check((name) => request.headers.get(name), endpoint);
      const settle = (settled: Verdict) => {
        if (settled instanceof GraphQLError) return settled;
        // Known, as after the plugin's check: the endpoint's messages count for this client (rate limit).
        admitted.set(request, settled);
        return null;
      };
      return verdict instanceof Promise ? verdict.then(settle) : settle(verdict);
    },
    challenge,
  };
}

/** Refuses a request `check` refuses before its body is read; remembers who an admitted one is. */
function useClientAuth(
  check: (header: HeaderOf, endpoint: Endpoint) => Verdict | Promise<Verdict>,
  admitted: WeakMap<Request, Admitted>,
): Plugin {
  const settle = (request: Request, verdict: Verdict) => {
    if (verdict instanceof GraphQLError) throw verdict;
    admitted.set(request, verdict);
  };
  return {
    onRequestParse({ request }) {
      const verdict = check((name) => request.headers.get(name), 'graphql');
      // Synchronous unless the request carries a token: a key's check puts no request through a promise.
      if (verdict instanceof Promise) return verdict.then((settled) => settle(request, settled));
      settle(request, verdict);
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
