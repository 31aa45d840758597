import { createHmac } from 'node:crypto';
import { ActionError } from '../upstream/errors.js';
import type { CacheSettings } from './settings.js';
import { isNotFoundMarker, type CacheStore } from './store.js';

/** Where a lookup's value came from, reported per lookup in the response's extensions. */
export type LookupSource = 'cache' | 'upstream' | 'coalesced';

export interface LookupOutcome<V> {
  key: string;
  value?: V;
  error?: Error;
  source: LookupSource;
}

/** Calls the upstream for the keys nobody has; a thrown error fails every one of them. */
export type FetchMissing<V> = (keys: string[]) => Promise<Map<string, V | Error>>;

interface InFlight {
  promise: Promise<unknown>;
  /** The signal of the request that made the call: if it was cancelled, waiters call again. */
  signal: AbortSignal | undefined;
}

const POLL_MS = 25;

/**
 * The cross-request action cache with coalescing. Keys are action + upstream-token fingerprint +
 * canonical input, so two tokens never share an entry. Concurrent identical lookups share one
 * upstream call within the process (an in-flight map) and, with Redis, across processes (a lease:
 * the holder calls, the others wait for its result).
 */
export class LookupCache {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly fingerprints = new Map<string, string>();

  constructor(
    private readonly store: CacheStore | null,
    private readonly settings: CacheSettings,
    private readonly observe: (action: string, source: LookupSource) => void = () => undefined,
  ) {}

  get storeKind(): 'memory' | 'redis' | 'off' {
    return this.store?.kind ?? 'off';
  }

  /** An HMAC of the token, never the token itself, so cache keys can be logged and shared. */
  fingerprint(token: string): string {
    let fingerprint = this.fingerprints.get(token);
    if (!fingerprint) {
      fingerprint = createHmac('sha256', this.settings.keySecret).update(token).digest('hex').slice(0, 24);
      if (this.fingerprints.size >= 10_000) this.fingerprints.clear();
      this.fingerprints.set(token, fingerprint);
    }
    return fingerprint;
  }

  cacheKey(action: string, fingerprint: string, key: string): string {
    return `lg:v1:${action}:${fingerprint}:${key}`;
  }

  /** One lookup through the cache. */
  async fetch<V>(action: string, fingerprint: string, key: string, call: () => Promise<V>, signal?: AbortSignal): Promise<LookupOutcome<V>> {
    const [outcome] = await this.fetchMany<V>(action, fingerprint, [key], async ([only]) => new Map([[only!, await call()]]), signal);
    return outcome!;
  }

  /**
   * Several keys of one action through the cache: hits are served, keys another request is
   * already fetching are awaited, and the rest go upstream in ONE call to `fetchMissing`.
   */
  async fetchMany<V>(action: string, fingerprint: string, keys: string[], fetchMissing: FetchMissing<V>, signal?: AbortSignal): Promise<LookupOutcome<V>[]> {
    if (!this.store) {
      const outcomes = await this.callUpstream(action, keys, fetchMissing);
      outcomes.forEach((outcome) => this.observe(action, outcome.source));
      return outcomes;
    }
    const store = this.store;
    const outcomes = new Map<string, Promise<LookupOutcome<V>>>();
    const missing: string[] = [];

    for (const key of keys) {
      const full = this.cacheKey(action, fingerprint, key);
      const flying = this.inFlight.get(full);
      if (flying) {
        outcomes.set(key, this.awaitOther<V>(key, flying, () => this.fetchMany(action, fingerprint, [key], fetchMissing, signal).then((r) => r[0]!)));
        continue;
      }
      const cached = await store.get(full);
      if (cached !== undefined) outcomes.set(key, Promise.resolve(fromCache<V>(key, cached, action)));
      else missing.push(key);
    }

    if (missing.length > 0) {
      const leased: string[] = [];
      for (const key of missing) {
        const full = this.cacheKey(action, fingerprint, key);
        if (store.kind === 'memory') {
          leased.push(key);
        } else if (!(await store.acquireLease(full, this.settings.leaseMs))) {
          outcomes.set(key, this.waitForLeaseHolder<V>(action, fingerprint, key, fetchMissing, signal));
        } else {
          // The previous holder may have stored its result and let go between our miss and our lease.
          const stored = await store.get(full);
          if (stored === undefined) {
            leased.push(key);
          } else {
            await store.releaseLease(full);
            outcomes.set(key, Promise.resolve({ ...fromCache<V>(key, stored, action), source: 'coalesced' }));
          }
        }
      }
      if (leased.length > 0) {
        const batch = this.callUpstream(action, leased, fetchMissing).then(async (results) => {
          await Promise.all(results.map((outcome) => this.remember(action, fingerprint, outcome)));
          await Promise.all(leased.map((key) => store.releaseLease(this.cacheKey(action, fingerprint, key))));
          return new Map(results.map((outcome) => [outcome.key, outcome]));
        });
        for (const key of leased) {
          const full = this.cacheKey(action, fingerprint, key);
          const own = batch.then((results) => results.get(key)!);
          const valueOnly = own.then((outcome) => (outcome.error ? Promise.reject(outcome.error) : outcome.value));
          valueOnly.catch(() => undefined);
          this.inFlight.set(full, { promise: valueOnly, signal });
          void own.finally(() => {
            if (this.inFlight.get(full)?.promise === valueOnly) this.inFlight.delete(full);
          });
          outcomes.set(key, own);
        }
      }
    }

    const settled = await Promise.all(keys.map((key) => outcomes.get(key)!));
    settled.forEach((outcome) => this.observe(action, outcome.source));
    return settled;
  }

