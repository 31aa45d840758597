import type { GraphQLError } from 'graphql';
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { rejection } from '../errors.js';
import { KeySetUnavailable, RemoteKeySet, type KeySetStatus } from './key-set.js';
import type { PublicResource, TokenSettings } from './settings.js';

/** Asymmetric algorithms: a token signed with a public key read as an HMAC secret (key-type confusion) never passes. */
const ASYMMETRIC = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
const SYMMETRIC = ['HS256', 'HS384', 'HS512'];

/** Who a valid token names. */
export interface TokenIdentity {
  /** The client's name: the first of JWT_CLIENT_CLAIM's claims the token carries. */
  client: string;
}

/** A client name from a claim: a short string, for metrics and logs; anything else names no client. */
const CLIENT_NAME = /^[\x21-\x7e]{1,128}$/;

/**
 * Checks signed access tokens with jose: the signature against the provider's published keys (or the
 * shared secret), the algorithm (asymmetric only unless JWT_SECRET), `iss`, `aud`, `exp` (required) and
 * `nbf` within the clock skew, the required scope; then names the client by its claim. A refusal is a
 * rejection with a `WWW-Authenticate` challenge (RFC 6750): 401 for a token that is not valid, 403 for a
 * missing scope, 503 when no key was ever loaded and the provider is unreachable.
 */
export class TokenVerifier {
  readonly keySet: RemoteKeySet | null;
  private readonly key: JWTVerifyGetKey | Uint8Array;

  constructor(
    private readonly settings: TokenSettings,
    private readonly resource: PublicResource | null,
    onFetch?: (outcome: 'ok' | 'error') => void,
  ) {
    if (settings.secret) {
      this.keySet = null;
      this.key = settings.secret;
    } else {
      this.keySet = new RemoteKeySet({
        issuer: settings.issuer,
        jwksUrl: settings.jwksUrl,
        cooldownMs: settings.refetchCooldownMs,
        timeoutMs: settings.fetchTimeoutMs,
        ...(onFetch ? { onFetch } : {}),
      });
      this.key = this.keySet.getKey;
    }
  }

  /** The key set's state; a shared secret is always loaded. */
  status(): KeySetStatus {
    return (
      this.keySet?.status() ?? {
        loaded: true,
        healthy: true,
        keys: 1,
        fetches: 0,
        lastError: null,
        loadedAt: null,
      }
    );
  }

  /** The challenge of a request that sent no credential: where to sign in, when PUBLIC_URL names it. */
  challenge(error?: { error: string; description: string; scope?: string }): string {
    const parts = ['realm="lookup-graph"'];
    if (error) {
      parts.push(`error="${error.error}"`, `error_description="${error.description}"`);
      if (error.scope) parts.push(`scope="${error.scope}"`);
    }
    if (this.resource) parts.push(`resource_metadata="${this.resource.metadataUrl}"`);
    return `Bearer ${parts.join(', ')}`;
  }

  async verify(token: string): Promise<TokenIdentity | GraphQLError> {
    let payload: JWTPayload;
    try {
      const options = {
        algorithms: this.settings.secret ? SYMMETRIC : ASYMMETRIC,
        audience: this.settings.audiences,
        clockTolerance: this.settings.clockSkewSeconds,
        requiredClaims: ['exp'],
        ...(this.settings.issuer ? { issuer: this.settings.issuer } : {}),
      };
      ({ payload } =
        this.key instanceof Uint8Array
          ? await jwtVerify(token, this.key, options)
          : await jwtVerify(token, this.key, options));
    } catch (error) {
      return this.refusal(error);
    }
    const scope = this.settings.requiredScope;
    if (scope && !scopesOf(payload).has(scope)) {
      return rejection(
        'INSUFFICIENT_SCOPE',
        `The token does not grant the scope "${scope}" this gateway requires.`,
        403,
        {
          headers: {
            'WWW-Authenticate': this.challenge({
              error: 'insufficient_scope',
              description: `The scope ${scope} is required`,
              scope,
            }),
          },
          extensions: { scope },
        },
      );
    }
    const client = this.settings.clientClaims.map((claim) => payload[claim]).find((value) => typeof value === 'string');
    if (typeof client !== 'string' || !CLIENT_NAME.test(client))
      return this.invalid('client', `The token names no client (${this.settings.clientClaims.join(', ')}).`);
    return { client };
  }

  private invalid(reason: string, message: string, code = 'INVALID_TOKEN'): GraphQLError {
    return rejection(code, message, 401, {
      headers: {
        'WWW-Authenticate': this.challenge({ error: 'invalid_token', description: message.replace(/"/g, "'") }),
      },
      extensions: { reason },
    });
  }

  /** The coded refusal of a token jose did not accept. */
  private refusal(error: unknown): GraphQLError {
    if (error instanceof KeySetUnavailable) {
      return rejection(
        'IDENTITY_PROVIDER_UNAVAILABLE',
        'The identity provider cannot be reached and no signing key is known yet; try again shortly.',
        503,
        {
          headers: { 'Retry-After': String(error.retryAfterSeconds) },
          extensions: { retryAfter: error.retryAfterSeconds },
        },
      );
    }
    if (error instanceof errors.JWTExpired) return this.invalid('expired', 'The token has expired.', 'TOKEN_EXPIRED');
    if (error instanceof errors.JWTClaimValidationFailed) {
      switch (error.claim) {
        case 'iss':
          return this.invalid('issuer', 'The token was issued by another issuer.');
        case 'aud':
          return this.invalid('audience', 'The token is meant for another audience, not this gateway.');
        case 'nbf':
          return this.invalid('not-yet-valid', 'The token is not valid yet (nbf).');
        case 'iat':
          return this.invalid('not-yet-valid', 'The token was issued in the future (iat).');
        default:
          return this.invalid('claims', `The token's "${error.claim}" claim is missing or not valid.`);
      }
    }
    if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
      return this.invalid('algorithm', "The token's signing algorithm is not accepted here.");
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return this.invalid('signature', "The token's signature does not verify.");
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
      return this.invalid('unknown-key', "The token's signing key is not one of the provider's published keys.");
    return this.invalid('malformed', 'The token is not a well-formed signed JWT.');
  }
}

/** The scopes a token grants: `scope` (RFC 9068, space-separated) or `scp` (Okta, Entra ID: a list or a string). */
function scopesOf(payload: JWTPayload): Set<string> {
  const scopes = new Set<string>();
  for (const value of [payload.scope, payload.scp]) {
    if (typeof value === 'string') for (const scope of value.split(/\s+/)) if (scope) scopes.add(scope);
    if (Array.isArray(value)) for (const scope of value) if (typeof scope === 'string') scopes.add(scope);
  }
  return scopes;
}
