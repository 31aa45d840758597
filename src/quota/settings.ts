import type { EnvReader } from '../kernel/env.js';
import { parseQuota, type QuotaSpec } from './window.js';
import { redisKeyPrefix } from '../redis/url.js';

export interface QuotaSettings {
  /** CLIENT_QUOTA: every client's quota unless its line in the API keys file says otherwise; null: none. */
  defaultQuota: QuotaSpec | null;
  /** QUOTA_REPLICAS: the replicas expected to share a quota; sizes each one's local share while Redis is out. */
  replicas: number;
  /** Counters shared in Redis when set (REDIS_URL), else in this process. */
  redisUrl: string | null;
  redisPrefix: string;
}

export function readQuotaSettings(read: EnvReader): QuotaSettings {
  const raw = read.string('CLIENT_QUOTA');
  let defaultQuota: QuotaSpec | null = null;
  if (raw !== undefined) {
    const parsed = parseQuota(raw);
    if (parsed && 'problem' in parsed) read.problem(`CLIENT_QUOTA: ${parsed.problem}`);
    else defaultQuota = parsed;
  }
  return {
    defaultQuota,
    replicas: read.int('QUOTA_REPLICAS', 1, 1, 1_000),
    // REDIS_URL is validated with the cache settings.
    redisUrl: read.string('REDIS_URL') ?? null,
    redisPrefix: redisKeyPrefix(read, 'quota'),
  };
}
