import { readFileSync } from 'node:fs';
import type { EnvReader } from '../kernel/env.js';
import { type KeyAccount, readApiKeys } from '../quota/accounts.js';
import { readTrustedDocumentsJson } from './trusted-documents.js';
import { type PublicResource, readPublicResource, readTokenSettings, type TokenSettings } from './tokens/settings.js';
import { redisKeyPrefix } from '../redis/url.js';

/**
 * The settings of the gateway's client-facing protections (src/security/), read with the rest of
 * the configuration: every bad value is a start-up problem naming its setting.
 */

export interface OperationLimits {
  /** Request body bytes; larger bodies are refused with 413 before they are read. */
  maxRequestBytes: number;
  /** Lexical tokens in one GraphQL document (graphql-js `parse` maxTokens). */
  maxTokens: number;
  /** Field nesting, the root field being 1, fragments expanded. */
  maxDepth: number;
  /** Nesting of lists and objects in argument values and in variables' and extensions' values. */
  maxInputDepth: number;
  /** Aliases per operation (`__typename` included, fragments once per spread). */
  maxAliases: number;
  /** Field nodes answering at one response path (fragments expanded): bounds graphql-js's pairwise field-merging check. */
  maxRepeatedFields: number;
  /** Root fields per operation: each is a lookup. */
  maxRootFields: number;
  /** Directives per operation. */
  maxDirectives: number;
  /** Operations in one batched (JSON array) request; 0 turns batching off. */
  maxBatchOperations: number;
  /** Bytes of parsed, validated documents kept by their text (estimated per document); 0 keeps none. */
  documentCacheBytes: number;
}

type GatewayAuthMode = 'api-key' | 'forward' | 'none';

export interface SecuritySettings {
  limits: OperationLimits;
  /** Introspection queries allowed (default: outside production only). */
  introspection: boolean;
  /** GraphiQL served at GET /graphql: with introspection (ENABLE_INTROSPECTION), which it needs. */
  graphiql: boolean;
  /** "Did you mean ...?" removed from error messages (in production). */
  hideSuggestions: boolean;
  /** Trusted documents: sha256 hex of a document -> the document; null lets any operation run. */
  trustedDocuments: Map<string, string> | null;
  auth: {
    /** api-key: clients need one of the keys or a signed token (JWT_*); forward: the client's bearer token goes upstream; none: open. */
    mode: GatewayAuthMode;
    /** sha256 hex digests of the accepted API keys (never the keys). */
    apiKeyHashes: string[];
    /** What the API keys file says beside a digest: the client's name and its own quota. */
    accounts: Map<string, KeyAccount>;
    /** Every client the keys file names, keyed or not (a token's client, `anonymous`), with its quota. */
    names: Map<string, KeyAccount>;
    /** JWT_*: signed access tokens beside the API keys; null when off. */
    tokens: TokenSettings | null;
    /** ANONYMOUS_ACCESS=trusted-documents: requests without a credential may run the trusted documents, nothing else. */
    anonymousTrustedDocuments: boolean;
  };
  /** PUBLIC_URL: the gateway's public address, which names the MCP endpoint as a protected resource; null when unset. */
  publicResource: PublicResource | null;
  rateLimit: {
    /** Requests per client per minute (by API key, else by address; forward mode counts by address, as forwarded tokens are not checked); 0 turns it off. */
    perMinute: number;
    /** Counters shared in Redis when set (REDIS_URL), else in memory. */
    redisUrl: string | null;
    redisPrefix: string;
  };
  /** Origins allowed cross-origin access (exact `scheme://host[:port]`); empty: none. */
  corsOrigins: string[];
  /** Automatic persisted queries (APQ): clients register a query by its sha256 and then send the hash alone. */
  persistedQueries: PersistedQuerySettings;
}

export interface PersistedQuerySettings {
  /** APQ served and registered; never with trusted documents, which refuse registration. */
  enabled: boolean;
  /** Characters of query text kept, in memory and (with REDIS_URL) in Redis each; the oldest go first. */
  maxBytes: number;
  /** How long a registered query is kept after its registration. */
  ttlMs: number;
  /** Shared between gateway processes when set (REDIS_URL), else per process. */
  redisUrl: string | null;
  redisPrefix: string;
}

const AUTH_MODES: GatewayAuthMode[] = ['api-key', 'forward', 'none'];

/**
 * Bytes of registered queries kept (each entry's key, text and bookkeeping), in this process's memory and
 * in Redis each: 4 MiB, tens of thousands of queries; one client's registrations hold at most a quarter.
 */
const APQ_MAX_BYTES = 4 * 1024 * 1024;

