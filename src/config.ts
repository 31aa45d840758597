import { ACTIONS } from './actions/all.js';
import { FINANCIAL_BATCH_SIZE } from './actions/financial-profile/load.js';
import { readCacheSettings, readLiveSettings, type CacheSettings, type LiveSettings } from './cache/settings.js';
import { EnvReader, type Env } from './kernel/env.js';
import { readHttpServerSettings, type HttpServerSettings } from './server/http-server.js';
import { readSecuritySettings, type SecuritySettings } from './security/settings.js';
import { readQuotaSettings, type QuotaSettings } from './quota/settings.js';
import { readSandboxLatency, type SandboxLatency } from './sandbox/latency.js';
import { readTelemetrySettings, type TelemetrySettings } from './telemetry/settings.js';
import { readOpsSettings, type OpsSettings } from './server/ops-settings.js';
import { readFederationSettings, type FederationSettings } from './server/federation-settings.js';
import { readMcpSettings, type McpSettings } from './mcp/settings.js';
import type { ResilienceConfig, UpstreamConfig } from './upstream/settings.js';
import {
  BREAKER_COOLDOWN_MS,
  inFlightPerAction,
  inFlightPerClient,
  MAX_PER_CLIENT,
  MAX_QUEUED,
  MAX_RESPONSE_BYTES,
  MAX_RETRIES,
  QUEUE_TIMEOUT_MS,
  RETRY_AFTER_MAX_SECONDS,
  RETRY_BACKOFF_MS,
  RETRY_BUDGET_MIN,
  RETRY_BUDGET_PERCENT,
} from './upstream/resilience/constants.js';

/**
 * Every setting of the gateway, read from the environment once and validated together, so a
 * misconfigured process stops at start-up with one message naming every bad setting.
 */

export interface Config {
  production: boolean;
  host: string;
  port: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  upstream: UpstreamConfig;
  resilience: ResilienceConfig;
  /** Symbols per financial-profile call (FINANCIAL_BATCH_SIZE, 50); larger sets are split into several calls. */
  financialBatchSize: number;
  /** COST_BUDGET: the most upstream calls one operation may make (estimated before it runs, counted while it runs). */
  costBudget: number;
  /** Artificial per-action latency of the built-in sandbox, for demos and benchmarks (SANDBOX_LATENCY). */
  sandboxLatency: SandboxLatency;
  /** SANDBOX_MARKET: `moving` makes the built-in sandbox's stock prices move from call to call (for live queries); `still` by default. */
  sandboxMarket: 'still' | 'moving';
  /** How long SIGTERM waits for in-flight requests before closing them. */
  shutdownGraceMs: number;
  /** The cross-request action cache. */
  cache: CacheSettings;
  /** The HTTP server's slow-client timeouts and per-address connection cap (src/server/http-server.ts). */
  http: HttpServerSettings;
  /** Client-facing protections: operation limits, auth, rate limit, CORS, trusted documents (src/security/). */
  security: SecuritySettings;
  /** LIVE_REFRESH_SECONDS and the bounds on `@live` queries (src/cache/live-polls.ts). */
  live: LiveSettings;
  /** CLIENT_QUOTA and the rest: each client's quota of paid upstream calls (src/quota/). */
  quota: QuotaSettings;
  /** Tracing (OTEL_*), the per-request log line and the metrics' operation labels (src/telemetry/). */
  telemetry: TelemetrySettings;
  /** METRICS_PORT and the drain delay (src/server/ops-settings.ts). */
  ops: OpsSettings;
  /** FEDERATION and FEDERATION_NODE_FIELDS: serving a Federation v2 subgraph (src/server/federation-settings.ts). */
  federation: FederationSettings;
  /** MCP_*: the Model Context Protocol server at /mcp and over stdio (src/mcp/settings.ts). */
  mcp: McpSettings;
  /** Former settings, now constants or merged into others, that the environment still sets: start-up warns about them. */
  retired: string[];
}

