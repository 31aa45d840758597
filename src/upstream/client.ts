import { createRequire } from 'node:module';
import type { Dispatcher, Pool as UndiciPool, errors as UndiciErrors } from 'undici';
import type { UpstreamConfig } from './settings.js';
import { ActionError, cancelledError, errorForStatus, parseRetryAfter, upstreamMessage } from '../kernel/errors.js';
import { dispatchWatch, ON_DISPATCH, type DispatchWatched } from './dispatched.js';
import type { CallTrace, LookupTrace } from '../kernel/lookup-trace.js';

// The pool, the error classes and the request API alone, the very modules undici's index exports as
// `Pool` and `errors` and puts on every dispatcher (30 modules): the index loads fetch, WebSocket, the
// caches, the mocks and the rest of undici too (110). test/ops/lean-start.test.ts fails if undici moves them.
const require = createRequire(import.meta.url);
const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
const undiciErrors = require('undici/lib/core/errors.js') as typeof UndiciErrors;
// What undici's index does first: `request` and the rest of the API on Dispatcher's prototype.
Object.assign(
  (require('undici/lib/dispatcher/dispatcher.js') as { prototype: object }).prototype,
  require('undici/lib/api/index.js'),
);

/** A successful envelope: `status` 200, a `response`, and whatever siblings the action sends. */
export interface ActionEnvelope {
  status: 200;
  response: unknown;
  [sibling: string]: unknown;
}

export interface CallOutcome {
  action: string;
  /** 'OK' or the error code the call ended with. */
  outcome: string;
  durationMs: number;
  upstreamStatus: number | undefined;
  /** The request was written to a connection (see CallOptions.onSent); false: it never left the gateway. */
  sent: boolean;
}

export interface CallOptions {
  /** Cancels the call, e.g. when the client that asked for it went away. */
  signal?: AbortSignal;
  /** The bearer token for this call; the configured ACTION_TOKEN when absent. */
  token?: string;
  /** Who the call is for (API key id, forwarded token hash, or address): its fair share of upstream slots. */
  client?: string;
  /** When the whole operation must be answered (epoch ms); the resilience layers keep every call inside it. */
  operationDeadline?: number;
  /** This call's own deadline, set by the resilience layers; UPSTREAM_TIMEOUT_MS from now when absent. */
  deadline?: CallDeadline;
  /** Told the status and rate-limit headers of the response as soon as they arrive. */
  onResponse?: (facts: ResponseFacts) => void;
  /**
   * Told the moment the request is written to a connection to the upstream: THE moment a call counts
   * as made (and may be charged), once per attempt. Never told for a call refused, shed or cancelled
   * before it left, nor for one whose connection could not be made.
   */
  onSent?: () => void;
  /** How long the call waited for a free upstream slot before it was given to the client (for the timeout's message). */
  queuedMs?: number;
  /** The lookup's trace, while tracing is on: the call's span is made from it (src/telemetry/spans.ts traceCallAction). */
  trace?: LookupTrace;
  /** The call's span, while tracing is on: each HTTP attempt sends its headers and is told on it. */
  attempts?: CallTrace;
}

/** When a call must end: `at` in epoch ms; `ms` is the whole budget it was given (for messages). */
export interface CallDeadline {
  at: number;
  ms: number;
}

/**
 * What a response said about the upstream's budget: only these parsed headers ever leave the
 * client (never the others, never the token). Absent or unreadable headers are undefined.
 */
export interface ResponseFacts {
  action: string;
  status: number;
  /** `ratelimit-limit`: calls allowed in the current window. */
  limit?: number;
  /** `ratelimit-remaining`: calls left in the current window. */
  remaining?: number;
  /** When the window resets (epoch ms), from `ratelimit-reset` (seconds from now, or an epoch) or `ratelimit-reset-date`. */
  resetAt?: number;
  /** `retry-after`, in seconds. */
  retryAfter?: number;
}

export interface ActionClientOptions extends UpstreamConfig {
  baseUrl: URL;
  token: string;
  /** Told about every finished call; never given headers or the token. */
  onCallDone?: (outcome: CallOutcome) => void;
}

const ACTION_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Calls `POST {base}/v1/action/<name>` over one keep-alive pool and returns the parsed envelope,
 * or throws an ActionError whose code says what went wrong. Redirects are never followed.
 */
export class ActionClient {
  private readonly pool: Dispatcher;
  private readonly pathPrefix: string;
  private readonly defaultAuthorization: string;

  constructor(private readonly options: ActionClientOptions) {
    this.pool = new Pool(options.baseUrl.origin, {
      connections: options.connections,
      connect: { timeout: options.connectTimeoutMs },
      keepAliveTimeout: 30_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      maxResponseSize: options.maxResponseBytes,
    }).compose(dispatchWatch);
    this.pathPrefix = options.baseUrl.pathname.replace(/\/+$/, '');
    this.defaultAuthorization = `Bearer ${options.token}`;
  }

