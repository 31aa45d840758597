import { createHmac } from 'node:crypto';
import { ActionError, cancelledError, refusedForClient } from '../kernel/errors.js';
import type { LookupTrace } from '../kernel/lookup-trace.js';
import type { CacheSettings } from './settings.js';
import { isNotFoundMarker, type CacheEntry, type CachePart, type CacheStore, type NotFoundMarker } from './store.js';

/**
 * Where a lookup's value came from, reported per lookup in the response's extensions: `refused` when
 * the gateway refused it without a call (its error says why).
 */
export type LookupSource = 'cache' | 'upstream' | 'coalesced' | 'refused';

export interface LookupOutcome<V> {
  key: string;
  value?: V;
  error?: Error;
  source: LookupSource;
  /** When the value was fetched from the upstream (epoch ms): its age is reported per lookup. */
  storedAt?: number;
}

/** Fetch options: keys in `fresh` skip the cross-request cache (read and in-flight join) and go upstream; the result is stored. */
export interface FetchOptions {
  fresh?: ReadonlySet<string>;
  /** The lookup's trace, handed to the store unread. */
  trace?: LookupTrace;
}

/**
 * Calls the upstream for the keys nobody has; a thrown error fails every one of them. `signal`
 * aborts only when every request waiting for these keys has gone (the owner and the joiners), so
 * the call must use it instead of the owner's own request signal.
 */
export type FetchMissing<V> = (keys: string[], signal?: AbortSignal) => Promise<Map<string, V | Error>>;

/** The request a lookup is made for: its cancellation and its deadline (epoch ms) bound every wait. */
export interface Waiter {
  signal?: AbortSignal;
  deadline?: number;
}

interface InFlight {
  /** Settles with the outcome of the request that owns the lookup. */
  outcome: Promise<LookupOutcome<unknown>>;
  /** The owner: if it was cancelled, its failure is no answer for the others (read only then). */
  owner: Waiter;
  /** The requests still waiting for the call: it is cancelled only when none is left. */
  interest: Interest;
}

/**
 * Who still wants a call: the owner and every request that joined it. The call's signal aborts when
 * the last of them goes away, so an owner that disconnects does not cancel a call others wait for.
 */
class Interest {
  private count = 0;
  private readonly controller = new AbortController();
  private settled = false;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  add(waiter: Waiter): void {
    const signal = waiter.signal;
    if (!signal) {
      this.count += 1; // a waiter without a signal never leaves
      return;
    }
    if (signal.aborted) return;
    this.count += 1;
    signal.addEventListener(
      'abort',
      () => {
        this.count -= 1;
        if (this.count <= 0 && !this.settled) this.controller.abort();
      },
      { once: true },
    );
  }

  /** The call ended: later departures change nothing. */
  settle(): void {
    this.settled = true;
  }
}

interface Owned<V> {
  key: string;
  full: string;
  settle: (outcome: LookupOutcome<V>) => void;
  interest: Interest;
  /** The owning lookup's trace, for its store round trips. */
  trace: LookupTrace | undefined;
}

const POLL_MS = 25;

/**
 * Keeps this process's leases alive while their calls are in flight: renews them every third of their life
 * in Redis (`leaseTtlMs`), never past `leaseMs` from when it started, so a holder that dies frees its keys
 * within a lease's life, and a live holder's call longer than that life is not taken for a dead one's.
 */
class LeaseKeeper {
  private readonly keys = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  private readonly until: number;

  constructor(
    private readonly store: CacheStore,
    private readonly settings: CacheSettings,
  ) {
    this.until = Date.now() + settings.leaseMs;
  }

  hold(key: string): void {
    this.keys.add(key);
    if (this.timer) return;
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.settings.leaseTtlMs / 3)));
    this.timer.unref();
  }

  drop(key: string): void {
    this.keys.delete(key);
  }

  stop(): void {
    clearInterval(this.timer);
    this.keys.clear();
  }

  private async renew(): Promise<void> {
    const left = this.until - Date.now();
    if (left <= 0 || this.keys.size === 0) return this.stop();
    // A renewal still on its way (Redis slow): the next tick tries again.
    if (this.renewing) return;
    this.renewing = true;
    try {
      await this.store.renewLeases!([...this.keys], Math.min(this.settings.leaseTtlMs, left));
    } catch {
      // The store never throws by contract; an unrenewed lease only expires sooner.
    } finally {
      this.renewing = false;
    }
  }
}

