// Own: one budget per call, capped by the operation's deadline, that queueing, back-off and every attempt spend together.
import type { CallDeadline } from '../client.js';

/**
 * A call's deadline: UPSTREAM_TIMEOUT_MS from now, or what is left of the operation when that is
 * sooner. Queueing, back-off and every attempt of the call all spend this one budget.
 */
export function callDeadline(timeoutMs: number, operationDeadline: number | undefined, now = Date.now()): CallDeadline {
  const own = now + timeoutMs;
  const at = operationDeadline === undefined ? own : Math.min(own, operationDeadline);
  return { at, ms: Math.max(0, Math.round(at - now)) };
}

export function timeLeft(deadline: CallDeadline, now = Date.now()): number {
  return deadline.at - now;
}

export { cancelledError } from '../../kernel/errors.js';

/** Waits `ms`; rejects with `abortError()` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, abortError: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const abort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', abort, { once: true });
  });
}
