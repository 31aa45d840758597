/**
 * The runtime side of the cost limit, per operation: the budget check in front of every upstream call,
 * and the calls still in flight (so stock symbols that links discover can wait for each other and go
 * upstream together). The state lives on the operation (src/operation/operation.ts).
 */
import { ActionError } from '../kernel/errors.js';

/** What the static estimate found, reported in `extensions.gateway.cost`. */
export interface CostReport {
  estimated: number;
  budget: number;
}

/** The refusal of a call that would take the operation past its budget; null while it fits. */
export function overBudget(spent: number, budget: number, action: string): ActionError | null {
  if (spent < budget) return null;
  return new ActionError(
    'COST_LIMIT_EXCEEDED',
    `This operation has used its budget of ${budget} upstream calls; the ${action} lookup was not made`,
    {
      action,
      extensions: { budget, upstreamCalls: spent },
    },
  );
}

/** One operation's stock-symbol batching: symbol batches wait while a call that can name more symbols is in flight. */
export class SymbolMeter {
  /** The operation selects financial links (the cost plugin says so): symbol batches wait for them. */
  holdBatches = false;
  /** Calls in flight of actions that can lead to more symbols. */
  private feeding = 0;
  private readonly waiting: Array<() => void> = [];
  private checkScheduled = false;

  /**
   * Counts a call as in flight until it settles, when its results can name more stock symbols (its
   * action's descriptor says `namesSymbols`: a company's ticker, a domain's company, a profile's company).
   */
  track<T>(namesSymbols: boolean, call: Promise<T>): Promise<T> {
    if (!namesSymbols) return call;
    this.feeding += 1;
    const settle = () => {
      this.feeding -= 1;
      if (this.feeding === 0 && this.waiting.length > 0) this.scheduleRelease();
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
  schedule(dispatch: () => void): void {
    if (!this.holdBatches) {
      void Promise.resolve().then(() => process.nextTick(dispatch));
      return;
    }
    this.waiting.push(dispatch);
    this.scheduleRelease();
  }

  /**
   * Checks after the current I/O turn (setImmediate runs after every promise job and nextTick the
   * settled call set off), so loads that the settled call's resolvers make are in the batch, and calls
   * they start count as in flight.
   */
  private scheduleRelease(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setImmediate(() => {
      this.checkScheduled = false;
      if (this.feeding > 0) return;
      for (const dispatch of this.waiting.splice(0)) dispatch();
    });
  }
}
