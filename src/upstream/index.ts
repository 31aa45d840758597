import type { Logger } from 'pino';
import type { UpstreamSettings } from './settings.js';
import { ActionClient, type ActionEnvelope, type CallOptions, type CallOutcome, type ResponseFacts } from './client.js';
import { ActionError } from '../kernel/errors.js';
import { Breakers, verdictFor, type BreakerCall, type BreakerSnapshot, type Verdict } from './resilience/breaker.js';
import { ConcurrencyLimiter } from './resilience/concurrency.js';
import { OverloadState, type OverloadStatus } from './resilience/overload.js';
import { callDeadline, cancelledError, sleep, timeLeft } from './resilience/deadline.js';
import { RateLimitGates, type RateLimitStatus } from './resilience/rate-limit-gate.js';
import { RetryBudget, retryDelay } from './resilience/retry.js';

/** What operators (the /healthz output, a metrics module) can see of the way upstream. */
export interface UpstreamStatus {
  /** The gateway's own upstream budget (ACTION_TOKEN), and how many request tokens are held. */
  rateLimit: RateLimitStatus & { requestTokensHolding: number };
  /** Per action seen so far: closed (calling), open (failing fast), half-open (one probe allowed). */
  breakers: Record<string, BreakerSnapshot>;
  inFlight: number;
  queued: number;
  /** Clients holding upstream calls now, and each one's share. */
  clients: number;
  maxPerClient: number;
  maxInFlightPerClient: number;
  maxInFlightPerAction: number;
  maxInFlight: number;
  maxQueued: number;
  /** The longest a lookup waits for a slot (QUEUE_TIMEOUT_MS), within its operation's time. */
  queueTimeoutMs: number;
  /** Whether lookups are being shed for load (with hysteresis, see OverloadState). */
  overload: OverloadStatus;
  /** Calls and retries in the retry budget's sliding window. */
  retries: { windowMs: number; calls: number; retries: number };
}

/** Sends one action to the upstream (or the layers in front of it) and returns its envelope. */
export type CallAction = (
  action: string,
  body: Record<string, unknown>,
  options?: CallOptions,
) => Promise<ActionEnvelope>;

/** Where calls go and the bearer token they carry when a request brings none of its own. */
export interface UpstreamTarget {
  baseUrl: URL;
  token: string;
}

export interface Upstream {
  /** The way to the upstream: every layer (resilience, then the HTTP client) composed. */
  callAction: CallAction;
  /** The upstream's budget, breakers and load, as this gateway sees them now. */
  status(): UpstreamStatus;
  close(): Promise<void>;
}

/** The input of a call as the breakers remember it: its body (built in one fixed order by each loader). */
function inputKey(body: Record<string, unknown>): string {
  return JSON.stringify(body);
}

/** A retry, or a call waiting for a slot, is only worth starting with at least this much of the deadline left. */
const MIN_ATTEMPT_MS = 50;

/**
 * Builds the path from the loaders to the upstream, outermost first:
 * deadline (min of UPSTREAM_TIMEOUT_MS and the operation's time left) → retries (safe cases only,
 * within the deadline and the retry budget) → per attempt: rate-limit gate → the action's circuit
 * breaker → concurrency bound and queue (a slot by min(QUEUE_TIMEOUT_MS from now, the deadline less
 * MIN_ATTEMPT_MS), else shed: OVERLOADED or RATE_LIMITED, neutral for the breakers, never retried) →
 * ActionClient (undici) → the rate-limit headers back to the gate.
 */
