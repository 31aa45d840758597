// Own: one fixed window in memory or Redis that counts in memory when Redis is slow (REDIS_COMMAND_TIMEOUT_MS); no installed library does both.
import { LRUCache } from 'lru-cache';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { RedisConnection, type RedisState } from '../redis/connection.js';
import { DEFAULT_REDIS_GUARD, type RedisGuardSettings } from '../redis/guard.js';
import { rejection } from './errors.js';
import { answer, askPrimary } from '../kernel/cluster-ipc.js';

/** Clients tracked at once; the least recently seen beyond it start a fresh window. */
const MAX_CLIENTS = 100_000;
const WINDOW_MS = 60_000;

export interface RateVerdict {
  allowed: boolean;
  /** Seconds until the client's window ends. */
  retryAfter: number;
}

export interface RateLimiter {
  hit(client: string): Promise<RateVerdict>;
  close(): Promise<void>;
}

/**
 * A fixed one-minute window per client, in this process. Windows live in an LRU bounded by count and
 * expiring with their minute, so many clients cost bounded memory and no sweep.
 */
export class MemoryRateLimiter implements RateLimiter {
  // Bounded by maxSize (one per client), not max: lru-cache preallocates max slots in four tables (~3 MB for 100,000) at start.
  private readonly windows = new LRUCache<string, { endsAt: number; count: number }>({
    maxSize: MAX_CLIENTS,
    sizeCalculation: () => 1,
    ttl: WINDOW_MS,
    ttlAutopurge: false,
  });

  constructor(private readonly perMinute: number) {}

  async hit(client: string): Promise<RateVerdict> {
    return this.hitNow(client, Date.now());
  }

  hitNow(client: string, now: number): RateVerdict {
    let window = this.windows.get(client);
    if (!window || window.endsAt <= now) {
      window = { endsAt: now + WINDOW_MS, count: 0 };
      this.windows.set(client, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= this.perMinute,
      retryAfter: Math.max(1, Math.ceil((window.endsAt - now) / 1000)),
    };
  }

  async close() {}
}

const HIT_TOPIC = 'rate-limit:hit';
/** How long a worker waits for the primary's count before it counts the hit alone. */
const PRIMARY_ANSWER_MS = 500;

/**
 * In a worker of WORKERS > 1 without Redis: the primary counts every worker's hits in one window per client
 * (`countHitsForWorkers`), so the limit holds for the whole process group, not once per worker. Fails open to
 * a count of its own: when the primary does not answer within 500 ms, this worker counts the hit in its own
 * memory, as one process would (never unlimited, never a failed request).
 */
export class PrimaryRateLimiter implements RateLimiter {
  private readonly alone: MemoryRateLimiter;

  constructor(perMinute: number) {
    this.alone = new MemoryRateLimiter(perMinute);
  }

  async hit(client: string): Promise<RateVerdict> {
    return (await askPrimary<RateVerdict>(HIT_TOPIC, client, PRIMARY_ANSWER_MS)) ?? this.alone.hit(client);
  }

