import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/cache/memory-store.js';

const value = (n: number) => ({ text: 'x'.repeat(n) });

describe('MemoryStore', () => {
  it('counts an entry as twice its JSON (what it takes in the heap)', async () => {
    const store = new MemoryStore(10_000);
    await store.set('a', value(100), 60_000);
    expect(store.size()).toBe(2 * JSON.stringify(value(100)).length);
  });

  it('takes a known JSON length instead of serialising the value', async () => {
    const store = new MemoryStore(10_000);
    await store.set('a', value(100), 60_000, 500);
    expect(store.size()).toBe(1000);
  });

  it('evicts the least recently used entries once the byte bound is reached', async () => {
    const store = new MemoryStore(2000);
    await store.set('a', value(380), 60_000);
    await store.set('b', value(380), 60_000);
    expect(await store.get('a')).toEqual(value(380)); // a is now the most recently used
    await store.set('c', value(380), 60_000);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toEqual(value(380));
    expect(await store.get('c')).toEqual(value(380));
    expect(store.size()).toBeLessThanOrEqual(2000);
  });

  it('forgets entries after their time to live', async () => {
    const store = new MemoryStore(10_000);
    await store.set('short', value(1), 30);
    await store.set('long', value(1), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('long')).toEqual(value(1));
  });

  it('stores nothing with a time to live of zero', async () => {
    const store = new MemoryStore(10_000);
    await store.set('k', value(1), 0);
    expect(await store.get('k')).toBeUndefined();
  });
});
