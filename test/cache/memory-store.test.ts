import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/cache/memory-store.js';
import type { CacheEntry } from '../../src/cache/store.js';

const entry = (n: number, t = 1): CacheEntry => ({ v: { text: 'x'.repeat(n) }, t });
/** The heap bytes of an entry's value JSON: one per character, two when any is outside Latin-1. */
const bytesOf = (value: CacheEntry) => JSON.stringify(value.v).length;

describe('MemoryStore', () => {
  it("counts an entry as its value's JSON takes in the heap: a byte per Latin-1 character, two per character otherwise", async () => {
    const store = new MemoryStore(10_000);
    await store.set('a', entry(100), 60_000);
    expect(store.size()).toBe(bytesOf(entry(100)));
    await store.set('é', { v: { text: 'é'.repeat(100) }, t: 1 }, 60_000);
    expect(store.size()).toBe(2 * bytesOf(entry(100))); // é is Latin-1: one byte each
    await store.set('€', { v: { text: '€'.repeat(100) }, t: 1 }, 60_000);
    expect(store.size()).toBe(2 * bytesOf(entry(100)) + 2 * bytesOf(entry(100)));
  });

  it('stores the value JSON it is given instead of serialising the value', async () => {
    const store = new MemoryStore(10_000);
    const value = entry(100, 7);
    await store.set('a', value, 60_000, '{"text":"as the upstream sent it"}');
    expect(store.size()).toBe('{"text":"as the upstream sent it"}'.length);
    expect(await store.get('a')).toEqual({ v: { text: 'as the upstream sent it' }, t: 7 });
  });

  it('gives back an equal entry, not the object it was given (the heap holds no object of an entry stored once)', async () => {
    const store = new MemoryStore(10_000);
    const value = entry(10, 5);
    await store.set('a', value, 60_000);
    const read = await store.get('a');
    expect(read).toEqual(value);
    expect(read).not.toBe(value);
    expect(store.peekStoredAt('a')).toBe(5);
  });

  it('keeps an entry read again parsed: later reads share one object, counted apart and within an eighth of the bound', async () => {
    const store = new MemoryStore(16_000);
    await store.set('a', entry(100), 60_000);
    expect(store.parsedSize()).toBe(0);
    const first = store.peek('a');
    expect(store.peek('a')).toBe(first);
    expect(store.parsedSize()).toBe(2 * bytesOf(entry(100)));
    for (const key of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']) {
      await store.set(key, entry(100), 60_000);
      store.peek(key);
    }
    expect(store.parsedSize()).toBeLessThanOrEqual(2000);
  });

  it('lets go of the parsed copy when the entry is replaced, evicted or expires', async () => {
    const store = new MemoryStore(1000);
    await store.set('a', entry(10, 1), 60_000);
    store.peek('a');
    await store.set('a', entry(10, 2), 60_000);
    expect(store.peek('a')).toEqual(entry(10, 2));
    await store.set('b', entry(985), 60_000); // evicts a
    expect(store.peek('a')).toBeUndefined();
    await store.set('short', entry(1), 30);
    expect(store.peek('short')).toEqual(entry(1));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(store.peek('short')).toBeUndefined();
    expect(store.peekStoredAt('short')).toBeUndefined();
  });

  it('evicts the least recently used entries once the byte bound is reached', async () => {
    const store = new MemoryStore(1000);
    await store.set('a', entry(380), 60_000);
    await store.set('b', entry(380), 60_000);
    expect(await store.get('a')).toEqual(entry(380)); // a is now the most recently used
    await store.set('c', entry(380), 60_000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toEqual(entry(380));
    expect(await store.get('c')).toEqual(entry(380));
    expect(store.size()).toBeLessThanOrEqual(1000);
  });

  it('forgets entries after their time to live', async () => {
    const store = new MemoryStore(10_000);
    await store.set('short', entry(1), 30);
    await store.set('long', entry(1), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('long')).toEqual(entry(1));
  });

  it('stores nothing with a time to live of zero', async () => {
    const store = new MemoryStore(10_000);
    await store.set('k', entry(1), 0);
    expect(await store.get('k')).toBeUndefined();
  });
});