export function createUpstream(
  config: UpstreamSettings,
  target: UpstreamTarget,
  logger: Logger,
  onCallDone?: (call: CallOutcome) => void,
): Upstream {
  const client = new ActionClient({
    ...config.upstream,
    ...target,
    onCallDone: (call) => {
      // A client that went away is no failure of the upstream's.
      if (call.outcome === 'OK' || call.outcome === 'CLIENT_CLOSED')
        logger.debug({ upstreamCall: call }, 'upstream call');
      else logger.warn({ upstreamCall: call }, 'upstream call failed');
      onCallDone?.(call);
    },
  });
  const settings = config.resilience;
  const gates = new RateLimitGates({ log: logger, maxHoldMs: settings.retryAfterMaxSeconds * 1000 });
  const breakers = new Breakers({
    failureThreshold: settings.breakerFailures,
    cooldownMs: settings.breakerCooldownMs,
    failedInputTtlMs: settings.failedInputTtlMs,
  });
  const limiter = new ConcurrencyLimiter(settings.maxInFlight, settings.maxQueued, {
    maxPerClient: settings.maxPerClient,
    maxInFlightPerClient: settings.maxInFlightPerClient,
    maxPerAction: settings.maxInFlightPerAction,
  });
  const overload = new OverloadState((ended) => {
    const facts = {
      inFlight: limiter.inFlight,
      queued: limiter.queued,
      maxInFlight: limiter.maxInFlight,
      queueTimeoutMs: settings.queueTimeoutMs,
    };
    if (!ended)
      logger.warn(
        { upstreamLoad: facts },
        'overloaded: shedding lookups that cannot start in time (OVERLOADED, with retryAfter)',
      );
    else logger.info({ upstreamLoad: { ...facts, ...ended } }, 'no longer overloaded');
  });
  const budget = new RetryBudget({
    ratio: settings.retryBudgetPercent / 100,
    windowMs: settings.retryBudgetWindowMs,
    minPerWindow: settings.retryBudgetMin,
  });

  /** One attempt: refused at once by the gate or an open breaker, else queued, then sent (`sent` says whether it was). */
  const attempt = async (
    action: string,
    body: Record<string, unknown>,
    options: CallOptions,
    deadline: NonNullable<CallOptions['deadline']>,
    seen: { facts?: ResponseFacts; sent?: boolean },
  ): Promise<ActionEnvelope> => {
    seen.facts = undefined;
    seen.sent = false;
    const gate = gates.forToken(options.token);
    const input = inputKey(body);
    gate.check(action, input);
    const call: BreakerCall = { action, input, client: options.client ?? '', clientToken: options.token !== undefined };
    const ticket = breakers.acquire(call);
    let release: (() => void) | undefined;
    let probe = false;
    const queuedAt = Date.now();
    let startedAt = queuedAt;
    try {
      const startBy = Math.min(Date.now() + settings.queueTimeoutMs, deadline.at - MIN_ATTEMPT_MS);
      release = await limiter.acquire(action, startBy, options.signal, options.client);
      // The wait may have outlasted the budget: a 429 or remaining 0 seen meanwhile holds this call too.
      probe = gate.admit(action, input);
      startedAt = Date.now();
    } catch (error) {
      release?.();
      // Shed or cancelled before it was sent: nothing about the upstream's health.
      breakers.record(call, ticket, 'neutral');
      if (error instanceof ActionError && error.shed) overload.shed(error.shed);
      throw error;
    }
    try {
      const envelope = await client.call(action, body, {
        signal: options.signal,
        token: options.token,
        attempts: options.attempts,
        deadline,
        queuedMs: startedAt - queuedAt,
        onSent: () => {
          seen.sent = true;
          options.onSent?.();
        },
        onResponse: (facts) => {
          seen.facts = facts;
          gate.observe(facts, input);
        },
      });
      breakers.record(call, ticket, 'success');
      return envelope;
    } catch (error) {
      breakers.record(call, ticket, verdictOf(error, deadline.at - startedAt, options.signal?.aborted ?? false), error);
      throw capRetryAfter(error);
    } finally {
      gate.settle(probe);
      release();
    }
  };

  /**
   * What a failed attempt says about the upstream's health: a timeout counts only when the call had
   * UPSTREAM_TIMEOUT_MS once it had its slot (less MIN_ATTEMPT_MS); time that went queueing for a
   * slot, or to the operation's own deadline, is the gateway's and says nothing about the upstream.
   */
  const verdictOf = (error: unknown, upstreamHadMs: number, cancelled: boolean): Verdict => {
    if (
      error instanceof ActionError &&
      error.code === 'UPSTREAM_TIMEOUT' &&
      upstreamHadMs < config.upstream.timeoutMs - MIN_ATTEMPT_MS
    )
      return 'neutral';
    return verdictFor(error, cancelled);
  };

  /** A 429's own retry-after is told as the gateway will hold: at most RETRY_AFTER_MAX_SECONDS. */
  const capRetryAfter = (error: unknown): unknown =>
    error instanceof ActionError && error.retryAfter !== undefined && error.retryAfter > settings.retryAfterMaxSeconds
      ? error.with({ retryAfter: settings.retryAfterMaxSeconds })
      : error;

  const callAction: CallAction = async (action, body, options = {}) => {
    const deadline = callDeadline(config.upstream.timeoutMs, options.operationDeadline);
    if (deadline.ms <= 0) {
      throw new ActionError('UPSTREAM_TIMEOUT', 'The operation ran out of time before this lookup could start', {
        action,
      });
    }
    budget.recordCall();
    const seen: { facts?: ResponseFacts; sent?: boolean } = {};
    // The last attempt that reached the upstream: what the lookup ends with when a retry is refused before it is sent.
    let lastSent: unknown;
    for (let retry = 1; ; retry += 1) {
      try {
        return await attempt(action, body, options, deadline, seen);
      } catch (error) {
        if (seen.sent) lastSent = error;
        else if (lastSent !== undefined) throw lastSent;
        const delay = retryDelay(error, seen.facts, retry, {
          maxRetries: settings.maxRetries,
          baseDelayMs: settings.retryBackoffMs,
        });
        if (delay === null || retry > settings.maxRetries || options.signal?.aborted) throw error;
        if (timeLeft(deadline) - delay < MIN_ATTEMPT_MS) throw error;
        if (!budget.tryRetry()) {
          logger.info(
            { upstreamRetry: { action, retry, code: (error as ActionError).code } },
            'upstream retry skipped: retry budget spent',
          );
          throw error;
        }
        logger.info(
          { upstreamRetry: { action, retry, delayMs: delay, code: (error as ActionError).code } },
          'retrying upstream call',
        );
        await sleep(delay, options.signal, () => cancelledError(action));
      }
    }
  };

  return {
    callAction,
    status: () => ({
      rateLimit: gates.status(),
      breakers: breakers.snapshot(),
      inFlight: limiter.inFlight,
      queued: limiter.queued,
      clients: limiter.clients,
      maxPerClient: settings.maxPerClient,
      maxInFlightPerClient: settings.maxInFlightPerClient,
      maxInFlightPerAction: settings.maxInFlightPerAction,
      maxInFlight: limiter.maxInFlight,
      maxQueued: limiter.maxQueued,
      queueTimeoutMs: settings.queueTimeoutMs,
      overload: overload.status(),
      retries: budget.snapshot(),
    }),
    close: () => {
      overload.close();
      return client.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the upstream pool failed'));
    },
  };
}
