import { LRUCache } from 'lru-cache';
import type { CacheEntry, CacheStore } from './store.js';

/** An entry as kept: its JSON bytes, outside the JS heap, and its stored-at time for checks that need no value. */
interface Packed {
  bytes: Buffer;
  t: number;
}

/** A parsed entry takes about twice the bytes of its JSON in the heap (heap snapshots: ~3.6 KB live per 1.9 KB domain record). */
const HEAP_BYTES_PER_JSON_BYTE = 2;
/** The parsed copies of entries read more than once get this share of the bound, on top of it. */
const PARSED_SHARE = 1 / 8;

/**
 * The default cache: in this process, bounded by the bytes of its entries' JSON, least recently used
 * first out. Entries are kept as JSON bytes in Buffers: the garbage collector neither walks nor moves
 * them, and the heap stays the size of the live requests however full the cache is. An entry read
 * again is also kept parsed, in a smaller LRU, so a key read often costs no parsing; one that is
 * stored and never read again (most of an uncached workload) is never held as objects.
 */
export class MemoryStore implements CacheStore {
  readonly kind = 'memory';
  private readonly packed: LRUCache<string, Packed>;
  private readonly parsed: LRUCache<string, CacheEntry>;

  constructor(maxBytes: number) {
    this.parsed = new LRUCache({ maxSize: Math.max(1, Math.floor(maxBytes * PARSED_SHARE)), ttlAutopurge: false });
    this.packed = new LRUCache({
      maxSize: maxBytes,
      ttlAutopurge: false,
      // Evicted, expired, replaced or deleted: its parsed copy goes with it.
      dispose: (_packed, key) => this.parsed.delete(key),
    });
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.peek(key);
  }

  peek(key: string): CacheEntry | undefined {
    const packed = this.packed.get(key);
    if (packed === undefined) return undefined;
    const hot = this.parsed.get(key);
    if (hot !== undefined) return hot;
    const entry = JSON.parse(packed.bytes.toString('utf8')) as CacheEntry;
    const ttl = this.packed.getRemainingTTL(key);
    const size = Math.max(1, HEAP_BYTES_PER_JSON_BYTE * packed.bytes.length);
    this.parsed.set(key, entry, { size, ...(Number.isFinite(ttl) ? { ttl: Math.max(1, ttl) } : {}) });
    return entry;
  }

  peekStoredAt(key: string): number | undefined {
    return this.packed.get(key)?.t;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number, json?: string): Promise<void> {
    if (ttlMs <= 0) return;
    const text = json ?? JSON.stringify(entry);
    // Unpooled: a small Buffer.from would be a slice of a shared 8 KB slab and keep all of it alive.
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    this.packed.set(key, { bytes, t: entry.t }, { ttl: ttlMs, size: Math.max(1, bytes.length) });
  }

  /** One process needs no lease: its in-flight entries already make concurrent lookups share a call. */
  async acquireLease(): Promise<boolean> {
    return true;
  }

  async releaseLease(): Promise<void> {}

  async leaseHeld(): Promise<boolean> {
    return false;
  }

  healthy(): boolean {
    return true;
  }

  /** JSON bytes held (the LRU's own count; tests check the bound with it). */
  size(): number {
    return this.packed.calculatedSize;
  }

  /** Heap bytes held by the parsed copies (counted at twice their JSON). */
  parsedSize(): number {
    return this.parsed.calculatedSize;
  }

  async close(): Promise<void> {
    this.packed.clear();
    this.parsed.clear();
  }
}
