/**
 * Follows a signal's abort with ONE listener per signal, however many waits follow it. An operation
 * waiting on many lookups at once (ten symbols another request is already fetching, or many calls with
 * the cache off) would otherwise add a listener per lookup to its one signal, past Node's limit of ten
 * (MaxListenersExceededWarning) and at the cost of an EventTarget listener each.
 *
 * The followers live on the signal itself, under a symbol, and go with it. A module-wide WeakMap keyed by
 * signal did the same, but its table sits in the old generation and takes two new entries per uncached
 * lookup; the young collector treats what such a table points to as live until a full collection, so every
 * follower's closure (the Interest of a coalesced call, its AbortController) was promoted with it: ~2.5 KB
 * per uncached lookup (`--trace-gc-nvp` under the bench's uncached load).
 */
const FOLLOWERS = Symbol('lookup-graph.abortFollowers');

type Followed = AbortSignal & { [FOLLOWERS]?: Set<() => void> };

/** Calls `callback` when `signal` aborts (not if it already has); returns the function that stops following. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  const followed = signal as Followed;
  let callbacks = followed[FOLLOWERS];
  if (!callbacks) {
    const created = new Set<() => void>();
    callbacks = created;
    followed[FOLLOWERS] = created;
    signal.addEventListener(
      'abort',
      () => {
        followed[FOLLOWERS] = undefined;
        for (const follower of created) follower();
      },
      { once: true },
    );
  }
  const follower = () => callback(); // its own identity: one callback may follow twice
  callbacks.add(follower);
  const following = callbacks;
  return () => {
    following.delete(follower);
  };
}
