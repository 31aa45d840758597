/**
 * The runtime side of the cost limit, per operation: the budget check in front of every upstream call,
 * the estimate the cost plugin made, and the calls still in flight (so stock symbols that links
 * discover can wait for each other and go upstream together).
 *
 * State is keyed by the operation's `usage` object: Yoga copies the context object, `usage` is shared.
 */
import { ActionError } from '../upstream/errors.js';

/** What the static estimate found, reported in `extensions.gateway.cost`. */
export interface CostReport {
  estimated: number;
  budget: number;
}

interface MeterState {
  report: CostReport | null;
  /** The operation selects financial links: symbol batches wait until no call can add symbols. */
  holdSymbolBatches: boolean;
  /** Calls in flight of actions that can lead to more symbols. */
  feeding: number;
  waiting: Array<() => void>;
  checkScheduled: boolean;
}

const states = new WeakMap<object, MeterState>();

function stateOf(usage: object): MeterState {
  let state = states.get(usage);
  if (!state) {
    state = { report: null, holdSymbolBatches: false, feeding: 0, waiting: [], checkScheduled: false };
    states.set(usage, state);
  }
  return state;
}

/** The refusal of a call that would take the operation past its budget; null while it fits. */
export function overBudget(spent: number, budget: number, action: string): ActionError | null {
  if (spent < budget) return null;
  return new ActionError('COST_LIMIT_EXCEEDED', `This operation has used its budget of ${budget} upstream calls; the ${action} lookup was not made`, {
    action,
    extensions: { budget, upstreamCalls: spent },
  });
}

/** Records the static estimate, and whether symbol batches should wait for links (the operation has financial links). */
export function recordEstimate(usage: object, report: CostReport, hasSymbolLinks: boolean): void {
  const state = stateOf(usage);
  state.report = report;
  state.holdSymbolBatches = hasSymbolLinks;
}

export function costReportOf(usage: object): CostReport | null {
  return states.get(usage)?.report ?? null;
}

/**
 * Counts a call as in flight until it settles, when its results can name more stock symbols (its
 * action's descriptor says `namesSymbols`: a company's ticker, a domain's company, a profile's company).
 */
export function trackCall<T>(usage: object, namesSymbols: boolean, call: Promise<T>): Promise<T> {
  if (!namesSymbols) return call;
  const state = stateOf(usage);
  state.feeding += 1;
  const settle = () => {
    state.feeding -= 1;
    if (state.feeding === 0 && state.waiting.length > 0) scheduleRelease(state);
  };
  call.then(settle, settle);
  return call;
}

/**
 * A DataLoader batchScheduleFn for symbol lookups. When the operation has financial links, a batch
 * waits until no call that could name more symbols is in flight, so the symbols of every company in
 * the operation go upstream together; otherwise it dispatches as DataLoader would (after the
 * current tick).
 */
export function scheduleSymbolBatch(usage: object, dispatch: () => void): void {
  const state = stateOf(usage);
  if (!state.holdSymbolBatches) {
    void Promise.resolve().then(() => process.nextTick(dispatch));
    return;
  }
  state.waiting.push(dispatch);
  scheduleRelease(state);
}

/**
 * Checks after the current I/O turn (setImmediate runs after every promise job and nextTick the
 * settled call set off), so loads that the settled call's resolvers make are in the batch, and calls
 * they start count as in flight.
 */
function scheduleRelease(state: MeterState): void {
  if (state.checkScheduled) return;
  state.checkScheduled = true;
  setImmediate(() => {
    state.checkScheduled = false;
    if (state.feeding > 0) return;
    for (const dispatch of state.waiting.splice(0)) dispatch();
  });
}
