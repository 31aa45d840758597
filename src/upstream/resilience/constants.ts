/**
 * Fixed tuning of the way upstream: internals no operator needs to change, kept as named constants
 * next to the layers that use them. The settings an operator does tune (UPSTREAM_TIMEOUT_MS,
 * UPSTREAM_MAX_IN_FLIGHT, UPSTREAM_BREAKER_FAILURES, OPERATION_TIMEOUT_MS) are read in src/config.ts;
 * tests that need other values pass them in the configuration they build.
 */

/** Upstream answers larger than this are refused (UPSTREAM_BAD_RESPONSE) instead of buffered: 5 MiB. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Retries of one call at most (only never-sent requests, and a 503 or 429 whose retry-after fits). */
export const MAX_RETRIES = 2;
/** The base of the jittered exponential back-off between retries. */
export const RETRY_BACKOFF_MS = 100;
/** Retries may be at most this percentage of the calls in the window... */
export const RETRY_BUDGET_PERCENT = 10;
/** ...and this many are always allowed per window, so that a quiet gateway can still retry. */
export const RETRY_BUDGET_MIN = 2;
/** Calls that may wait for a slot beyond those in flight; more are shed at once with OVERLOADED. */
export const MAX_QUEUED = 100;
/** The longest a lookup waits for a slot (within its operation's time) before it is shed with OVERLOADED. */
export const QUEUE_TIMEOUT_MS = 1_000;
/** Calls one client may have in flight and queued together; more fail at once with RATE_LIMITED. */
export const MAX_PER_CLIENT = 64;
/** How long an open breaker refuses calls before it lets one probe call through. */
export const BREAKER_COOLDOWN_MS = 30_000;
/** The longest the gateway holds calls on the upstream's word (a 429's retry-after, a reset) before one probe decides. */
export const RETRY_AFTER_MAX_SECONDS = 60;

/** Calls one client may have in flight: half of UPSTREAM_MAX_IN_FLIGHT, so no client can take every slot. */
export const inFlightPerClient = (maxInFlight: number): number => Math.max(1, Math.ceil(maxInFlight / 2));
/** Calls one action may have in flight: three quarters of UPSTREAM_MAX_IN_FLIGHT (a bulkhead). */
export const inFlightPerAction = (maxInFlight: number): number => Math.max(1, Math.ceil((maxInFlight * 3) / 4));
