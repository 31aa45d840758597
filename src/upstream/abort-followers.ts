/**
 * Follows a signal's abort with ONE listener per signal, however many waits follow it. An operation
 * waiting on many lookups at once (ten symbols another request is already fetching, or many calls with
 * the cache off) would otherwise add a listener per lookup to its one signal, past Node's limit of ten
 * (MaxListenersExceededWarning) and at the cost of an EventTarget listener each.
 */
const followers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` when `signal` aborts (not if it already has); returns the function that stops following. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = followers.get(signal);
  if (!callbacks) {
    const created = new Set<() => void>();
    callbacks = created;
    followers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        followers.delete(signal);
        for (const follower of created) follower();
      },
      { once: true },
    );
  }
  const follower = () => callback(); // its own identity: one callback may follow twice
  callbacks.add(follower);
  const followed = callbacks;
  return () => {
    followed.delete(follower);
  };
}