  private async callUpstream<V>(action: string, keys: string[], fetchMissing: FetchMissing<V>): Promise<LookupOutcome<V>[]> {
    try {
      const results = await fetchMissing(keys);
      return keys.map((key) => {
        const result = results.get(key);
        if (result instanceof Error) return { key, error: result, source: 'upstream' as const };
        if (result === undefined) return { key, error: new ActionError('NOT_FOUND', `No result for ${key}`, { action }), source: 'upstream' as const };
        return { key, value: result, source: 'upstream' as const };
      });
    } catch (error) {
      return keys.map((key) => ({ key, error: error as Error, source: 'upstream' as const }));
    }
  }

  /** Failures are not cached, except NOT_FOUND for a short, documented time. */
  private async remember<V>(action: string, fingerprint: string, outcome: LookupOutcome<V>): Promise<void> {
    const full = this.cacheKey(action, fingerprint, outcome.key);
    if (!outcome.error) {
      await this.store!.set(full, outcome.value, this.settings.ttlMs[action] ?? 0);
    } else if (outcome.error instanceof ActionError && outcome.error.code === 'NOT_FOUND' && this.settings.notFoundTtlMs > 0) {
      await this.store!.set(full, { notFound: outcome.error.message }, this.settings.notFoundTtlMs);
    }
  }

  private async awaitOther<V>(key: string, flying: InFlight, again: () => Promise<LookupOutcome<V>>): Promise<LookupOutcome<V>> {
    try {
      return { key, value: (await flying.promise) as V, source: 'coalesced' };
    } catch (error) {
      // The call we joined was cancelled with its own request; that is no answer for this one.
      if (flying.signal?.aborted) return again();
      return { key, error: error as Error, source: 'coalesced' };
    }
  }

  /** Another process holds the lease: wait for its result, or call ourselves if it gives up. */
  private async waitForLeaseHolder<V>(action: string, fingerprint: string, key: string, fetchMissing: FetchMissing<V>, signal?: AbortSignal): Promise<LookupOutcome<V>> {
    const store = this.store as CacheStore & { leaseHeld?: (key: string) => Promise<boolean> };
    const full = this.cacheKey(action, fingerprint, key);
    const until = Date.now() + this.settings.leaseMs;
    while (Date.now() < until && !signal?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const cached = await store.get(full);
      if (cached !== undefined) return { ...fromCache<V>(key, cached, action), source: 'coalesced' };
      if (store.leaseHeld && !(await store.leaseHeld(full))) {
        // The holder stores before it lets go: a value written between our two reads is there now.
        const late = await store.get(full);
        if (late !== undefined) return { ...fromCache<V>(key, late, action), source: 'coalesced' };
        break;
      }
    }
    const [outcome] = await this.callUpstream(action, [key], fetchMissing);
    await this.remember(action, fingerprint, outcome!);
    return outcome!;
  }

  close(): Promise<void> {
    return this.store?.close() ?? Promise.resolve();
  }
}

function fromCache<V>(key: string, cached: unknown, action: string): LookupOutcome<V> {
  if (isNotFoundMarker(cached)) return { key, error: new ActionError('NOT_FOUND', cached.notFound, { action }), source: 'cache' };
  return { key, value: cached as V, source: 'cache' };
}
