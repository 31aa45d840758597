import type { EnvReader } from '../../kernel/env.js';

/**
 * JWT_*: signed access tokens from the company's identity provider, beside (or instead of) API keys.
 * Setting JWT_ISSUER or JWT_JWKS_URL turns them on; every bad value is a start-up problem naming it.
 */
export interface TokenSettings {
  /** The `iss` every token must carry; with no JWT_JWKS_URL, its OpenID discovery document names the key set. */
  issuer: string | null;
  /** Where the provider publishes its signing keys (JWKS); null: found through the issuer's discovery. */
  jwksUrl: URL | null;
  /** A token's `aud` must name one of these: JWT_AUDIENCE's values, and the MCP resource (PUBLIC_URL + /mcp). */
  audiences: string[];
  /** JWT_SECRET: a shared HMAC secret, on purpose; tokens then use HS256/384/512 only and no key set is fetched. */
  secret: Uint8Array | null;
  /** The claims that name the client, the first present wins (JWT_CLIENT_CLAIM). */
  clientClaims: string[];
  /** A scope every token must hold (JWT_REQUIRED_SCOPE), else 403; null: none. */
  requiredScope: string | null;
  /** Seconds of clock difference allowed on `exp`, `nbf` and `iat`. */
  clockSkewSeconds: number;
  /** The least time between two fetches of the key set (an unknown key id, a refresh, a failed fetch). */
  refetchCooldownMs: number;
  /** How long one fetch of the discovery document or the key set may take. */
  fetchTimeoutMs: number;
}

/** The gateway's public address (PUBLIC_URL) and what it names: the MCP resource and its metadata. */
export interface PublicResource {
  /** `https://graph.example.com`, no path, no trailing slash. */
  origin: string;
  /** The MCP endpoint as a protected resource (RFC 9728 `resource`): the audience its tokens must name. */
  mcpResource: string;
  /** Where its protected resource metadata is served (path-suffixed, RFC 9728 section 3.1). */
  metadataUrl: string;
}

/** A minute of clock difference is common between hosts; 30 s, as most gateways allow, is documented. */
const CLOCK_SKEW_SECONDS = 30;

export function readPublicResource(read: EnvReader): PublicResource | null {
  const raw = read.string('PUBLIC_URL');
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username) {
    read.problem(
      `PUBLIC_URL must be the gateway's public http(s) address such as https://graph.example.com, got "${raw}"`,
    );
    return null;
  }
  const origin = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return {
    origin,
    mcpResource: `${origin}/mcp`,
    metadataUrl: `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/+$/, '')}/mcp`,
  };
}

/** The token settings, or null when neither JWT_ISSUER nor JWT_JWKS_URL (nor JWT_SECRET) is set. */
export function readTokenSettings(read: EnvReader, resource: PublicResource | null): TokenSettings | null {
  const issuer = read.string('JWT_ISSUER') ?? null;
  const rawJwks = read.string('JWT_JWKS_URL');
  const rawSecret = read.string('JWT_SECRET');
  const others = ['JWT_AUDIENCE', 'JWT_CLIENT_CLAIM', 'JWT_REQUIRED_SCOPE'].filter((name) => read.string(name));
  if (!issuer && !rawJwks && !rawSecret) {
    if (others.length > 0)
      read.problem(`${others.join(', ')} need JWT_ISSUER or JWT_JWKS_URL (where the signing keys are published)`);
    return null;
  }
  if (issuer) httpUrl(read, 'JWT_ISSUER', issuer);
  const jwksUrl = rawJwks ? httpUrl(read, 'JWT_JWKS_URL', rawJwks) : null;
  let secret: Uint8Array | null = null;
  if (rawSecret) {
    if (rawJwks)
      read.problem(
        'JWT_SECRET and JWT_JWKS_URL exclude each other: tokens are signed either with a shared secret or with published keys',
      );
    if (Buffer.byteLength(rawSecret) < 32)
      read.problem('JWT_SECRET must be at least 32 bytes (HS256 needs a 256-bit secret)');
    if (!issuer) read.problem('JWT_SECRET needs JWT_ISSUER: the issuer a shared-secret token must name');
    secret = new TextEncoder().encode(rawSecret);
  }
  const audiences = [...read.list('JWT_AUDIENCE'), ...(resource ? [resource.mcpResource] : [])];
  if (audiences.length === 0)
    read.problem(
      'JWT_AUDIENCE (or PUBLIC_URL) is required with JWT_ISSUER or JWT_JWKS_URL: a token must be meant for this gateway',
    );
  const clientClaims = read.list('JWT_CLIENT_CLAIM');
  for (const claim of clientClaims)
    if (!/^[A-Za-z_][\w.:-]{0,63}$/.test(claim)) read.problem(`JWT_CLIENT_CLAIM must list claim names, got "${claim}"`);
  const requiredScope = read.string('JWT_REQUIRED_SCOPE') ?? null;
  if (requiredScope && /\s/.test(requiredScope)) read.problem('JWT_REQUIRED_SCOPE must be one scope, without spaces');
  return {
    issuer,
    jwksUrl,
    audiences: [...new Set(audiences)],
    secret,
    clientClaims: clientClaims.length > 0 ? clientClaims : ['azp', 'client_id', 'sub'],
    requiredScope,
    clockSkewSeconds: CLOCK_SKEW_SECONDS,
    refetchCooldownMs: 30_000,
    fetchTimeoutMs: 5_000,
  };
}

function httpUrl(read: EnvReader, name: string, value: string): URL | null {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  } catch {
    // reported below
  }
  read.problem(`${name} must be an absolute http(s) URL, got "${value}"`);
  return null;
}
