// Own: jose's createRemoteJWKSet fails every token once its cache is past its age while the provider is down, ignores Cache-Control and refetches on each unknown key id while fetches fail; this keeps known keys through an outage and spaces every fetch, and leaves key selection to jose's createLocalJWKSet.
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTHeaderParameters, type FlattenedJWSInput } from 'jose';

/** The key set's state, for /readyz and /healthz: never a key itself. */
export interface KeySetStatus {
  /** A key set was loaded at least once: tokens can be checked. */
  loaded: boolean;
  /** The last fetch failed and the keys in use are what was loaded before (or none). */
  healthy: boolean;
  keys: number;
  /** Fetches made so far (discovery and key set, each attempt). */
  fetches: number;
  lastError: string | null;
  /** When the keys in use were fetched (ISO time), or null. */
  loadedAt: string | null;
}

/** No key set has ever been loaded and the provider cannot be reached now: not the token's fault. */
export class KeySetUnavailable extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The identity provider could not be reached and no signing key is known yet.');
    this.name = 'KeySetUnavailable';
  }
}

export interface KeySetOptions {
  /** The issuer whose OpenID discovery document names the key set (used when `jwksUrl` is null). */
  issuer: string | null;
  jwksUrl: URL | null;
  /** The least time between two fetches, whatever asks for them. */
  cooldownMs: number;
  timeoutMs: number;
  /** Told of each fetch (its outcome), for the metrics. */
  onFetch?: (outcome: 'ok' | 'error') => void;
  now?: () => number;
}

/** Without a Cache-Control max-age the key set is kept this long before it is fetched again (in the background). */
const DEFAULT_MAX_AGE_MS = 10 * 60_000;
const MIN_MAX_AGE_MS = 60_000;
const MAX_MAX_AGE_MS = 24 * 60 * 60_000;
/** A discovery document or a key set is a few kilobytes; a larger answer is refused, not buffered. */
const MAX_BYTES = 512 * 1024;

type LocalKeySet = ReturnType<typeof createLocalJWKSet>;

/**
 * The provider's signing keys, fetched at most once per `cooldownMs` (one fetch at a time, whoever asks):
 * - kept for the answer's Cache-Control max-age (1 min to 24 h; 10 min without one), then refreshed in the
 *   background while the keys in hand keep verifying;
 * - a token with a key id the set does not hold triggers one refetch when the last fetch is older than the
 *   cooldown, so a flood of made-up key ids costs one fetch per cooldown, not one each;
 * - a failed fetch keeps the keys in hand: while the provider is down, tokens signed by known keys pass.
 */
export class RemoteKeySet {
  private local: LocalKeySet | null = null;
  private keyCount = 0;
  private expiresAt = 0;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private loadedAt: number | null = null;
  private pending: Promise<void> | null = null;
  private jwksUrl: URL | null;
  private fetches = 0;
  private lastError: string | null = null;
  private readonly now: () => number;

  constructor(private readonly options: KeySetOptions) {
    this.jwksUrl = options.jwksUrl;
    this.now = options.now ?? Date.now;
  }

  /** The key getter jose's jwtVerify takes. */
  readonly getKey = async (header: JWTHeaderParameters, token: FlattenedJWSInput) => {
    if (!this.local) {
      await this.refresh();
      if (!this.local) throw new KeySetUnavailable(Math.ceil(this.cooldownLeft() / 1000) || 1);
    } else if (this.now() >= this.expiresAt) {
      void this.refresh();
    }
    try {
      return await this.local(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || this.cooldownLeft() > 0) throw error;
      await this.refresh();
      return this.local(header, token);
    }
  };

  /** Fetches the key set unless a fetch is under way (then joins it) or the last began less than the cooldown ago. Never throws. */
  refresh(): Promise<void> {
    if (this.pending !== null) return this.pending;
    if (this.cooldownLeft() > 0) return Promise.resolve();
    this.lastAttemptAt = this.now();
    this.pending = this.load()
      .then(
        () => {
          this.lastError = null;
          this.options.onFetch?.('ok');
        },
        (error: unknown) => {
          this.lastError = error instanceof Error ? error.message : String(error);
          this.options.onFetch?.('error');
        },
      )
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  status(): KeySetStatus {
    return {
      loaded: this.local !== null,
      healthy: this.lastError === null,
      keys: this.keyCount,
      fetches: this.fetches,
      lastError: this.lastError,
      loadedAt: this.loadedAt === null ? null : new Date(this.loadedAt).toISOString(),
    };
  }

  private cooldownLeft(): number {
    return Math.max(0, this.lastAttemptAt + this.options.cooldownMs - this.now());
  }

  private async load(): Promise<void> {
    if (!this.jwksUrl) this.jwksUrl = await this.discover();
    const { body, maxAgeMs } = await this.get(this.jwksUrl);
    const set = body as JSONWebKeySet;
    if (!set || !Array.isArray(set.keys)) throw new Error(`the key set at ${this.jwksUrl.href} has no "keys" list`);
    this.local = createLocalJWKSet(set);
    this.keyCount = set.keys.length;
    this.loadedAt = this.now();
    this.expiresAt = this.loadedAt + maxAgeMs;
  }

  /** The issuer's `jwks_uri`, from its OpenID discovery document (whose `issuer` must be the one configured). */
  private async discover(): Promise<URL> {
    const issuer = this.options.issuer!;
    const { body } = await this.get(new URL(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`));
    const document = body as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== issuer)
      throw new Error(`the discovery document names the issuer "${String(document.issuer)}", not "${issuer}"`);
    if (typeof document.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri');
    const url = new URL(document.jwks_uri);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('the jwks_uri is not an http(s) URL');
    return url;
  }

  private async get(url: URL): Promise<{ body: unknown; maxAgeMs: number }> {
    this.fetches += 1;
    const response = await fetch(url, {
      headers: { accept: 'application/json, application/jwk-set+json' },
      redirect: 'follow',
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`${url.href} answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_BYTES) {
      await response.body?.cancel();
      throw new Error(`${url.href} answered more than ${MAX_BYTES} bytes`);
    }
    const text = await response.text();
    if (text.length > MAX_BYTES) throw new Error(`${url.href} answered more than ${MAX_BYTES} bytes`);
    return { body: JSON.parse(text) as unknown, maxAgeMs: maxAgeOf(response.headers.get('cache-control')) };
  }
}

/** How long an answer may be kept: its Cache-Control max-age, bounded; no-store or no-cache keep it the least. */
function maxAgeOf(cacheControl: string | null): number {
  if (!cacheControl) return DEFAULT_MAX_AGE_MS;
  if (/\bno-(store|cache)\b/i.test(cacheControl)) return MIN_MAX_AGE_MS;
  const match = /\bmax-age=(\d+)/i.exec(cacheControl);
  if (!match) return DEFAULT_MAX_AGE_MS;
  return Math.min(MAX_MAX_AGE_MS, Math.max(MIN_MAX_AGE_MS, Number(match[1]) * 1000));
}