/**
 * The cross-request action cache with coalescing. Keys are action + upstream-token fingerprint +
 * canonical input, so two tokens never share an entry. Concurrent identical lookups share one
 * upstream call within the process (an in-flight entry, registered before anything is awaited) and,
 * with Redis, across processes (a lease: the holder calls, the others wait for its result).
 */
export class LookupCache {
  // An object, not a Map: on Node 20 a long-lived Map whose entries come and go kept the removed calls
  // alive through young-generation collections (the uncached bench row: about a fifth more CPU).
  private readonly inFlight: Record<string, InFlight | undefined> = Object.create(null);
  private readonly fingerprints = new Map<string, string>();

  constructor(
    private readonly store: CacheStore | null,
    private readonly settings: CacheSettings,
    private readonly observe: (action: string, source: LookupSource) => void = () => undefined,
  ) {}

  /** An HMAC of the token, never the token itself, so cache keys can be logged and shared. */
  fingerprint(token: string): string {
    let fingerprint = this.fingerprints.get(token);
    if (!fingerprint) {
      fingerprint = createHmac('sha256', this.settings.keySecret).update(token).digest('hex').slice(0, 24);
      if (this.fingerprints.size >= 10_000) this.fingerprints.clear();
      this.fingerprints.set(token, fingerprint);
    }
    return fingerprint;
  }

  cacheKey(action: string, fingerprint: string, key: string): string {
    // v2: entries are { v: value, t: stored at (epoch ms) }.
    return `lg:v2:${action}:${fingerprint}:${key}`;
  }

  /** How long a successful result of `action` is kept, in ms (0 when the cache is off). */
  ttlMs(action: string): number {
    return this.store ? (this.settings.ttlMs[action] ?? 0) : 0;
  }

  /** Whether there is a store to check remembered results against (result-memo.ts). */
  get remembersResults(): boolean {
    return this.store !== null && (this.store.peekStoredAt !== undefined || this.store.storedAt !== undefined);
  }

  /**
   * When the entry a lookup would be served from was fetched (epoch ms), undefined for a miss: at once
   * from memory (or Redis's in-process tier while it holds a confirmed copy), else with the tick's one
   * stamp read from Redis (only the entry's tail is read, not its value parsed).
   */
  storedAt(action: string, fingerprint: string, key: string): number | undefined | Promise<number | undefined> {
    const full = this.cacheKey(action, fingerprint, key);
    const local = this.store?.peekStoredAt?.(full);
    if (local !== undefined || !this.store?.storedAt) return local;
    return this.store.storedAt(full);
  }

  /** A lookup answered from a remembered result, its entry checked with storedAt: counted as a cache hit. */
  hit(action: string, key: string, storedAt: number): LookupOutcome<unknown> {
    this.observe(action, 'cache');
    return { key, source: 'cache', storedAt };
  }

  /** One lookup through the cache. */
  async fetch<V>(
    action: string,
    fingerprint: string,
    key: string,
    call: (signal?: AbortSignal) => Promise<V>,
    waiter: Waiter = {},
    options: FetchOptions = {},
  ): Promise<LookupOutcome<V>> {
    const [outcome] = await this.fetchMany<V>(
      action,
      fingerprint,
      [key],
      async ([only], signal) => new Map([[only!, await call(signal)]]),
      waiter,
      options,
    );
    return outcome!;
  }

