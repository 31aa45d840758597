import type { Plugin } from 'graphql-yoga';
import { describeOperation } from '../kernel/describe-operation.js';
import type { CostReport } from '../cost/meter.js';
import type { LookupReport } from './lookup-report.js';

/** What an answered operation spent: the live `Operation` of an executed one (src/operation/operation.ts), or what a remembered one spent. */
export interface OperationUsage {
  upstreamCalls: number;
  cost: CostReport | null;
  lookups: LookupReport[];
}

/** One operation of a request and what answered it: its own execution, or a remembered result. */
export interface AnsweredOperation {
  /** Its name, as the document gives it or else as the request asked for it. */
  name: string | null;
  type: string;
  /** Its upstream calls, cost estimate and lookups. */
  usage: OperationUsage;
  /** The variables it ran with. */
  variables: unknown;
  /** Whether its result carried errors; null until it has a single result (and for @defer/@stream). */
  errors: boolean | null;
}

/** Where a request's operations are kept: on the request itself, so they go when it goes. */
const ANSWERED = Symbol('answered operations');
type Answerable = Request & { [ANSWERED]?: AnsweredOperation[] };

/**
 * The operations each request was answered with, for the plugins that describe the whole response
 * when it goes out (Cache-Control, the request log, `extensions.gateway` of a remembered result).
 * Executed operations are added by `useAnsweredOperations`; an operation answered before it executes is added by
 * whatever answered it. Not a WeakMap keyed by the request: it kept each record, and the operation it
 * holds, alive through young-generation collections (a cached lookup without remembered results cost
 * about half again as much CPU).
 */
export class AnsweredOperations {
  add(request: Request, operation: AnsweredOperation): void {
    const answerable = request as Answerable;
    const list = answerable[ANSWERED];
    if (list) list.push(operation);
    else answerable[ANSWERED] = [operation];
  }

  /** The request's operations so far, in the order they started. */
  of(request: Request): readonly AnsweredOperation[] {
    return (request as Answerable)[ANSWERED] ?? [];
  }
}

/** Adds each operation to `answered` when it starts executing, and whether its result carried errors when it has one. */
export function useAnsweredOperations(answered: AnsweredOperations): Plugin<{ operation: OperationUsage }> {
  return {
    onExecute: ({ args }) => {
      const request = (args.contextValue as { request?: Request }).request;
      if (!request) return;
      const operation: AnsweredOperation = {
        ...describeOperation(args.document, args.operationName),
        usage: args.contextValue.operation,
        variables: args.variableValues,
        errors: null,
      };
      answered.add(request, operation);
      return {
        onExecuteDone: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) operation.errors = (result.errors?.length ?? 0) > 0;
        },
      };
    },
  };
}
