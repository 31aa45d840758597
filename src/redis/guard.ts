import type { EventEmitter } from 'node:events';
import type { Logger } from 'pino';

/** How long the request path waits for Redis, and when it stops asking (REDIS_* settings). */
export interface RedisGuardSettings {
  /** Deadline of one Redis command on the request path (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** Consecutive misses (timeouts, errors) that mark Redis unhealthy. */
  unhealthyAfter: number;
  /**
   * While unhealthy, how often one PING checks whether it is back; while healthy, how long without a
   * command before one PING checks that it still answers (REDIS_PROBE_INTERVAL_MS).
   */
  probeIntervalMs: number;
}

export const DEFAULT_REDIS_GUARD: RedisGuardSettings = {
  commandTimeoutMs: 50,
  unhealthyAfter: 3,
  probeIntervalMs: 1000,
};

/** What /healthz (and a readiness check) read about a Redis dependency. */
export interface RedisHealth {
  healthy: boolean;
  /** The last miss, as a short code/message (never a stack), or null. */
  lastError: string | null;
  /** When the current state began (ISO 8601). */
  since: string;
}

/** The one shard of a single Redis or a Sentinel set: all keys live on one master. */
export const WHOLE = '';

/**
 * Checks a skipped shard: true when it answers again, 'gone' when no key maps to it any more (a
 * cluster moved its slots to another master), false when it still does not answer.
 */
export type ShardProbe = (shard: string) => Promise<boolean | 'gone'>;

/** The client events the guard follows: ioredis's Redis and Cluster both emit them. */
type RedisEvents = Pick<EventEmitter, 'on'> & { status: string };

/**
 * Wraps every Redis command of the request path in a bounded wait. A command that does not answer
 * within `commandTimeoutMs` (a frozen primary, a network black hole) or fails counts as a miss; after
 * `unhealthyAfter` misses in a row its shard is marked unhealthy, logged once, and skipped entirely
 * (callers get their fallback at once) while a probe every `probeIntervalMs` looks for it to come back.
 * A shard is where a command's keys live: the one master of a single Redis or a Sentinel set, or a
 * cluster master (and separately its reads, which a replica can serve while it fails over). A dead
 * connection (ioredis 'close') makes every shard unhealthy at once. When no command has run for
 * `probeIntervalMs` (every read answered from memory), a PING within the same deadline checks each
 * shard, and again at once after a miss, so /healthz learns of a frozen Redis without waiting for traffic.
 */