  /**
   * Several keys of one action through the cache: hits are served, keys another request is
   * already fetching are awaited, and the rest go upstream in ONE call to `fetchMissing`.
   */
  async fetchMany<V>(
    action: string,
    fingerprint: string,
    keys: string[],
    fetchMissing: FetchMissing<V>,
    waiter: Waiter = {},
    options: FetchOptions = {},
  ): Promise<LookupOutcome<V>[]> {
    if (options.fresh && keys.some((key) => options.fresh!.has(key))) {
      // Fresh reads: those keys go upstream now (and refresh the cache); the others as usual.
      const fresh = keys.filter((key) => options.fresh!.has(key));
      const rest = keys.filter((key) => !options.fresh!.has(key));
      const [fromUpstream, others] = await Promise.all([
        this.callUpstream(action, fresh, fetchMissing).then(async (outcomes) => {
          if (this.store)
            await Promise.all(outcomes.map((outcome) => this.remember(action, fingerprint, outcome, options.trace)));
          for (const outcome of outcomes) this.observe(action, outcome.source);
          return outcomes;
        }),
        rest.length > 0
          ? this.fetchMany(action, fingerprint, rest, fetchMissing, waiter, { trace: options.trace })
          : Promise.resolve([]),
      ]);
      const byKey = new Map([...fromUpstream, ...others].map((outcome) => [outcome.key, outcome]));
      return keys.map((key) => byKey.get(key)!);
    }
    if (!this.store) {
      const outcomes = await this.callUpstream(action, keys, fetchMissing, waiter.signal);
      for (const outcome of outcomes) this.observe(action, outcome.source);
      return outcomes;
    }
    const outcomes: Array<Promise<LookupOutcome<V>>> = [];
    const owned: Array<Owned<V>> = [];
    let interest: Interest | undefined;
    // Synchronously, before any await: join a lookup in flight, or announce ours, so identical
    // lookups arriving in the same tick share one call.
    for (const key of keys) {
      const full = this.cacheKey(action, fingerprint, key);
      // A hit in this process's memory is answered at once, with no promise bookkeeping.
      const local = this.store.peek?.(full);
      if (local !== undefined) {
        outcomes.push(Promise.resolve(fromCache<V>(key, local, action, 'cache')));
        continue;
      }
      const flying = this.inFlight[full];
      if (flying) {
        outcomes.push(
          this.join<V>(action, key, flying, waiter, () =>
            this.fetchMany(action, fingerprint, [key], fetchMissing, waiter, { trace: options.trace }).then(
              (r) => r[0]!,
            ),
          ),
        );
        continue;
      }
      let settle!: (outcome: LookupOutcome<V>) => void;
      const outcome = new Promise<LookupOutcome<V>>((resolve) => (settle = resolve));
      // One interest for all the keys this request owns: they go upstream in one call.
      if (!interest) {
        interest = new Interest();
        interest.add(waiter);
      }
      const call: InFlight = { outcome, owner: waiter, interest };
      this.inFlight[full] = call;
      void outcome.then(() => {
        if (this.inFlight[full] === call) delete this.inFlight[full];
      });
      owned.push({ key, full, settle, interest, trace: options.trace });
      outcomes.push(outcome);
    }
    if (owned.length > 0) {
      await this.resolveOwned(action, fingerprint, owned, fetchMissing, waiter);
      interest!.settle();
    }
    const settled = await Promise.all(outcomes);
    for (const outcome of settled) this.observe(action, outcome.source);
    return settled;
  }

  /** Serves the lookups this request owns: from the store, from another process's call, or upstream. */
  private async resolveOwned<V>(
    action: string,
    fingerprint: string,
    owned: Array<Owned<V>>,
    fetchMissing: FetchMissing<V>,
    waiter: Waiter,
  ): Promise<void> {
    const store = this.store!;
    const waits: Array<Promise<void>> = [];
    const toCall: Array<Owned<V>> = [];
    // Only a store with leases to renew (Redis) needs one: the in-process store's lease is the in-flight entry.
    const keeper = store.renewLeases ? new LeaseKeeper(store, this.settings) : undefined;
    try {
      // Every key read at once: with Redis the reads of one tick go as one round trip per node (redis-store.ts).
      const cachedValues = await Promise.all(owned.map((lookup) => store.get(lookup.full, lookup.trace)));
      for (const [index, lookup] of owned.entries()) {
        const cached = cachedValues[index];
        if (cached !== undefined) {
          lookup.settle(fromCache<V>(lookup.key, cached, action, 'cache'));
        } else if (store.kind === 'memory') {
          toCall.push(lookup); // within one process the in-flight entry is the lease
        } else if (!(await store.acquireLease(lookup.full, this.settings.leaseTtlMs, lookup.trace))) {
          waits.push(this.waitForLeaseHolder(action, fingerprint, lookup, fetchMissing, waiter));
        } else {
          keeper?.hold(lookup.full);
          // The previous holder may have stored its result and let go between our miss and our lease.
          const stored = await store.get(lookup.full, lookup.trace);
          if (stored === undefined) {
            toCall.push(lookup);
          } else {
            keeper?.drop(lookup.full);
            await store.releaseLease(lookup.full, lookup.trace);
            lookup.settle(fromCache<V>(lookup.key, stored, action, 'coalesced'));
          }
        }
      }
      if (toCall.length > 0) {
        const results = await this.callUpstream(
          action,
          toCall.map((lookup) => lookup.key),
          fetchMissing,
          toCall[0]!.interest.signal,
        );
        await Promise.all(
          results.map((outcome, index) => this.remember(action, fingerprint, outcome, toCall[index]!.trace)),
        );
        keeper?.stop();
        await Promise.all(toCall.map((lookup) => store.releaseLease(lookup.full, lookup.trace)));
        for (const [index, outcome] of results.entries()) toCall[index]!.settle(outcome);
      }
      await Promise.all(waits);
    } catch (error) {
      // The store never throws by contract; should it, no owned lookup may be left hanging.
      for (const lookup of owned) lookup.settle({ key: lookup.key, error: error as Error, source: 'upstream' });
    } finally {
      keeper?.stop();
    }
  }

