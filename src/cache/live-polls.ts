/**
 * Live polls: every lookup a live query (`@live`) watches is refreshed once per interval, whoever and however many
 * watch it. Hand-written: live-query stores (graphql-live-query's) re-execute each subscribed operation on every
 * invalidation, one upstream call per watcher; here the unit is the lookup's canonical input, shared by every
 * watcher in the process and, through a Redis lease per interval, by every replica.
 *
 * Per interval (aligned on the clock, so every replica ticks together), for each watched lookup:
 * - the replica that takes the interval's lease (LookupCache.claimPoll) asks one of its watchers, in turn, to
 *   refresh it (a fresh read through the cache, paid by that watcher's client; one that cannot pay hands the
 *   turn on);
 * - every replica then reads the entry's stamp from the shared store until it moves (or the interval is
 *   nearly over) and tells the watchers of a lookup whose value was refreshed, which re-read it from the cache.
 * A lookup nobody watches any more is dropped at once: no poll is made for nobody.
 */
import type { LookupCache } from './lookup-cache.js';

/** One watched lookup: an action, the token's cache scope and the canonical key. */
export interface LiveKey {
  action: string;
  fingerprint: string;
  key: string;
}

/** A live operation as the polls see it. */
export interface LiveWatcher {
  /** Makes the poll's call for `keys`, paid by this watcher's client; resolves to the keys it could not pay for. */
  refresh(keys: LiveKey[]): Promise<LiveKey[]>;
  /** The values of `keys` were refreshed (here or by another replica): read them again from the cache. */
  changed(keys: LiveKey[]): void;
}

/** Told of each poll: whether this replica made its call (`made`) or another replica did (`shared`). */
export type PollObserver = (action: string, outcome: 'made' | 'shared' | 'unpaid') => void;

interface Poll {
  live: LiveKey;
  intervalMs: number;
  watchers: LiveWatcher[];
  /** Whose turn it is to pay for the next call. */
  turn: number;
  /** The entry's stamp as last seen: a newer one means its value was refreshed. */
  stamp: number | undefined;
}

/** How often a replica reads the stamps of the lookups it watches after a tick, at most (ms). */
const STAMP_CHECK_MS = 100;

const idOf = (live: LiveKey) => `${live.action}\u0000${live.fingerprint}\u0000${live.key}`;

export class LivePolls {
  private readonly polls = new Map<string, Poll>();
  /** One clock per interval length: it ticks on the interval's boundaries while a lookup with that interval is watched. */
  private readonly clocks = new Map<number, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly cache: Pick<LookupCache, 'claimPoll' | 'sharedStoredAt'>,
    private readonly intervalMs: Readonly<Record<string, number>>,
    private readonly observe: PollObserver = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Lookups watched in this process now. */
  get size(): number {
    return this.polls.size;
  }

  /** The refresh interval of an action's live lookups (ms). */
  intervalOf(action: string): number {
    return this.intervalMs[action] ?? 60_000;
  }

  /** When a watched lookup is next refreshed (epoch ms). */
  nextRefresh(action: string): number {
    const interval = this.intervalOf(action);
    return (Math.floor(this.now() / interval) + 1) * interval;
  }