/** Settings that became constants or were merged into others: set, they change nothing, and start-up says so. */
const RETIRED =
  `UPSTREAM_MAX_RESPONSE_BYTES UPSTREAM_MAX_RETRIES UPSTREAM_RETRY_BACKOFF_MS UPSTREAM_RETRY_BUDGET_PERCENT
  UPSTREAM_RETRY_BUDGET_MIN UPSTREAM_MAX_QUEUED UPSTREAM_QUEUE_TIMEOUT_MS UPSTREAM_MAX_IN_FLIGHT_PER_CLIENT UPSTREAM_MAX_PER_CLIENT
  UPSTREAM_BREAKER_COOLDOWN_MS UPSTREAM_RETRY_AFTER_MAX_SECONDS FINANCIAL_BATCH_SIZE CACHE_LOCAL_TTL_MS REDIS_PROBE_INTERVAL_MS
  CACHE_NOT_FOUND_TTL_SECONDS QUOTA_REDIS_PREFIX RATE_LIMIT_REDIS_PREFIX APQ_REDIS_PREFIX APQ_MAX_MB ENABLE_GRAPHIQL MAX_TOKENS
  HTTP_HEADERS_TIMEOUT_MS HTTP_REQUEST_TIMEOUT_MS HTTP_MAX_HEADER_BYTES METRICS_HOST SANDBOX_LATENCY_MS HEALTHCHECK_HOST SANDBOX_PORT
  COMPRESS_MIN_BYTES MAX_ALIASES MAX_DIRECTIVES MAX_INPUT_DEPTH HIDE_FIELD_SUGGESTIONS APQ_TTL_SECONDS CACHE_WRITE_BEHIND_MAX
  REDIS_UNHEALTHY_AFTER UPSTREAM_CONNECT_TIMEOUT_MS UPSTREAM_CONNECTIONS UPSTREAM_RETRY_BUDGET_WINDOW_MS
  UPSTREAM_FAILED_INPUT_TTL_MS UPSTREAM_MAX_IN_FLIGHT_PER_ACTION`.split(/\s+/);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The configuration, or the process ends with 78 (EX_CONFIG) after printing every bad setting: for the entry points. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const { problems, int } = read;
  const production = env.NODE_ENV === 'production';

  const baseUrl = parseBaseUrl(read.string('ACTION_BASE_URL'), problems);
  const token = read.string('ACTION_TOKEN') ?? null;
  if (baseUrl && !token) {
    problems.push('ACTION_TOKEN is required when ACTION_BASE_URL is set (the upstream bearer token)');
  }
  if (production && !read.string('ACTION_BASE_URL')) {
    problems.push(
      'ACTION_BASE_URL is required when NODE_ENV=production (the built-in sandbox is for development only)',
    );
  }
  if (production && !token) {
    problems.push('ACTION_TOKEN is required when NODE_ENV=production');
  }

  const logLevel = read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info');
  const host = read.string('HOST') ?? '127.0.0.1';
  const security = readSecuritySettings(read, production);
  const maxInFlight = int('UPSTREAM_MAX_IN_FLIGHT', 16, 1, 10_000);
  const config: Config = {
    production,
    host,
    port: int('PORT', 4000, 0, 65535),
    logLevel,
    upstream: {
      baseUrl,
      token,
      timeoutMs: int('UPSTREAM_TIMEOUT_MS', 10_000, 50, 120_000),
      connectTimeoutMs: 3_000,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      connections: 16,
    },
    resilience: {
      operationTimeoutMs: int('OPERATION_TIMEOUT_MS', 15_000, 50, 300_000),
      maxRetries: MAX_RETRIES,
      retryBackoffMs: RETRY_BACKOFF_MS,
      retryBudgetPercent: RETRY_BUDGET_PERCENT,
      retryBudgetWindowMs: 60_000,
      retryBudgetMin: RETRY_BUDGET_MIN,
      maxInFlight,
      maxQueued: MAX_QUEUED,
      queueTimeoutMs: QUEUE_TIMEOUT_MS,
      maxPerClient: MAX_PER_CLIENT,
      maxInFlightPerClient: inFlightPerClient(maxInFlight),
      maxInFlightPerAction: inFlightPerAction(maxInFlight),
      failedInputTtlMs: 10_000,
      breakerFailures: int('UPSTREAM_BREAKER_FAILURES', 5, 1, 1_000),
      breakerCooldownMs: BREAKER_COOLDOWN_MS,
      retryAfterMaxSeconds: RETRY_AFTER_MAX_SECONDS,
    },
    financialBatchSize: FINANCIAL_BATCH_SIZE,
    costBudget: int('COST_BUDGET', 50, 1, 10_000),
    sandboxLatency: readSandboxLatency(read.string('SANDBOX_LATENCY'), problems),
    sandboxMarket: read.oneOf('SANDBOX_MARKET', ['still', 'moving'] as const, 'still'),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 300_000),
    cache: readCacheSettings(read, Object.fromEntries(ACTIONS.map((action) => [action.action, action.ttlSeconds]))),
    security,
    live: readLiveSettings(read, Object.fromEntries(ACTIONS.map((action) => [action.action, action.liveSeconds]))),
    quota: readQuotaSettings(read),
    http: readHttpServerSettings(int),
    telemetry: readTelemetrySettings(env, problems),
    ops: readOpsSettings(read, host, production),
    federation: readFederationSettings(read),
    mcp: readMcpSettings(read, baseUrl === null, security.trustedDocuments !== null),
    retired: RETIRED.filter((name) => read.string(name) !== undefined),
  };

  if (config.quota.defaultQuota && config.security.auth.mode === 'none') {
    problems.push(
      'CLIENT_QUOTA needs clients to tell apart: set GATEWAY_AUTH=api-key (with keys) or GATEWAY_AUTH=forward',
    );
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function parseBaseUrl(value: string | undefined, problems: string[]): URL | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`ACTION_BASE_URL must be an absolute http(s) URL, got "${value}"`);
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`ACTION_BASE_URL must use http or https, got "${url.protocol}"`);
    return null;
  }
  if (url.username || url.password) {
    // Credentials in the URL would travel into logs and error messages; the token has its own setting.
    problems.push('ACTION_BASE_URL must not contain credentials; put the token in ACTION_TOKEN');
    return null;
  }
  if (url.search || url.hash) {
    problems.push('ACTION_BASE_URL must not contain a query string or fragment');
    return null;
  }
  return url;
}