export function readSecuritySettings(read: EnvReader, production: boolean): SecuritySettings {
  const { int, bool, problem } = read;
  const { hashes: apiKeyHashes, accounts, names } = readApiKeys(read);
  const publicResource = readPublicResource(read);
  const tokens = readTokenSettings(read, publicResource);
  // Keys or tokens: either is a way in, and either turns authentication on with no other switch.
  const credentials = apiKeyHashes.length > 0 || tokens !== null;
  const rawMode = read.string('GATEWAY_AUTH')?.toLowerCase();
  const mode = read.oneOf('GATEWAY_AUTH', AUTH_MODES, credentials || production ? 'api-key' : 'none');
  if (rawMode === 'api-key' && !credentials) {
    problem(
      'GATEWAY_AUTH=api-key needs GATEWAY_API_KEY_HASHES or GATEWAY_API_KEYS_FILE (sha256 hex digests of the keys), or JWT_ISSUER or JWT_JWKS_URL (signed tokens)',
    );
  } else if (!rawMode && production && !credentials) {
    // A production gateway that nobody can call is a misconfiguration: say so at start-up.
    problem(
      'GATEWAY_API_KEY_HASHES or GATEWAY_API_KEYS_FILE is required when NODE_ENV=production (or JWT_ISSUER or JWT_JWKS_URL for signed tokens; or set GATEWAY_AUTH=forward, or GATEWAY_AUTH=none to open the gateway deliberately)',
    );
  }
  if (tokens && mode !== 'api-key')
    problem(
      `JWT_ISSUER and JWT_JWKS_URL cannot be combined with GATEWAY_AUTH=${mode}: signed tokens are checked by the gateway itself`,
    );

  const trustedDocuments = readTrustedDocuments(read.string('TRUSTED_DOCUMENTS_FILE'), problem);
  const anonymous = read.oneOf('ANONYMOUS_ACCESS', ['off', 'trusted-documents'] as const, 'off');
  if (anonymous === 'trusted-documents' && !trustedDocuments)
    problem(
      'ANONYMOUS_ACCESS=trusted-documents needs TRUSTED_DOCUMENTS_FILE: the documents anonymous requests may run',
    );
  if (anonymous === 'trusted-documents' && mode !== 'api-key')
    problem(
      `ANONYMOUS_ACCESS=trusted-documents needs clients that sign in (API keys or JWT_ISSUER), not GATEWAY_AUTH=${mode}`,
    );
  const introspection = bool('ENABLE_INTROSPECTION', !production);
  return {
    limits: {
      maxRequestBytes: int('MAX_REQUEST_BYTES', 100 * 1024, 1024, 64 * 1024 * 1024),
      // Far above any real operation within MAX_REQUEST_BYTES and MAX_DEPTH; stops a parse bomb first.
      maxTokens: 2_000,
      // Bounded so that the deepest operation allowed stays far from the parser's stack limit.
      maxDepth: int('MAX_DEPTH', 8, 1, 100),
      maxInputDepth: 8,
      maxAliases: 30,
      // Far above what fragments that overlap on `id` or `__typename` reach; 20 repeats cost well under a millisecond to validate.
      maxRepeatedFields: 20,
      maxRootFields: int('MAX_ROOT_FIELDS', 20, 1, 100_000),
      maxDirectives: 20,
      maxBatchOperations: int('MAX_BATCH_OPERATIONS', 0, 0, 1_000),
      documentCacheBytes: int('DOCUMENT_CACHE_MB', 8, 0, 4_096) * 1024 * 1024,
    },
    introspection,
    // GraphiQL needs introspection to be of any use: one switch serves both.
    graphiql: introspection,
    // With introspection off, suggestions would let the schema be guessed field by field.
    hideSuggestions: !introspection,
    trustedDocuments,
    auth: {
      mode,
      apiKeyHashes,
      accounts,
      names,
      tokens,
      anonymousTrustedDocuments: anonymous === 'trusted-documents',
    },
    publicResource,
    rateLimit: {
      perMinute: int('CLIENT_RATE_LIMIT_PER_MINUTE', 600, 0, 10_000_000),
      // REDIS_URL is validated with the cache settings.
      redisUrl: read.string('REDIS_URL') ?? null,
      redisPrefix: redisKeyPrefix(read, 'rate'),
    },
    corsOrigins: readOrigins(read),
    persistedQueries: readPersistedQueries(read, trustedDocuments !== null),
  };
}

/** APQ_*: on unless trusted documents are, which cannot be combined with registration. */
function readPersistedQueries(read: EnvReader, trustedDocuments: boolean): PersistedQuerySettings {
  const asked = read.string('APQ_ENABLED') !== undefined;
  const enabled = read.bool('APQ_ENABLED', !trustedDocuments);
  if (asked && enabled && trustedDocuments) {
    read.problem(
      'APQ_ENABLED=true cannot be combined with TRUSTED_DOCUMENTS_FILE: only the trusted documents run, so no query may be registered',
    );
  }
  return {
    enabled: enabled && !trustedDocuments,
    maxBytes: APQ_MAX_BYTES,
    ttlMs: 86_400_000,
    redisUrl: read.string('REDIS_URL') ?? null,
    redisPrefix: redisKeyPrefix(read, 'apq'),
  };
}

/**
 * TRUSTED_DOCUMENTS_FILE: codegen's client-preset `persisted-documents.json` (`{ "sha256:<hex>": document }`,
 * as `npm run trusted-documents` writes it too; bare hex keys also), or an Apollo persisted-query
 * manifest. Every id must be the sha256 of its document; every document parse.
 */
function readTrustedDocuments(
  file: string | undefined,
  problem: (message: string) => void,
): Map<string, string> | null {
  if (!file) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not JSON' : ((error as NodeJS.ErrnoException).code ?? 'unreadable');
    problem(`TRUSTED_DOCUMENTS_FILE cannot be read (${reason}): ${file}`);
    return null;
  }
  const problems: string[] = [];
  const documents = readTrustedDocumentsJson(parsed, problems);
  for (const message of problems) problem(message);
  return documents;
}

/** CORS_ORIGINS: comma-separated exact origins such as https://app.example.com. */
function readOrigins(read: EnvReader): string[] {
  const origins: string[] = [];
  for (const value of read.list('CORS_ORIGINS')) {
    let origin: string | null = null;
    try {
      const url = new URL(value);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, ''))
        origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin) origins.push(origin);
    else
      read.problem(
        `CORS_ORIGINS must list origins such as https://app.example.com (no path, no wildcard), got "${value}"`,
      );
  }
  return origins;
}