  async close() {}
}

/** In the primary of WORKERS > 1 without Redis: holds the client windows every worker's PrimaryRateLimiter counts in. */
export function countHitsForWorkers(perMinute: number): void {
  const limiter = new MemoryRateLimiter(perMinute);
  answer(HIT_TOPIC, (client) => (typeof client === 'string' ? limiter.hitNow(client, Date.now()) : undefined));
}

// INCR and PEXPIRE in one step: the first hit of a window starts its clock.
const HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }`;

/**
 * The same window shared by every gateway process through Redis (any REDIS_URL form: a client's
 * counter is one key, so one cluster slot). When Redis, or the cluster shard holding a client's
 * counter, does not answer within REDIS_COMMAND_TIMEOUT_MS, the limit is counted in memory instead
 * (logged when it starts and when Redis is back, found by a probe): never unlimited, never a failed or
 * stalled request.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly connection: RedisConnection;
  private readonly fallback: MemoryRateLimiter;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly perMinute: number,
    logger: Logger,
    settings: RedisGuardSettings = DEFAULT_REDIS_GUARD,
  ) {
    this.fallback = new MemoryRateLimiter(perMinute);
    this.connection = new RedisConnection(url, settings, logger, 'rateLimit', {
      down: 'rate limit: Redis unreachable or not answering in time; counting in memory (per process) until it answers',
      back: 'rate limit: Redis answers; counting in Redis',
    });
  }

  async hit(client: string): Promise<RateVerdict> {
    const key = `${this.prefix}${client}`;
    const counted = await this.connection.run(
      this.connection.shardOf(key, 'write'),
      async () => (await this.connection.client.eval(HIT, 1, key, WINDOW_MS)) as [number, number],
      null,
    );
    if (!counted) return this.fallback.hit(client);
    const [count, ttl] = counted;
    return { allowed: count <= this.perMinute, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
  }

  health(): RedisState {
    return this.connection.health();
  }

  /** Resolves once connected, or after `timeoutMs` (the limiter works either way). */
  ready(timeoutMs = 1000): Promise<void> {
    return this.connection.ready(timeoutMs);
  }

  async close() {
    this.connection.close();
  }
}

/** The client rate limit: its plugin, and what another endpoint served through the plugins (/mcp) counts with. */
export interface ClientRateLimit {
  plugin: Plugin;
  /** Counts one message of such an endpoint for its client: the RATE_LIMITED refusal when over the limit, else null. */
  hit(request: Request, serverContext: unknown): Promise<GraphQLError | null>;
  /** A request made for a message `hit` counted already (an MCP batch's tool call): the plugin lets it pass uncounted. */
  countedAlready(request: Request): void;
}

/**
 * RATE_LIMITED (HTTP 429, `Retry-After` header and `extensions.retryAfter`) once a client has sent
 * `perMinute` operations in its window. Every request counts once when it arrives, after
 * authentication and before the body is read; each further operation of a batch counts when its
 * parameters are read, and one over the limit is refused on its own (the batch's others still answer).
 * A client is its API key when it has one, else its address. Each MCP message counts the same way
 * (`hit`), once.
 */
export function createRateLimit(
  limiter: RateLimiter,
  perMinute: number,
  clientOf: (request: Request, serverContext: unknown) => string,
): ClientRateLimit {
  // Each request's client, and how many of its operations have been counted.
  const counted = new WeakMap<Request, { client: string; operations: number }>();
  const already = new WeakSet<Request>();
  const refusal = async (client: string) => {
    const verdict = await limiter.hit(client);
    if (verdict.allowed) return null;
    return rejection(
      'RATE_LIMITED',
      `Too many operations: at most ${perMinute} a minute. Retry in ${verdict.retryAfter} s.`,
      429,
      {
        headers: { 'Retry-After': String(verdict.retryAfter) },
        extensions: { retryAfter: verdict.retryAfter },
      },
    );
  };
  const check = async (client: string) => {
    const refused = await refusal(client);
    if (refused) throw refused;
  };
  return {
    plugin: {
      async onRequestParse({ request, serverContext }) {
        if (already.has(request)) return;
        const client = clientOf(request, serverContext);
        counted.set(request, { client, operations: 1 });
        await check(client);
      },
      async onParams({ request }) {
        const seen = counted.get(request);
        if (!seen) return;
        seen.operations += 1;
        // The request's own count stands for its first operation.
        if (seen.operations > 2) await check(seen.client);
      },
    },
    hit: (request, serverContext) => refusal(clientOf(request, serverContext)),
    countedAlready: (request) => {
      already.add(request);
    },
  };
}

/** The client's address as the socket sees it (node:http), for clients without an API key. */
export function clientAddress(serverContext: unknown): string {
  const req = (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req;
  return `addr:${req?.socket?.remoteAddress ?? 'unknown'}`;
}