  private async callUpstream<V>(
    action: string,
    keys: string[],
    fetchMissing: FetchMissing<V>,
    signal?: AbortSignal,
  ): Promise<LookupOutcome<V>[]> {
    try {
      const results = await fetchMissing(keys, signal);
      return keys.map((key) => {
        const result = results.get(key);
        if (result instanceof Error) return { key, error: result, source: sourceOfFailure(result) };
        if (result === undefined)
          return {
            key,
            error: new ActionError('NOT_FOUND', `No result for ${key}`, { action }),
            source: 'upstream' as const,
          };
        return { key, value: result, source: 'upstream' as const, storedAt: Date.now() };
      });
    } catch (error) {
      return keys.map((key) => ({ key, error: error as Error, source: sourceOfFailure(error) }));
    }
  }

  /** Failures are not cached, except NOT_FOUND for a short, documented time. */
  private async remember<V>(
    action: string,
    fingerprint: string,
    outcome: LookupOutcome<V>,
    trace: LookupTrace | undefined,
  ): Promise<void> {
    const full = this.cacheKey(action, fingerprint, outcome.key);
    const t = outcome.storedAt ?? Date.now();
    if (!outcome.error) {
      await this.store!.set(
        full,
        { v: outcome.value, t },
        this.settings.ttlMs[action] ?? 0,
        JSON.stringify(outcome.value),
        trace,
      );
    } else if (
      outcome.error instanceof ActionError &&
      outcome.error.code === 'NOT_FOUND' &&
      this.settings.notFoundTtlMs > 0
    ) {
      const { message, extensions } = outcome.error;
      const marker: NotFoundMarker = extensions ? { notFound: message, extensions } : { notFound: message };
      await this.store!.set(full, { v: marker, t }, this.settings.notFoundTtlMs, undefined, trace);
    }
  }

  /** Waits for the owner's outcome, but never past this request's own deadline or cancellation. */
  private async join<V>(
    action: string,
    key: string,
    flying: InFlight,
    waiter: Waiter,
    again: () => Promise<LookupOutcome<V>>,
  ): Promise<LookupOutcome<V>> {
    // This request now keeps the call alive too, should its owner go away.
    flying.interest.add(waiter);
    const theirs = (await raceWaiter(flying.outcome, waiter, key, action)) as LookupOutcome<V>;
    // The call we joined was cancelled with its own request, or refused for its client (its share, its quota);
    // that is no answer for this one.
    if (theirs.error && ((flying.owner.signal?.aborted && !waiter.signal?.aborted) || refusedForClient(theirs.error)))
      return again();
    return { ...theirs, key, source: theirs.source === 'refused' ? 'refused' : 'coalesced' };
  }

