import type { Logger } from 'pino';
import type { RedisGuardSettings } from '../redis/guard.js';
import { MemoryQuotaCounter, type QuotaCounter } from './counter.js';
import { Payer, type QuotaAccount, type QuotaObserver } from './payer.js';
import { PrimaryQuotaCounter } from './primary-counter.js';
import { RedisQuotaCounter } from './redis-counter.js';
import { inWorkerGroup } from '../kernel/cluster-ipc.js';
import type { QuotaSettings } from './settings.js';

export { Payer, type QuotaAccount } from './payer.js';

const PAYER = Symbol('quota payer');
type Paying = Request & { [PAYER]?: Payer | null };

/**
 * Every client's quota of paid upstream calls: who pays for a request, counted where (Redis, or
 * without REDIS_URL this process, or the primary for every worker of WORKERS > 1).
 */
export class Quotas {
  constructor(
    readonly counter: QuotaCounter,
    private readonly settings: QuotaSettings,
    private readonly accountOf: (request: Request) => QuotaAccount | null,
    private readonly observe: QuotaObserver,
  ) {}

  /** The request's payer, made once per request (a batch's operations share it); null without a quota. */
  payerOf(request: Request): Payer | null {
    const paying = request as Paying;
    let payer = paying[PAYER];
    if (payer === undefined) {
      const account = this.accountOf(request);
      const spec = account ? (account.quota === undefined ? this.settings.defaultQuota : account.quota) : null;
      payer = account && spec ? new Payer(account, spec, this.counter, this.observe) : null;
      paying[PAYER] = payer;
    }
    return payer;
  }

  /** Where quotas are counted and whether that answers (for /healthz). */
  status(): { backend: 'memory' | 'workers' | 'redis'; healthy: boolean } {
    return this.counter instanceof RedisQuotaCounter
      ? { backend: 'redis', ...this.counter.health() }
      : { backend: this.counter instanceof PrimaryQuotaCounter ? 'workers' : 'memory', healthy: true };
  }

  close(): Promise<void> {
    return this.counter.close();
  }
}

/**
 * The quotas when any client has one (CLIENT_QUOTA, or a `quota=` in the keys file), else null: a
 * gateway without quotas does no quota work at all.
 */
export async function createQuotas(
  settings: QuotaSettings,
  anyKeyQuota: boolean,
  logger: Logger,
  redisGuard: RedisGuardSettings | undefined,
  accountOf: (request: Request) => QuotaAccount | null,
  observe: QuotaObserver,
): Promise<Quotas | null> {
  if (!settings.defaultQuota && !anyKeyQuota) return null;
  let counter: QuotaCounter;
  if (settings.redisUrl) {
    const redis = new RedisQuotaCounter(settings.redisUrl, settings.redisPrefix, settings.replicas, logger, redisGuard);
    await redis.ready();
    if (!redis.health().healthy)
      logger.warn(
        { quota: 'local' },
        'quota: Redis unreachable; each replica spends at most its local share of a quota until it answers',
      );
    counter = redis;
  } else {
    // WORKERS > 1: one count for the process group, held by the primary.
    counter = inWorkerGroup() ? new PrimaryQuotaCounter() : new MemoryQuotaCounter();
  }
  return new Quotas(counter, settings, accountOf, observe);
}
