import type { Context, Span } from '@opentelemetry/api';

/** A request's span and context while tracing is on (./spans.ts), with the operation spans still open. */
export interface RequestTrace {
  span: Span;
  context: Context;
  /** Operation spans started and not yet ended (made on the first). */
  open?: Set<Span>;
}

/**
 * A request's spans are kept on the request itself, so they go when it goes. Not a WeakMap keyed by the
 * request: its entries are ephemerons, which keep what they hold alive through young-generation
 * collections (see kernel/answered.ts), and every traced request had one. Apart from ./spans.ts, so that
 * the request log reads the trace id without loading OpenTelemetry when tracing is off.
 */
export const TRACE = Symbol('lookup-graph.request-trace');
export type Traced = Request & { [TRACE]?: RequestTrace };
export const traceOf = (request: Request): RequestTrace | undefined => (request as Traced)[TRACE];

/** The trace id of this request's span, when tracing is on (for the request log line). */
export function traceIdOf(request: Request): string | undefined {
  return traceOf(request)?.span.spanContext().traceId;
}