  /** Another process holds the lease: wait for its result, or call ourselves if it gives up. */
  private async waitForLeaseHolder<V>(
    action: string,
    fingerprint: string,
    lookup: Owned<V>,
    fetchMissing: FetchMissing<V>,
    waiter: Waiter,
  ): Promise<void> {
    const store = this.store!;
    const until = Math.min(Date.now() + this.settings.leaseMs, waiter.deadline ?? Infinity);
    let leased = false;
    while (Date.now() < until && !waiter.signal?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const cached = await store.get(lookup.full, lookup.trace);
      if (cached !== undefined) return lookup.settle(fromCache<V>(lookup.key, cached, action, 'coalesced'));
      if (!(await store.leaseHeld(lookup.full, lookup.trace))) {
        // The holder stores before it lets go: a value written between our two reads is there now.
        const late = await store.get(lookup.full, lookup.trace);
        if (late !== undefined) return lookup.settle(fromCache<V>(lookup.key, late, action, 'coalesced'));
        // Gone without storing (it failed, or died and its lease ran out): the waiter that takes the lease over
        // calls, and the others, in any process, go on waiting for it as they waited for the first holder.
        if (await store.acquireLease(lookup.full, this.settings.leaseTtlMs, lookup.trace)) {
          leased = true;
          break;
        }
      }
    }
    if (!leased) {
      if (waiter.signal?.aborted)
        return lookup.settle({ key: lookup.key, error: cancelledError(action), source: 'coalesced' });
      if (waiter.deadline !== undefined && Date.now() >= waiter.deadline)
        return lookup.settle({ key: lookup.key, error: timedOut(action), source: 'coalesced' });
    }
    const keeper = leased && store.renewLeases ? new LeaseKeeper(store, this.settings) : undefined;
    keeper?.hold(lookup.full);
    try {
      const [outcome] = await this.callUpstream(action, [lookup.key], fetchMissing, lookup.interest.signal);
      await this.remember(action, fingerprint, outcome!, lookup.trace);
      keeper?.stop();
      if (leased) await store.releaseLease(lookup.full, lookup.trace);
      lookup.settle(outcome!);
    } finally {
      keeper?.stop();
    }
  }

  /**
   * Whether this process makes the live poll of a lookup for one interval (`slot`, the interval's number since
   * the epoch): with Redis the first replica to take the slot's lease makes it, and the lease is left to expire,
   * so every replica watching the lookup shares one call per interval. In one process (memory, or no cache) it
   * always does; a Redis that does not answer lets every replica poll rather than none.
   */
  claimPoll(action: string, fingerprint: string, key: string, slot: number, intervalMs: number): Promise<boolean> {
    if (!this.store || this.store.kind === 'memory') return Promise.resolve(true);
    return this.store.acquireLease(`${this.cacheKey(action, fingerprint, key)}:live:${slot}`, intervalMs);
  }

  /**
   * When the entry of a lookup was fetched, as the shared store has it now (Redis's stamp, never the in-process
   * copy alone, which a newer stamp marks as doubtful): how a replica learns another one's poll refreshed it.
   */
  sharedStoredAt(action: string, fingerprint: string, key: string): Promise<number | undefined> {
    const full = this.cacheKey(action, fingerprint, key);
    if (this.store?.storedAt) return this.store.storedAt(full);
    return Promise.resolve(this.store?.peekStoredAt?.(full));
  }

  /** What the store holds in this process, for the cache size gauges (none with Redis or with the cache off). */
  parts(): CachePart[] {
    return this.store?.parts?.() ?? [];
  }

  close(): Promise<void> {
    return this.store?.close() ?? Promise.resolve();
  }
}

function sourceOfFailure(error: unknown): LookupSource {
  return error instanceof ActionError && error.refused ? 'refused' : 'upstream';
}

function fromCache<V>(key: string, entry: CacheEntry, action: string, source: LookupSource): LookupOutcome<V> {
  const { v: cached, t: storedAt } = entry;
  if (isNotFoundMarker(cached)) {
    return {
      key,
      error: new ActionError('NOT_FOUND', cached.notFound, { action, extensions: cached.extensions }),
      source,
      storedAt,
    };
  }
  return { key, value: cached as V, source, storedAt };
}

function timedOut(action: string): ActionError {
  return new ActionError(
    'UPSTREAM_TIMEOUT',
    "The operation ran out of time while this lookup waited for another request's call",
    { action },
  );
}

/** The owner's outcome, or a timeout or cancellation of this waiter, whichever comes first. */
function raceWaiter(
  outcome: Promise<LookupOutcome<unknown>>,
  waiter: Waiter,
  key: string,
  action: string,
): Promise<LookupOutcome<unknown>> {
  if (waiter.deadline === undefined && !waiter.signal) return outcome;
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const cancelled = () => finish({ key, error: cancelledError(action), source: 'coalesced' });
    const finish = (result: LookupOutcome<unknown>) => {
      clearTimeout(timer);
      waiter.signal?.removeEventListener('abort', cancelled);
      resolve(result);
    };
    if (waiter.signal?.aborted) return cancelled();
    waiter.signal?.addEventListener('abort', cancelled, { once: true });
    if (waiter.deadline !== undefined) {
      timer = setTimeout(
        () => finish({ key, error: timedOut(action), source: 'coalesced' }),
        Math.max(0, waiter.deadline - Date.now()),
      );
    }
    void outcome.then(finish);
  });
}
