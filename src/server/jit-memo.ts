// Our own guard around graphql-jit 0.8: its memoized helpers keep every compiled document's nodes in Maps for ever.
import memoize from 'lodash.memoize';

/**
 * A cache with lodash.memoize's interface (has, get, set returning itself, delete, clear) that holds object
 * keys weakly and other keys strongly.
 */
class WeakKeyCache {
  private weak = new WeakMap<object, unknown>();
  private strong = new Map<unknown, unknown>();

  private static isObject(key: unknown): key is object {
    return (typeof key === 'object' && key !== null) || typeof key === 'function';
  }

  has(key: unknown): boolean {
    return WeakKeyCache.isObject(key) ? this.weak.has(key) : this.strong.has(key);
  }

  get(key: unknown): unknown {
    return WeakKeyCache.isObject(key) ? this.weak.get(key) : this.strong.get(key);
  }

  set(key: unknown, value: unknown): this {
    if (WeakKeyCache.isObject(key)) this.weak.set(key, value);
    else this.strong.set(key, value);
    return this;
  }

  delete(key: unknown): boolean {
    return WeakKeyCache.isObject(key) ? this.weak.delete(key) : this.strong.delete(key);
  }

  clear(): void {
    this.weak = new WeakMap();
    this.strong.clear();
  }
}

// graphql-jit memoizes what it derives from a document's nodes (lodash.memoize, a Map per function), so
// each distinct document stays reachable after its request, compiled code and all: hundreds of KB apiece,
// without bound. With this cache, entries keyed by a document's nodes go with the document; keys that are
// type or field names (the schema's own, a fixed set) stay. graphql-jit's memoized functions take their
// cache when they are created, some as it loads: src/server/graphql-jit.ts imports this module first.
memoize.Cache = WeakKeyCache;
