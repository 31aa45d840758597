import { LRUCache } from 'lru-cache';
import type { CacheEntry, CachePart, CacheStore } from './store.js';

/** An entry as kept: its value's JSON, one flat string, and its stored-at time for checks that need no value. */
interface Packed {
  json: string;
  t: number;
  /** When the shared store last confirmed this copy (in front of Redis, src/cache/tiered-store.ts); 0: never. */
  checked: number;
}

/** A parsed entry takes about twice the bytes of its JSON in the heap (heap snapshots: ~3.6 KB live per 1.9 KB domain record). */
const HEAP_BYTES_PER_JSON_BYTE = 2;
/** The parsed copies of entries read more than once get this share of the bound, on top of it. */
const PARSED_SHARE = 1 / 8;

/**
 * The default cache: in this process, bounded by the bytes of its entries' JSON, least recently used
 * first out. Entries are kept as JSON text, and those read again also parsed in a smaller LRU, so a
 * cache of mostly write-once entries holds strings rather than object trees.
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
    const entry: CacheEntry = { v: JSON.parse(packed.json), t: packed.t };
    // No TTL of its own: it is only read after its packed entry, which goes with it when that one does.
    this.parsed.set(key, entry, { size: Math.max(1, HEAP_BYTES_PER_JSON_BYTE * packed.json.length) });
    return entry;
  }

  peekStoredAt(key: string): number | undefined {
    return this.packed.get(key)?.t;
  }

  /** The entry when the shared store confirmed it at `since` or later (see `confirm`). */
  peekConfirmed(key: string, since: number): CacheEntry | undefined {
    const packed = this.packed.get(key);
    return packed !== undefined && packed.checked >= since ? this.peek(key) : undefined;
  }

  /** The entry's `t` when the shared store confirmed it at `since` or later. */
  peekStoredAtConfirmed(key: string, since: number): number | undefined {
    const packed = this.packed.get(key);
    return packed !== undefined && packed.checked >= since ? packed.t : undefined;
  }

  /** The shared store holds this very entry (stored at `t`) now; false when this copy is another or gone. */
  confirm(key: string, t: number): boolean {
    const packed = this.packed.get(key);
    if (packed === undefined || packed.t !== t) return false;
    packed.checked = Date.now();
    return true;
  }

  /** The shared store may hold a newer entry: the copy is served again only once confirmed (or while the shared store is out). */
  doubt(key: string): void {
    const packed = this.packed.get(key);
    if (packed !== undefined) packed.checked = 0;
  }

  /** Whole milliseconds until the entry expires; 0 when it is gone. */
  remainingTtl(key: string): number {
    return this.packed.has(key) ? Math.max(0, Math.floor(this.packed.getRemainingTTL(key))) : 0;
  }

  /** The entry's value as JSON, as kept (no parsing). */
  peekJson(key: string): { json: string; t: number } | undefined {
    const packed = this.packed.get(key);
    return packed && { json: packed.json, t: packed.t };
  }

  async set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<void> {
    this.put(key, entry, ttlMs, valueJson, Date.now());
  }

  /** Stores an entry; `checked`: when the shared store confirmed it (0 when it has not). */
  put(key: string, entry: CacheEntry, ttlMs: number, valueJson: string | undefined, checked: number): void {
    if (ttlMs <= 0) return;
    const json = valueJson ?? JSON.stringify(entry.v);
    this.packed.set(key, { json, t: entry.t, checked }, { ttl: ttlMs, size: heapBytesOf(json) });
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

  /** Heap bytes of the JSON held (the LRU's own count; tests check the bound with it). */
  size(): number {
    return this.packed.calculatedSize;
  }

  /** Heap bytes held by the parsed copies (counted at twice their JSON). */
  parsedSize(): number {
    return this.parsed.calculatedSize;
  }

  parts(): CachePart[] {
    return [
      { part: 'entries', bytes: this.packed.calculatedSize, entries: this.packed.size },
      { part: 'parsed', bytes: this.parsed.calculatedSize, entries: this.parsed.size },
    ];
  }

  async close(): Promise<void> {
    this.packed.clear();
    this.parsed.clear();
  }
}

/** V8 keeps a string of Latin-1 characters at one byte each and any other at two. */
function heapBytesOf(json: string): number {
  return Math.max(1, BEYOND_LATIN1.test(json) ? 2 * json.length : json.length);
}

const BEYOND_LATIN1 = /[\u0100-\uffff]/;
