import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { CacheStore } from './store.js';

/**
 * The shared cache: several gateway processes read and write one Redis. Redis trouble never fails a
 * lookup: a command that cannot run reads as a miss (the gateway calls the upstream instead) and
 * the store reconnects on its own.
 */
export class RedisStore implements CacheStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private connected = false;
  private readonly leaseOwner = `${process.pid}-${Math.random().toString(36).slice(2)}`;

  constructor(url: string, private readonly logger: Logger) {
    this.redis = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 500,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('ready', () => {
      if (!this.connected) this.logger.info({ cache: 'redis' }, 'cache: Redis connected');
      this.connected = true;
    });
    this.redis.on('error', () => undefined);
    this.redis.on('close', () => {
      if (this.connected) this.logger.warn({ cache: 'redis' }, 'cache: Redis unreachable; serving from the upstream until it returns');
      this.connected = false;
    });
  }

  /** Resolves once connected, or after `timeoutMs` (the store works either way). */
  async ready(timeoutMs = 1000): Promise<void> {
    if (this.connected) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async get(key: string): Promise<unknown> {
    if (!this.connected) return undefined;
    try {
      const text = await this.redis.get(key);
      return text === null ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (!this.connected || ttlMs <= 0) return;
    try {
      await this.redis.set(key, JSON.stringify(value), 'PX', ttlMs);
    } catch {
      // A lost write only costs a later upstream call.
    }
  }

  async acquireLease(key: string, ttlMs: number): Promise<boolean> {
    if (!this.connected) return true;
    try {
      return (await this.redis.set(`${key}:lease`, this.leaseOwner, 'PX', ttlMs, 'NX')) === 'OK';
    } catch {
      return true;
    }
  }

  async releaseLease(key: string): Promise<void> {
    if (!this.connected) return;
    try {
      // Only the holder releases, so an expired lease taken over by another process stays theirs.
      await this.redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, `${key}:lease`, this.leaseOwner);
    } catch {
      // The lease expires by itself.
    }
  }

  async leaseHeld(key: string): Promise<boolean> {
    if (!this.connected) return false;
    try {
      return (await this.redis.exists(`${key}:lease`)) === 1;
    } catch {
      return false;
    }
  }

  healthy(): boolean {
    return this.connected;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