  /** `watcher` watches `keys` (again: a key it already watches counts once); returns what releases them. */
  watch(watcher: LiveWatcher, keys: readonly LiveKey[]): () => void {
    const ids: string[] = [];
    for (const live of keys) {
      const id = idOf(live);
      let poll = this.polls.get(id);
      if (!poll) {
        if (this.closed) continue;
        poll = { live, intervalMs: this.intervalOf(live.action), watchers: [], turn: 0, stamp: undefined };
        this.polls.set(id, poll);
        const made = poll;
        void this.cache
          .sharedStoredAt(live.action, live.fingerprint, live.key)
          .then((stamp) => {
            if (made.stamp === undefined) made.stamp = stamp;
          })
          .catch(() => undefined);
        this.startClock(poll.intervalMs);
      }
      if (poll.watchers.includes(watcher)) continue;
      poll.watchers.push(watcher);
      ids.push(id);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) this.leave(id, watcher);
    };
  }

  /** Stops every clock; watchers are released by their operations. */
  close(): void {
    this.closed = true;
    for (const clock of this.clocks.values()) clearTimeout(clock);
    this.clocks.clear();
    this.polls.clear();
  }

  private leave(id: string, watcher: LiveWatcher): void {
    const poll = this.polls.get(id);
    if (!poll) return;
    const at = poll.watchers.indexOf(watcher);
    if (at < 0) return;
    poll.watchers.splice(at, 1);
    if (at < poll.turn) poll.turn -= 1;
    if (poll.watchers.length === 0) this.polls.delete(id);
  }

  private startClock(intervalMs: number): void {
    if (this.clocks.has(intervalMs) || this.closed) return;
    const boundary = (Math.floor(this.now() / intervalMs) + 1) * intervalMs;
    const timer = setTimeout(() => {
      this.clocks.delete(intervalMs);
      const due = [...this.polls.values()].filter((poll) => poll.intervalMs === intervalMs);
      if (due.length === 0) return; // nobody watches a lookup with this interval: the clock stops
      this.startClock(intervalMs);
      void this.tick(due, Math.round(boundary / intervalMs), boundary + intervalMs).catch(() => undefined);
    }, boundary - this.now());
    timer.unref();
    this.clocks.set(intervalMs, timer);
  }

  /** One interval's polls: the calls this replica won, then the news of every refreshed value. */
  private async tick(due: Poll[], slot: number, endsAt: number): Promise<void> {
    const claims = await Promise.all(
      due.map((poll) =>
        this.cache.claimPoll(poll.live.action, poll.live.fingerprint, poll.live.key, slot, poll.intervalMs),
      ),
    );
    const won = due.filter((_, index) => claims[index]);
    for (const poll of due) if (!won.includes(poll)) this.observe(poll.live.action, 'shared');
    await this.refresh(won);
    // Every replica, the caller included, learns of a refresh from the entry's stamp in the shared store.
    let waiting = due;
    const deadline = Math.min(endsAt - STAMP_CHECK_MS, this.now() + (endsAt - this.now()) * 0.8);
    while (waiting.length > 0 && !this.closed) {
      const live = waiting.filter((poll) => poll.watchers.length > 0);
      const stamps = await Promise.all(
        live.map((poll) => this.cache.sharedStoredAt(poll.live.action, poll.live.fingerprint, poll.live.key)),
      );
      const moved = live.filter((poll, index) => {
        const stamp = stamps[index];
        if (stamp === undefined || stamp === poll.stamp) return false;
        poll.stamp = stamp;
        return true;
      });
      this.tell(moved);
      waiting = live.filter((poll) => !moved.includes(poll));
      if (waiting.length === 0 || this.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, STAMP_CHECK_MS).unref());
    }
  }

  /** The calls of the polls this replica won, each paid by its watchers in turn; keys one watcher holds go together. */
  private async refresh(won: Poll[]): Promise<void> {
    let unpaid = won.filter((poll) => poll.watchers.length > 0);
    // Each watcher pays at most once per poll per tick: a watcher that cannot pay hands the turn to the next.
    const tried = new Map<Poll, Set<LiveWatcher>>();
    while (unpaid.length > 0) {
      const byWatcher = new Map<LiveWatcher, Poll[]>();
      for (const poll of unpaid) {
        const seen = tried.get(poll) ?? new Set<LiveWatcher>();
        tried.set(poll, seen);
        const payer = this.nextPayer(poll, seen);
        if (!payer) {
          this.observe(poll.live.action, 'unpaid');
          continue;
        }
        seen.add(payer);
        byWatcher.set(payer, [...(byWatcher.get(payer) ?? []), poll]);
      }
      const next: Poll[] = [];
      await Promise.all(
        [...byWatcher].map(async ([watcher, polls]) => {
          const failed = await watcher.refresh(polls.map((poll) => poll.live)).catch(() => polls.map((p) => p.live));
          for (const poll of polls) {
            if (failed.some((live) => idOf(live) === idOf(poll.live))) next.push(poll);
            else this.observe(poll.live.action, 'made');
          }
        }),
      );
      unpaid = next;
    }
  }

  /** The next watcher in turn that has not tried to pay for this poll in this tick. */
  private nextPayer(poll: Poll, seen: Set<LiveWatcher>): LiveWatcher | undefined {
    for (let step = 0; step < poll.watchers.length; step += 1) {
      const index = (poll.turn + step) % poll.watchers.length;
      const watcher = poll.watchers[index]!;
      if (seen.has(watcher)) continue;
      poll.turn = (index + 1) % poll.watchers.length;
      return watcher;
    }
    return undefined;
  }

  private tell(moved: Poll[]): void {
    const byWatcher = new Map<LiveWatcher, LiveKey[]>();
    for (const poll of moved)
      for (const watcher of poll.watchers) byWatcher.set(watcher, [...(byWatcher.get(watcher) ?? []), poll.live]);
    for (const [watcher, keys] of byWatcher) watcher.changed(keys);
  }
}
