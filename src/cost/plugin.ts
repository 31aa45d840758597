import { GraphQLError, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../context.js';
import { estimateCost, type CostEstimate } from './estimate.js';

export interface CostLimitOptions {
  /** COST_BUDGET: the most upstream calls one operation may make. */
  budget: number;
  /** FINANCIAL_BATCH_SIZE: symbols per financial call. */
  batchSize: number;
}

/**
 * Estimates every operation's cost before it executes (after validation, with its variables) and
 * rejects one whose estimate exceeds the budget with COST_LIMIT_EXCEEDED, HTTP 400, before any
 * upstream call. The estimate is kept for `extensions.gateway.cost`.
 */
const MAX_CACHED_KEY_LENGTH = 1024;
const MAX_ESTIMATES_PER_DOCUMENT = 16;

export function costLimit(options: CostLimitOptions): Plugin<GatewayContext> {
  // Yoga hands the same DocumentNode to every request with the same text, so an estimate is worked
  // out once per document and variables, not once per request.
  const estimates = new WeakMap<DocumentNode, Map<string, CostEstimate | null>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      let byVariables = estimates.get(args.document);
      if (!byVariables) {
        byVariables = new Map();
        estimates.set(args.document, byVariables);
      }
      const operation = args.contextValue.operation;
      const key = `${args.operationName ?? ''}\u0000${operation.variablesJson(args.variableValues)}`;
      // Large variable sets are estimated every time rather than held in memory.
      const cacheable = key.length <= MAX_CACHED_KEY_LENGTH;
      let estimate = cacheable ? byVariables.get(key) : undefined;
      if (estimate === undefined) {
        estimate = estimateCost({
          schema: args.schema,
          document: args.document,
          operationName: args.operationName,
          variables: args.variableValues as Record<string, unknown> | null | undefined,
          batchSize: options.batchSize,
        });
        // Bounded: documents with ever-changing variables keep only their latest estimates.
        if (byVariables.size >= MAX_ESTIMATES_PER_DOCUMENT) byVariables.clear();
        if (cacheable) byVariables.set(key, estimate);
      }
      if (!estimate) return; // execution reports the missing operation or the bad variables
      operation.cost = { estimated: estimate.cost, budget: options.budget };
      // With financial links, symbol batches wait until no lookup can add symbols.
      operation.symbols.holdBatches = estimate.symbolLinks > 0;
      if (estimate.cost > options.budget) {
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              `This operation could make up to ${estimate.cost} upstream calls, more than the budget of ${options.budget}. Ask for fewer lookups or links, or smaller lists.`,
              { extensions: { code: 'COST_LIMIT_EXCEEDED', cost: estimate.cost, budget: options.budget, http: { status: 400 } } },
            ),
          ],
        });
      }
    },
  };
}
