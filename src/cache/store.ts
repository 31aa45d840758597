/** Where cached lookups live. Values are JSON-compatible; a miss is undefined. */
export interface CacheStore {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<unknown>;
  /** A synchronous read, for stores that can answer without I/O (memory). */
  peek?(key: string): unknown;
  /** When the entry for `key` was fetched from the upstream (its `t`), read without parsing its value; undefined for a miss. */
  storedAt?(key: string): Promise<number | undefined>;
  /** `jsonLength`: the value's JSON length when known (a store that sizes entries need not serialise them). */
  set(key: string, value: unknown, ttlMs: number, jsonLength?: number): Promise<void>;
  /** Takes the right to call the upstream for `key` for `ttlMs`; false when another holder has it. */
  acquireLease(key: string, ttlMs: number): Promise<boolean>;
  releaseLease(key: string): Promise<void>;
  /** Whether anyone holds the lease for `key` now. */
  leaseHeld(key: string): Promise<boolean>;
  /** True while the store answers; a store that does not answer is treated as empty. */
  healthy(): boolean;
  close(): Promise<void>;
}

/** A cached NOT_FOUND, so a lookup the upstream just said does not exist is not paid for again. */
export interface NotFoundMarker {
  notFound: string;
}

export function isNotFoundMarker(value: unknown): value is NotFoundMarker {
  return typeof value === 'object' && value !== null && typeof (value as NotFoundMarker).notFound === 'string';
}