  async call(action: string, body: Record<string, unknown>, options: CallOptions = {}): Promise<ActionEnvelope> {
    if (!ACTION_NAME.test(action)) throw new Error(`Invalid action name ${JSON.stringify(action)}`);
    const started = performance.now();
    const attempts = options.attempts;
    let upstreamStatus: number | undefined;
    let sent = false;
    const onSent = () => {
      sent = true;
      options.onSent?.();
    };
    try {
      const envelope = await this.send(
        action,
        body,
        { ...options, onSent },
        (status) => (upstreamStatus = status),
        attempts?.headers,
      );
      const call = this.report(action, 'OK', started, upstreamStatus, sent);
      attempts?.attempt(upstreamStatus, 'OK', call.durationMs);
      return envelope;
    } catch (error) {
      const mapped = error instanceof ActionError ? error : unexpected(action, error);
      const call = this.report(action, mapped.code, started, upstreamStatus, sent);
      attempts?.attempt(upstreamStatus, mapped.code, call.durationMs);
      throw mapped;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private report(
    action: string,
    outcome: string,
    started: number,
    upstreamStatus: number | undefined,
    sent: boolean,
  ): CallOutcome {
    const call = { action, outcome, durationMs: performance.now() - started, upstreamStatus, sent };
    this.options.onCallDone?.(call);
    return call;
  }

  private async send(
    action: string,
    body: Record<string, unknown>,
    options: CallOptions,
    sawStatus: (status: number) => void,
    extraHeaders?: Record<string, string>,
  ): Promise<ActionEnvelope> {
    const budget = options.deadline ?? { at: Date.now() + this.options.timeoutMs, ms: this.options.timeoutMs };
    const timedOut = () =>
      new ActionError('UPSTREAM_TIMEOUT', timeoutMessage(budget, options.queuedMs ?? 0), { action });
    const left = budget.at - Date.now();
    if (left <= 0) throw timedOut();
    // One abort for the call, fired by its deadline or by the signal it follows (the operation's, or a
    // coalesced call's); our own, so it is aborted before undici fails the request.
    const controller = new AbortController();
    const signal = controller.signal;
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, Math.ceil(left));
    const followed = options.signal;
    const follow = () => controller.abort(followed?.reason);
    if (followed?.aborted) follow();
    else followed?.addEventListener('abort', follow, { once: true });
    let phase: 'request' | 'body' = 'request';
    try {
      const request: DispatchWatched = {
        [ON_DISPATCH]: options.onSent,
        path: `${this.pathPrefix}/v1/action/${action}`,
        method: 'POST',
        headers: {
          authorization: options.token ? `Bearer ${options.token}` : this.defaultAuthorization,
          'content-type': 'application/json',
          accept: 'application/json',
          ...extraHeaders,
        },
        body: JSON.stringify(body),
        signal,
      };
      const res = await this.pool.request(request);
      sawStatus(res.statusCode);
      phase = 'body';
      options.onResponse?.(responseFacts(action, res.statusCode, res.headers));
      const text = await res.body.text();
      return parseEnvelope(
        action,
        res.statusCode,
        header(res.headers['retry-after']),
        text,
        options.token ?? this.options.token,
        options.token !== undefined,
      );
    } catch (error) {
      if (error instanceof ActionError) throw error;
      if (expired) throw timedOut();
      if (signal.aborted) throw cancelledError(action);
      throw transportError(action, error, phase, this.options.maxResponseBytes);
    } finally {
      clearTimeout(timer);
      followed?.removeEventListener('abort', follow);
    }
  }
}

/** Time spent waiting for a free upstream slot is the gateway's, not the upstream's: the message says how the deadline was spent. */
function timeoutMessage(budget: CallDeadline, queuedMs: number): string {
  if (queuedMs < 50) return `The upstream did not answer within ${budget.ms} ms`;
  const queued = Math.round(queuedMs);
  return `The upstream did not answer within the ${Math.max(0, budget.ms - queued)} ms left of this lookup's ${budget.ms} ms (${queued} ms went waiting for a free upstream slot)`;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function count(value: string | string[] | undefined): number | undefined {
  const text = header(value)?.trim();
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Reads the rate-limit headers the service documents; every other header stays here. */
export function responseFacts(
  action: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  now = Date.now(),
): ResponseFacts {
  const facts: ResponseFacts = { action, status };
  const limit = count(headers['ratelimit-limit']);
  const remaining = count(headers['ratelimit-remaining']);
  const reset = count(headers['ratelimit-reset']);
  const retryAfter = parseRetryAfter(header(headers['retry-after']), now);
  if (limit !== undefined) facts.limit = limit;
  if (remaining !== undefined) facts.remaining = remaining;
  if (retryAfter !== undefined) facts.retryAfter = retryAfter;
  if (reset !== undefined) {
    // The IETF draft sends seconds from now; some services send an epoch in seconds instead.
    facts.resetAt = reset > 1_000_000_000 ? reset * 1000 : now + reset * 1000;
  } else {
    const date = header(headers['ratelimit-reset-date'])?.trim();
    const parsed = date
      ? /^\d+$/.test(date)
        ? Number(date) * (Number(date) < 1e11 ? 1000 : 1)
        : Date.parse(date)
      : NaN;
    if (Number.isFinite(parsed)) facts.resetAt = parsed;
  }
  return facts;
}

/** Objects and arrays one upstream answer may nest; the service's deepest answers nest under ten. */
const MAX_RESPONSE_DEPTH = 100;

/** Whether JSON text opens more than `max` objects or arrays inside one another: one pass, brackets inside strings skipped. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash: the escaped character is skipped.
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/** Decides success or failure from the HTTP status and the envelope, as the service's own clients do. */
function parseEnvelope(
  action: string,
  httpStatus: number,
  retryAfterHeader: string | undefined,
  text: string,
  token?: string,
  clientToken = false,
): ActionEnvelope {
  if (httpStatus >= 200 && httpStatus < 300 && nestedDeeperThan(text, MAX_RESPONSE_DEPTH)) {
    // Parsing would succeed, but every recursive step after it (copies, the cache's serialisation) would overflow the stack.
    throw new ActionError(
      'UPSTREAM_BAD_RESPONSE',
      `The upstream response is nested deeper than ${MAX_RESPONSE_DEPTH} levels`,
      {
        action,
        upstreamStatus: httpStatus,
      },
    );
  }
  let parsed: unknown;
  let isJson = false;
  try {
    parsed = JSON.parse(text);
    isJson = true;
  } catch {
    parsed = undefined;
  }
  const envelope =
    isJson && parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  // The upstream's message may reach the client; a token it echoed never does.
  const message = upstreamMessage(
    typeof envelope?.error === 'string' && token ? envelope.error.split(token).join('[redacted]') : envelope?.error,
  );
  const retryAfter = parseRetryAfter(retryAfterHeader);

  if (httpStatus < 200 || httpStatus >= 300) {
    throw errorForStatus(action, httpStatus, message, retryAfter, clientToken);
  }
  if (!envelope) {
    const what =
      text.trim() === ''
        ? 'an empty body'
        : isJson
          ? 'JSON that is not an envelope object'
          : 'a body that is not JSON (or was cut off)';
    throw new ActionError('UPSTREAM_BAD_RESPONSE', `The upstream answered with ${what}`, {
      action,
      upstreamStatus: httpStatus,
    });
  }
  const envelopeStatus = envelope.status;
  if (typeof envelopeStatus === 'number' && envelopeStatus !== 200) {
    throw errorForStatus(action, envelopeStatus, message, retryAfter, clientToken);
  }
  if (message) {
    throw new ActionError('UPSTREAM_BAD_RESPONSE', `The upstream reported an error: ${message}`, {
      action,
      upstreamStatus: httpStatus,
    });
  }
  if (envelopeStatus !== 200) {
    throw new ActionError('UPSTREAM_BAD_RESPONSE', 'The upstream envelope has no status 200', {
      action,
      upstreamStatus: httpStatus,
    });
  }
  if (envelope.response === undefined || envelope.response === null) {
    throw new ActionError('UPSTREAM_BAD_RESPONSE', 'The upstream envelope has no response', {
      action,
      upstreamStatus: httpStatus,
    });
  }
  return envelope as ActionEnvelope;
}

/**
 * Whether the transport proves that no byte of the request reached the upstream: the failure
 * happened while connecting (refused, reset during the handshake, unreachable, DNS), or the socket
 * closed before anything was written to it. A socket reused by keep-alive has written earlier
 * requests, so a reset on it is never counted as "not sent".
 */
function provedNeverSent(error: unknown): boolean {
  if (error instanceof undiciErrors.ConnectTimeoutError) return true;
  const syscall = (error as { syscall?: unknown } | null)?.syscall;
  if (syscall === 'connect' || syscall === 'getaddrinfo') return true;
  if (error instanceof undiciErrors.SocketError) return error.socket?.bytesWritten === 0;
  return false;
}

function transportError(
  action: string,
  error: unknown,
  phase: 'request' | 'body',
  maxResponseBytes: number,
): ActionError {
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError) {
    return new ActionError(
      'UPSTREAM_BAD_RESPONSE',
      `The upstream response exceeded the ${maxResponseBytes}-byte limit`,
      { action },
    );
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new ActionError('UPSTREAM_TIMEOUT', 'Connecting to the upstream timed out', { action, neverSent: true });
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new ActionError('UPSTREAM_TIMEOUT', 'The upstream stopped answering', { action });
  }
  if (phase === 'body') {
    return new ActionError('UPSTREAM_BAD_RESPONSE', 'The upstream response was cut off', { action });
  }
  return new ActionError('UPSTREAM_UNAVAILABLE', 'The upstream could not be reached', {
    action,
    neverSent: provedNeverSent(error),
  });
}

function unexpected(action: string, error: unknown): ActionError {
  const mapped = new ActionError('UPSTREAM_UNAVAILABLE', 'The upstream call failed', { action });
  (mapped as { cause?: unknown }).cause = error;
  return mapped;
}
