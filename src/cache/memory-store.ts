import { LRUCache } from 'lru-cache';
import type { CacheEntry, CachePart, CacheStore } from './store.js';

/** An entry as kept: its value's JSON, one flat string, and its stored-at time for checks that need no value. */
interface Packed {
  json: string;
  t: number;
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

  async set(key: string, entry: CacheEntry, ttlMs: number, valueJson?: string): Promise<void> {
    if (ttlMs <= 0) return;
    const json = valueJson ?? JSON.stringify(entry.v);
    this.packed.set(key, { json, t: entry.t }, { ttl: ttlMs, size: heapBytesOf(json) });
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