export class RedisGuard {
  private connected = false;
  private readonly misses = new Map<string, number>();
  /** Shards skipped now, and since when. */
  private readonly down = new Map<string, number>();
  private lastError: string | null = null;
  private since = Date.now();
  private probe: NodeJS.Timeout | null = null;
  private probing = false;
  private closed = false;
  private readonly backListeners: Array<() => void> = [];
  private readonly skipListeners: Array<(shard: string) => void> = [];
  /** When a command last had its answer. */
  private lastAnswer = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: RedisEvents,
    private readonly settings: RedisGuardSettings,
    private readonly logger: Logger,
    /** Names the dependency in logs: `cache` or `rateLimit`. */
    private readonly role: string,
    private readonly messages: { down: string; back: string },
    private readonly probeShard: ShardProbe,
    /** The shards a quiet connection checks: the one master, or each cluster master's writes. */
    private readonly shardsToCheck: () => string[] = () => [WHOLE],
  ) {
    this.scheduleIdleCheck(settings.probeIntervalMs);
    redis.on('error', (error: Error) => {
      this.lastError = shortError(error);
    });
    redis.on('ready', () => {
      const wasHealthy = this.healthy();
      this.connected = true;
      this.lastAnswer = Date.now();
      this.down.delete(WHOLE);
      this.misses.clear();
      if (!wasHealthy) this.changed();
    });
    redis.on('close', () => {
      if (this.closed) return;
      this.lastError ??= 'connection closed';
      const wasHealthy = this.healthy();
      this.connected = false;
      if (wasHealthy) this.changed(this.lastError);
    });
  }

  /** Every shard answers. */
  healthy(): boolean {
    return this.connected && this.down.size === 0;
  }

  /** Whether commands for `shard` are sent (false while it or the connection is out). */
  answers(shard: string): boolean {
    return this.connected && !this.down.has(shard);
  }

  health(): RedisHealth {
    return { healthy: this.healthy(), lastError: this.lastError, since: new Date(this.since).toISOString() };
  }

  /** Shards skipped now (cluster shards only: a single Redis is simply unhealthy). */
  skipped(): string[] {
    return [...this.down.keys()].filter((shard) => shard !== WHOLE);
  }

  /** Called whenever a shard or the connection comes back (to write what was kept while it was out). */
  onBack(listener: () => void): void {
    this.backListeners.push(listener);
  }

  /** Called whenever a shard starts being skipped. */
  onSkip(listener: (shard: string) => void): void {
    this.skipListeners.push(listener);
  }

  /** Runs `command` for keys of `shard` within the deadline; `fallback` when it is skipped, late or failing. */
  async run<T>(shard: string, command: () => Promise<T>, fallback: T): Promise<T> {
    if (!this.answers(shard)) return fallback;
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        command(),
        new Promise<never>((_, reject) => {
          // The deadline is Redis's: when this process's own event loop ran late, a reply that has arrived
          // is read (I/O comes before setImmediate in a loop turn) before the command counts as unanswered.
          timer = setTimeout(
            () => setImmediate(() => reject(new Error(`no answer within ${this.settings.commandTimeoutMs} ms`))),
            this.settings.commandTimeoutMs,
          );
        }),
      ]);
      this.misses.delete(shard);
      this.lastAnswer = Date.now();
      return result;
    } catch (error) {
      this.miss(shard, error);
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private scheduleIdleCheck(delayMs: number): void {
    if (this.closed) return;
    this.idleTimer = setTimeout(() => void this.idleCheck(), delayMs);
    this.idleTimer.unref();
  }

  /** After `probeIntervalMs` without an answered command, one bounded PING per answering shard; a miss counts as any other. */
  private async idleCheck(): Promise<void> {
    const interval = this.settings.probeIntervalMs;
    const quiet = Date.now() - this.lastAnswer;
    if (quiet < interval) return this.scheduleIdleCheck(interval - quiet);
    let missed = false;
    if (this.connected && this.redis.status === 'ready') {
      for (const shard of this.shardsToCheck()) {
        if (!this.answers(shard)) continue; // skipped: its own probe looks for it
        const answered = await this.run(
          shard,
          async () => {
            if ((await this.probeShard(shard)) === false) throw new Error('PING: no answer');
            return true;
          },
          false,
        );
        // Missed but not yet skipped: ask again at once rather than after another quiet interval.
        if (!answered && this.answers(shard)) missed = true;
      }
    }
    this.scheduleIdleCheck(missed ? this.settings.commandTimeoutMs : interval);
  }

  private miss(shard: string, error: unknown): void {
    this.lastError = shortError(error);
    const misses = (this.misses.get(shard) ?? 0) + 1;
    this.misses.set(shard, misses);
    if (misses >= this.settings.unhealthyAfter) this.skip(shard, this.lastError);
  }

  /** Skips `shard` at once (its connection is gone: no command needs to time out to know), until a probe finds it back. */
  skip(shard: string, reason: string): void {
    if (this.down.has(shard) || this.closed) return;
    this.lastError = reason;
    const wasHealthy = this.healthy();
    this.down.set(shard, Date.now());
    for (const listener of this.skipListeners) listener(shard);
    if (wasHealthy) this.changed(this.lastError, shard);
    else if (shard !== WHOLE)
      this.logger.warn(
        { [this.role]: 'redis', redisShard: shard, redisError: this.lastError },
        `${this.role}: Redis shard not answering`,
      );
    this.startProbing();
  }

  /** Logs a change between healthy and unhealthy; `reason` when it became unhealthy. */
  private changed(reason?: string, shard?: string): void {
    if (this.closed) return;
    this.since = Date.now();
    if (reason !== undefined) {
      this.logger.warn(
        { [this.role]: 'redis', redisError: reason, ...(shard ? { redisShard: shard } : {}) },
        this.messages.down,
      );
      this.startProbing();
      return;
    }
    if (this.healthy()) {
      if (this.probe) clearInterval(this.probe);
      this.probe = null;
      this.logger.info({ [this.role]: 'redis' }, this.messages.back);
    }
    for (const listener of this.backListeners) listener();
  }

  /** Probes the skipped shards now (a cluster's slot map changed: one may have moved away). */
  probeNow(): void {
    if (this.down.size > 0) void this.tryProbe();
  }

  /** A closed connection comes back through ioredis's own reconnect ('ready'); a live but silent shard only through a probe. */
  private startProbing(): void {
    if (this.probe || this.closed) return;
    this.probe = setInterval(() => void this.tryProbe(), this.settings.probeIntervalMs);
    this.probe.unref();
  }

  private async tryProbe(): Promise<void> {
    if (this.probing || !this.connected || this.redis.status !== 'ready') return;
    this.probing = true;
    try {
      for (const shard of [...this.down.keys()]) {
        let timer: NodeJS.Timeout | undefined;
        try {
          const answer = await Promise.race([
            this.probeShard(shard),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new Error('probe: no answer')),
                Math.max(this.settings.commandTimeoutMs, 200),
              );
            }),
          ]);
          if (answer === false) continue;
          this.down.delete(shard);
          this.misses.delete(shard);
          this.changed();
        } catch (error) {
          this.lastError = shortError(error);
        } finally {
          clearTimeout(timer);
        }
      }
    } finally {
      this.probing = false;
    }
  }
}

function shortError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 200);
}
