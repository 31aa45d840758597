import { setMaxListeners } from 'node:events';
import type { LookupReport } from '../cache/lookup-report.js';
import type { FreshReads } from '../cache/fresh.js';
import type { CostReport, SymbolMeter } from '../cost/meter.js';
import type { LookupTrace } from '../kernel/lookup-trace.js';

/**
 * What tracing hangs on an operation while it is on (src/telemetry/spans.ts makes it): each lookup takes
 * its trace from it and hands it down to the cache and the upstream call. A lookup has no span of its
 * own: its store round trips are events on the operation's span, its call a span under it.
 */
export interface OperationTrace {
  /** The trace of one lookup: of one key, or of several keys of one action looked up together (stock symbols). */
  lookup(action: string, keys: string | readonly string[]): LookupTrace;
}

/**
 * Everything one GraphQL operation keeps while it runs: what it spent, its cost estimate, the stock
 * symbol meter, its fresh reads, its deadline and its one cancellation signal. One object per
 * operation, shared by Yoga's copies of the context.
 */
export class Operation {
  /** Calls this operation sent over the wire, retries included: counted by `callSent` alone. */
  upstreamCalls = 0;
  /** Lookups this operation sent towards the upstream, sent or refused on the way: what COST_BUDGET holds it to while it runs. */
  callsAsked = 0;
  readonly lookups: LookupReport[] = [];
  /** The static estimate against the budget (src/cost/plugin.ts), reported in `extensions.gateway.cost`. */
  cost: CostReport | null = null;
  /** The operation's span, when tracing is on (made by src/telemetry/spans.ts). */
  trace: OperationTrace | undefined;
  private controller: AbortController | undefined;

  /**
   * @param deadline when this operation must be answered (epoch ms): every upstream call ends by then
   * @param requestSignal the client's request signal, read only when the operation first needs its own
   * @param symbols the stock symbol meter (src/cost/meter.ts)
   * @param fresh the operation's @fresh reads (src/cache/fresh.ts)
   */
  constructor(
    readonly deadline: number,
    private readonly requestSignal: () => AbortSignal | undefined,
    readonly symbols: SymbolMeter,
    readonly fresh: FreshReads,
  ) {}

  /**
   * A call of this operation was written to a connection to the upstream (the HTTP client's dispatch,
   * src/upstream/client.ts): the one moment a call counts, for `extensions.gateway.upstreamCalls`,
   * the request log, and anything that charges for calls.
   */
  callSent(): void {
    this.upstreamCalls += 1;
  }

  /**
   * Aborted when the client goes away: every upstream call and wait of the operation follows this one
   * signal. Made on first use (an operation served from the cache never needs it).
   */
  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      // Each lookup of the operation follows it with a listener of its own: many are expected.
      setMaxListeners(0, controller.signal);
      this.controller = controller;
      const request = this.requestSignal();
      if (request?.aborted) controller.abort(request.reason);
      else request?.addEventListener('abort', () => controller.abort(request.reason), { once: true });
    }
    return this.controller.signal;
  }
}
