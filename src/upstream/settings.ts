/** The upstream's settings, read by src/config.ts with every other setting and handed to createUpstream. */
export interface UpstreamConfig {
  /** `{base}/v1/action/<name>`; null means "start the built-in sandbox". */
  baseUrl: URL | null;
  token: string | null;
  /** Deadline for one upstream call, connect to last body byte. */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Responses larger than this are refused (UPSTREAM_BAD_RESPONSE) instead of buffered. */
  maxResponseBytes: number;
  /** Keep-alive connections the pool may open to the upstream. */
  connections: number;
}

/** Deadlines, retries, concurrency and circuit breaking on the way upstream (src/upstream/resilience). */
export interface ResilienceConfig {
  /** Deadline of a whole GraphQL operation; each upstream call gets min(UPSTREAM_TIMEOUT_MS, time left). */
  operationTimeoutMs: number;
  /** Retries of one call at most (only never-sent requests, and a 503 or 429 whose retry-after fits). */
  maxRetries: number;
  /** Base of the jittered exponential back-off between retries. */
  retryBackoffMs: number;
  /** Retries allowed as a percentage of calls over the budget window... */
  retryBudgetPercent: number;
  retryBudgetWindowMs: number;
  /** ...and retries always allowed per window, so that a quiet gateway can still retry. */
  retryBudgetMin: number;
  /** Upstream calls in flight at once; more wait in a queue of `maxQueued`, beyond it they fail fast. */
  maxInFlight: number;
  maxQueued: number;
  /** The longest a lookup waits for a slot (within its operation's time); one that cannot start by then is shed with OVERLOADED. */
  queueTimeoutMs: number;
  /** Fair shares: in-flight+queued and in-flight calls per client, in-flight calls per action (bulkhead). */
  maxPerClient: number;
  maxInFlightPerClient: number;
  maxInFlightPerAction: number;
  /** How long an input that failed twice in a row fails fast instead of being called again. */
  failedInputTtlMs: number;
  /** Consecutive failures (timeouts, 5xx, unreachable) of one action that open its breaker. */
  breakerFailures: number;
  /** How long an open breaker refuses calls before it lets one probe through. */
  breakerCooldownMs: number;
  /** The longest the gateway holds calls on the upstream's word (a 429's retry-after, a reset); then one probe decides. */
  retryAfterMaxSeconds: number;
}

/** What createUpstream reads of the configuration. */
export interface UpstreamSettings {
  upstream: UpstreamConfig;
  resilience: ResilienceConfig;
}
