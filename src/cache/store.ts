import type { LookupTrace } from '../kernel/lookup-trace.js';

/**
 * A cached lookup: its value and when it was fetched from the upstream (epoch ms). In Redis its JSON is
 * `{"v":…,"x":…,"t":…}`, `x` when it expires (epoch ms), so a process keeping a copy keeps it as long.
 */
export interface CacheEntry {
  v: unknown;
  t: number;
  x?: number;
}

/** One part of what a store holds in this process, by its own count against its bound (the cache size gauges). */
export interface CachePart {
  part: 'entries' | 'parsed' | 'results' | 'documents';
  bytes: number;
  entries: number;
}

/**
 * Where cached lookups live. Values are JSON-compatible; a miss is undefined. `trace`: the lookup's trace,
 * unread by the stores themselves (a tracing wrapper tells it each round trip, src/telemetry/spans.ts).
 */
export interface CacheStore {
  readonly kind: 'memory' | 'redis' | 'workers';
  get(key: string, trace?: LookupTrace): Promise<CacheEntry | undefined>;
  /** A synchronous read, for stores that can answer without I/O (memory, Redis's in-process tier); undefined: ask `get`. */
  peek?(key: string): CacheEntry | undefined;
  /** The entry's `t` at once, without reading its value (memory, Redis's in-process tier); undefined: ask `storedAt` where there is one. */
  peekStoredAt?(key: string): number | undefined;
  /** When the entry for `key` was fetched from the upstream (its `t`), read without parsing its value; undefined for a miss. */
  storedAt?(key: string): Promise<number | undefined>;
  /** `valueJson`: the JSON of `entry.v` when the caller has it (the upstream's text), so the store need not serialise it again. */
  set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string, trace?: LookupTrace): Promise<void>;
  /** Takes the right to call the upstream for `key` for `ttlMs`; false when another holder has it. */
  acquireLease(key: string, ttlMs: number, trace?: LookupTrace): Promise<boolean>;
  releaseLease(key: string, trace?: LookupTrace): Promise<void>;
  /**
   * Extends to `ttlMs` the leases on `keys` this process still holds (one taken over by another process
   * stays theirs), so a lease outlives its holder only briefly. Stores without leases need none.
   */
  renewLeases?(keys: readonly string[], ttlMs: number): Promise<void>;
  /** Whether anyone holds the lease for `key` now. */
  leaseHeld(key: string, trace?: LookupTrace): Promise<boolean>;
  /** What it holds in this process (memory, Redis's in-process tier). */
  parts?(): CachePart[];
  /** True while the store answers; a store that does not answer is treated as empty. */
  healthy(): boolean;
  close(): Promise<void>;
}

/** The JSON of an entry from its value's JSON, without serialising the value again; `t` stays last (a stamp read takes the tail). */
export function entryJson(valueJson: string, t: number, expiresAt: number): string {
  return `{"v":${valueJson},"x":${expiresAt},"t":${t}}`;
}

/** A cached NOT_FOUND, so a lookup the upstream just said does not exist is not paid for again. */
export interface NotFoundMarker {
  notFound: string;
  /** The error's own extensions (e.g. the symbol not found), so a cached NOT_FOUND reads as the first one did. */
  extensions?: Record<string, unknown>;
}

export function isNotFoundMarker(value: unknown): value is NotFoundMarker {
  return typeof value === 'object' && value !== null && typeof (value as NotFoundMarker).notFound === 'string';
}
