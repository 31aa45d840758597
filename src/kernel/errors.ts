/**
 * The coded failures a client can see, and how each upstream outcome maps to one. Nothing here
 * knows GraphQL: the gateway turns an ActionError into a GraphQL error with the same code.
 */

const ERROR_CODES = [
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'RATE_LIMITED',
  'OVERLOADED',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_BAD_RESPONSE',
  'COST_LIMIT_EXCEEDED',
  'CLIENT_CLOSED',
  'QUOTA_EXCEEDED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why the gateway refused a lookup without calling the upstream, to stay responsive under load
 * (OVERLOADED, or RATE_LIMITED for `client-share`): the queue was full, the lookup could not have
 * started before its wait deadline (predicted at once, or seen when the deadline came), or this
 * client's own share of the upstream slots was full; or (QUOTA_EXCEEDED, `quota`) the client's quota
 * of paid calls is spent.
 */
export type ShedReason = 'queue-full' | 'no-slot-in-time' | 'wait-expired' | 'client-share' | 'quota';

/** A refusal that is about the client that asked (its share, its quota), not the lookup: no answer for another client joining the call. */
export function refusedForClient(error: unknown): boolean {
  return error instanceof ActionError && (error.shed === 'client-share' || error.shed === 'quota');
}

export interface ActionErrorDetails {
  /** The upstream action behind the failure, when there is one. */
  action?: string;
  /** Seconds after which a retry may succeed (RATE_LIMITED, OVERLOADED). */
  retryAfter?: number;
  /** Set when the gateway shed the lookup itself (nothing was sent upstream): why. */
  shed?: ShedReason;
  /** HTTP status the upstream answered with, when it answered. */
  upstreamStatus?: number;
  /** Extra machine-readable facts for the client (never secrets). */
  extensions?: Record<string, unknown>;
  /**
   * Set by the HTTP client only when the transport proves the request never reached the upstream
   * (connection refused or reset while connecting, connect timeout, DNS failure, a socket closed
   * before any byte of the request was written). Only such failures are safe to retry blindly.
   */
  neverSent?: boolean;
  /**
   * Nothing was sent upstream for this lookup: the gateway refused it (a rate-limit hold, an open
   * breaker, shed for load, out of budget or time, its client gone). Set where the way upstream ends
   * (src/request-path.ts), from whether the HTTP client dispatched a call.
   */
  refused?: boolean;
}

export class ActionError extends Error {
  readonly code: ErrorCode;
  readonly action: string | undefined;
  readonly retryAfter: number | undefined;
  readonly upstreamStatus: number | undefined;
  readonly extensions: Record<string, unknown> | undefined;
  readonly neverSent: boolean;
  readonly shed: ShedReason | undefined;
  readonly refused: boolean;

  constructor(code: ErrorCode, message: string, details: ActionErrorDetails = {}) {
    // An expected outcome, never logged with a stack: capturing one (and GraphQL formatting it for
    // every wrapping error) made a list of 5,000 failing items take seconds of CPU.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ActionError';
    this.code = code;
    this.action = details.action;
    this.retryAfter = details.retryAfter;
    this.upstreamStatus = details.upstreamStatus;
    this.extensions = details.extensions;
    this.neverSent = details.neverSent ?? false;
    this.shed = details.shed;
    this.refused = details.refused ?? false;
  }

  /** The same failure with other details (a capped `retryAfter`, the refused mark). */
  with(details: ActionErrorDetails): ActionError {
    const { action, retryAfter, upstreamStatus, extensions, neverSent, shed, refused } = this;
    return new ActionError(this.code, this.message, {
      action,
      retryAfter,
      upstreamStatus,
      extensions,
      neverSent,
      shed,
      refused,
      ...details,
    });
  }
}

export function badInput(message: string, extensions?: Record<string, unknown>): ActionError {
  return new ActionError('BAD_USER_INPUT', message, { extensions });
}

/** A lookup given up because the client that asked for it went away (its request was aborted): not the upstream's failure. */
export function cancelledError(action: string): ActionError {
  return new ActionError('CLIENT_CLOSED', 'The lookup was cancelled because the client went away', { action });
}

const MAX_UPSTREAM_MESSAGE = 300;

/** The upstream's own `error` text, trimmed to a safe length and stripped of control characters. */
export function upstreamMessage(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips
  const text = raw.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (!text) return null;
  return text.length > MAX_UPSTREAM_MESSAGE ? `${text.slice(0, MAX_UPSTREAM_MESSAGE)}…` : text;
}

/**
 * Maps a failing upstream status (HTTP, or the envelope's own `status`) to a code.
 * 400 is documented for "doesn't exist" lookups and for spent credits as well as for bad input,
 * so its message decides which of the three it is.
 */
export function errorForStatus(
  action: string,
  status: number,
  message: string | null,
  retryAfter: number | undefined,
  /** The token was the client's own (forward mode): a rejection is the client's to fix, not the operator's. */
  clientToken = false,
): ActionError {
  const details: ActionErrorDetails = { action, upstreamStatus: status };
  const said = message ? `: ${message}` : '';
  if (status === 400) {
    if (message && /credit/i.test(message)) {
      return new ActionError('RATE_LIMITED', `The upstream account is out of credits${said}`, details);
    }
    if (message && /(doesn'?t|does not|no longer) exist|not found|no translations|no results/i.test(message)) {
      return new ActionError('NOT_FOUND', `The upstream found nothing for this lookup${said}`, details);
    }
    return new ActionError('BAD_USER_INPUT', `The upstream rejected the input${said}`, details);
  }
  if (status === 401 || status === 403) {
    if (clientToken) {
      return new ActionError(
        'UNAUTHENTICATED',
        `The upstream rejected your access token (HTTP ${status}); check the token you send as "authorization: Bearer <token>"`,
        details,
      );
    }
    return new ActionError(
      'UNAUTHENTICATED',
      "The upstream rejected the gateway's access token; the operator must check ACTION_TOKEN",
      details,
    );
  }
  if (status === 404 || status === 410) {
    return new ActionError('NOT_FOUND', `The upstream found nothing for this lookup${said}`, details);
  }
  if (status === 429) {
    return new ActionError(
      'RATE_LIMITED',
      `The upstream rate limit is spent${retryAfter !== undefined ? `; retry in ${retryAfter} s` : ''}`,
      {
        ...details,
        retryAfter,
      },
    );
  }
  if (status === 408 || status === 504) {
    return new ActionError('UPSTREAM_TIMEOUT', `The upstream timed out (HTTP ${status})`, details);
  }
  if (status >= 500) {
    return new ActionError('UPSTREAM_UNAVAILABLE', `The upstream failed (HTTP ${status})${said}`, details);
  }
  return new ActionError(
    'UPSTREAM_BAD_RESPONSE',
    `The upstream answered with unexpected status ${status}${said}`,
    details,
  );
}

/** `retry-after` is seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date has a weekday and a month name; Date.parse alone would also take "-1" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
