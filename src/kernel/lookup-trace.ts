/**
 * What a traced lookup hands down to the cache and the upstream (made by src/telemetry/spans.ts while
 * tracing is on, absent otherwise). Types only: naming them loads nothing of OpenTelemetry.
 */

/** A round trip of the cache to its shared store (Redis). */
export type StoreStep = 'get' | 'set' | 'acquireLease' | 'releaseLease' | 'leaseHeld';

/** How a store round trip ended: a read found an entry or not, a lease was won or not, or it failed. */
export type StoreStepResult = 'hit' | 'miss' | 'won' | 'lost' | 'ok' | 'failed';

/** One lookup's trace: its store round trips and its upstream call are told here. */
export interface LookupTrace {
  /** A store round trip of this lookup ended (`startedAt`: epoch ms): an event on the operation's span. */
  storeStep(step: StoreStep, startedAt: number, result: StoreStepResult): void;
  /** This lookup's call to the upstream starts (retries included): its one client span, until `end`. */
  startCall(action: string, body: Readonly<Record<string, unknown>>): CallTrace;
}

/** One upstream call's span: every HTTP attempt of it is an event on it. */
export interface CallTrace {
  /** Headers each attempt sends (`traceparent`, with TRACE_PROPAGATE_UPSTREAM), else undefined. */
  readonly headers: Record<string, string> | undefined;
  /** One HTTP attempt ended: its status (undefined: no response), its outcome code ('OK' or the error's), how long it took. */
  attempt(status: number | undefined, outcome: string, durationMs: number): void;
  /** The call ended with this outcome ('OK' or the error's code). */
  end(outcome: string): void;
}
