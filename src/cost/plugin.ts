import { GraphQLError, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CostReport, SymbolMeter } from './meter.js';
import { costVariables, estimateCost, type CostEstimate } from './estimate.js';
import { describeSuggestions, type FirstSuggestion, suggestFirst } from './suggest.js';

export interface CostLimitOptions {
  /** COST_BUDGET: the most upstream calls one operation may make. */
  budget: number;
  /** FINANCIAL_BATCH_SIZE: symbols per financial call. */
  batchSize: number;
  /** Whether an action's lookups are stock symbols batched into one call (from the action registry). */
  batchedSymbols: (action: string) => boolean;
}

/**
 * Estimates every operation's cost before it executes (after validation, with its variables) and
 * rejects one whose estimate exceeds the budget with COST_LIMIT_EXCEEDED, HTTP 400, before any
 * upstream call, naming the `first:` values that would bring it under (./suggest.ts). The estimate is
 * kept for `extensions.gateway.cost`.
 */
const MAX_CACHED_KEY_LENGTH = 1024;
const MAX_ESTIMATES_PER_DOCUMENT = 16;

/** What the estimate sets on the operation it is made for. */
interface EstimatedOperation {
  cost: CostReport | null;
  symbols: SymbolMeter;
}

export function useCostLimit(options: CostLimitOptions): Plugin<{ operation: EstimatedOperation }> {
  // Yoga hands the same DocumentNode to every request with the same text, so an estimate is worked out
  // once per document and values of the variables it depends on (./estimate.ts costVariables), not once
  // per request: a lookup by a new domain reuses the document's estimate.
  const estimates = new WeakMap<DocumentNode, { variables: ReadonlySet<string>; byKey: Map<string, CostEstimate> }>();
  // Worked out once per estimate that is refused, like the estimate itself.
  const suggestions = new WeakMap<CostEstimate, FirstSuggestion[]>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      let known = estimates.get(args.document);
      if (!known) {
        known = { variables: costVariables(args.schema, args.document), byKey: new Map() };
        estimates.set(args.document, known);
      }
      const variables = args.variableValues as Record<string, unknown> | null | undefined;
      const key = `${args.operationName ?? ''}\u0000${known.variables.size === 0 ? '' : JSON.stringify(pick(variables, known.variables))}`;
      // Large variable sets are estimated every time rather than held in memory.
      const cacheable = key.length <= MAX_CACHED_KEY_LENGTH;
      let estimate: CostEstimate | null | undefined = cacheable ? known.byKey.get(key) : undefined;
      if (estimate === undefined) {
        estimate = estimateCost({
          schema: args.schema,
          document: args.document,
          operationName: args.operationName,
          variables,
          batchSize: options.batchSize,
          batchedSymbols: options.batchedSymbols,
        });
        // Bounded: documents with ever-changing variables keep only their latest estimates. No estimate (an
        // operation not found, variables that do not coerce) is never kept: the key leaves variables out.
        if (known.byKey.size >= MAX_ESTIMATES_PER_DOCUMENT) known.byKey.clear();
        if (cacheable && estimate) known.byKey.set(key, estimate);
      }
      if (!estimate) return; // execution reports the missing operation or the bad variables
      const operation = args.contextValue.operation;
      operation.cost = { estimated: estimate.cost, budget: options.budget };
      // With financial links, symbol batches wait until no lookup can add symbols.
      operation.symbols.holdBatches = estimate.symbolLinks > 0;
      if (estimate.cost > options.budget) {
        let ways = suggestions.get(estimate);
        if (!ways) {
          const input = {
            schema: args.schema,
            document: args.document,
            operationName: args.operationName,
            variables,
            batchSize: options.batchSize,
            batchedSymbols: options.batchedSymbols,
          };
          ways = suggestFirst(input, estimate, options.budget);
          suggestions.set(estimate, ways);
        }
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              `This operation could make up to ${estimate.cost} upstream calls, more than the budget of ${options.budget}. ${describeSuggestions(ways)}`,
              {
                extensions: {
                  code: 'COST_LIMIT_EXCEEDED',
                  cost: estimate.cost,
                  budget: options.budget,
                  ...(ways.length > 0 ? { suggestions: ways } : {}),
                  http: { status: 400 },
                },
              },
            ),
          ],
        });
      }
    },
  };
}

/** The variables named, as given (absent ones left out, so absent and null stay apart). */
function pick(
  variables: Record<string, unknown> | null | undefined,
  names: ReadonlySet<string>,
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  if (variables) for (const name of names) if (Object.hasOwn(variables, name)) picked[name] = variables[name];
  return picked;
}
