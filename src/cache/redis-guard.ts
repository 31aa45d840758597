import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** How long the request path waits for Redis, and when it stops asking (REDIS_* settings). */
export interface RedisGuardSettings {
  /** Deadline of one Redis command on the request path (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  /** Consecutive misses (timeouts, errors) that mark Redis unhealthy (REDIS_UNHEALTHY_AFTER). */
  unhealthyAfter: number;
  /** While unhealthy, how often one PING checks whether it is back (REDIS_PROBE_INTERVAL_MS). */
  probeIntervalMs: number;
}

export const DEFAULT_REDIS_GUARD: RedisGuardSettings = { commandTimeoutMs: 50, unhealthyAfter: 3, probeIntervalMs: 1000 };

/** What /healthz (and a readiness check) read about a Redis dependency. */
export interface RedisHealth {
  healthy: boolean;
  /** The last miss, as a short code/message (never a stack), or null. */
  lastError: string | null;
  /** When the current state began (ISO 8601). */
  since: string;
}

/**
 * Wraps every Redis command of the request path in a bounded wait. A command that does not answer
 * within `commandTimeoutMs` (a frozen primary, a network black hole) or fails counts as a miss; after
 * `unhealthyAfter` misses in a row the dependency is marked unhealthy, logged once, and skipped
 * entirely (callers get their fallback at once) while a PING every `probeIntervalMs` looks for it to
 * come back. A dead connection (ioredis 'close') is unhealthy at once.
 */
export class RedisGuard {
  private misses = 0;
  private up = false;
  private lastError: string | null = null;
  private since = Date.now();
  private probe: NodeJS.Timeout | null = null;
  private probing = false;
  private closed = false;

  constructor(
    private readonly redis: Redis,
    private readonly settings: RedisGuardSettings,
    private readonly logger: Logger,
    /** Names the dependency in logs: `cache` or `rateLimit`. */
    private readonly role: string,
    private readonly messages: { down: string; back: string },
  ) {
    redis.on('error', (error: Error) => {
      this.lastError = shortError(error);
    });
    redis.on('ready', () => this.markUp());
    redis.on('close', () => this.markDown('connection closed'));
  }

  healthy(): boolean {
    return this.up;
  }

  health(): RedisHealth {
    return { healthy: this.up, lastError: this.lastError, since: new Date(this.since).toISOString() };
  }

  /** Runs `command` within the deadline; `fallback` when Redis is unhealthy, late or failing. */
  async run<T>(command: () => Promise<T>, fallback: T): Promise<T> {
    if (!this.up) return fallback;
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        command(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.settings.commandTimeoutMs} ms`)), this.settings.commandTimeoutMs);
        }),
      ]);
      this.misses = 0;
      return result;
    } catch (error) {
      this.miss(error);
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }

  private miss(error: unknown): void {
    this.lastError = shortError(error);
    this.misses += 1;
    if (this.misses >= this.settings.unhealthyAfter) this.markDown(this.lastError);
  }

  private markUp(): void {
    if (this.up || this.closed) return;
    this.up = true;
    this.misses = 0;
    this.since = Date.now();
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.logger.info({ [this.role]: 'redis' }, this.messages.back);
  }

  private markDown(reason: string): void {
    if (this.closed) return;
    this.lastError ??= reason;
    if (this.up) {
      this.up = false;
      this.since = Date.now();
      this.logger.warn({ [this.role]: 'redis', redisError: reason }, this.messages.down);
    }
    // A closed connection comes back through ioredis's own reconnect ('ready'); a live but silent
    // one only through a probe.
    if (!this.probe) {
      this.probe = setInterval(() => void this.tryProbe(), this.settings.probeIntervalMs);
      this.probe.unref();
    }
  }

  private async tryProbe(): Promise<void> {
    if (this.probing || this.redis.status !== 'ready') return;
    this.probing = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('probe: no answer')), Math.max(this.settings.commandTimeoutMs, 200));
        }),
      ]);
      this.markUp();
    } catch (error) {
      this.lastError = shortError(error);
    } finally {
      clearTimeout(timer);
      this.probing = false;
    }
  }
}

function shortError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 200);
}
