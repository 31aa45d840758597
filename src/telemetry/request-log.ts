import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { AnsweredOperations } from '../kernel/answered.js';
import type { GatewayContext } from '../kernel/context.js';
import type { Operation } from '../kernel/operation.js';
import { errorCodesOf } from './errors.js';
import { outcomeOf, type OperationOutcome } from './metrics.js';
import type { OperationLabels } from './operation-label.js';
import { traceIdOf } from './spans.js';

interface RequestRecord {
  started: number;
  /** operationName of the request's parameters, for operations refused before they execute. */
  requestedNames: Array<string | null>;
  errorCodes: string[];
  outcomes: OperationOutcome[];
}

export interface RequestLogOptions {
  logger: Logger;
  labels: OperationLabels;
  /** Told about every /graphql request: its operation label, duration, error codes and the outcome of each operation answered whole (the metrics). */
  observe: (operation: string, seconds: number, errorCodes: readonly string[], outcomes: readonly OperationOutcome[]) => void;
  /** LOG_VARIABLES: add each operation's variables to the line. */
  logVariables: boolean;
  /** The operations each request was answered with. */
  answered: AnsweredOperations;
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/;

/**
 * One structured line per /graphql request at info, written when the response goes out: operation
 * name and type, HTTP status, duration, upstream calls, cost, error codes and trace id (the
 * request span's, or the client's traceparent when tracing is off). Variables only with
 * LOG_VARIABLES=true. The same observation feeds the request-duration, error and operation-outcome
 * metrics.
 * Installed first among the plugins, so requests refused by the protections are logged too.
 */
export function useRequestLog(options: RequestLogOptions): Plugin<GatewayContext> {
  const records = new WeakMap<Request, RequestRecord>();
  const recordOf = (request: Request | undefined) => (request ? records.get(request) : undefined);
  return {
    onRequest({ request, url }) {
      if (url.pathname !== '/graphql') return;
      records.set(request, { started: performance.now(), requestedNames: [], errorCodes: [], outcomes: [] });
    },
    onParams({ request, params }) {
      recordOf(request)?.requestedNames.push(typeof params.operationName === 'string' ? params.operationName : null);
    },
    onResultProcess({ request, result }) {
      const record = recordOf(request);
      if (!record) return;
      for (const single of Array.isArray(result) ? result : [result]) {
        if (Symbol.asyncIterator in single) continue;
        record.errorCodes.push(...errorCodesOf(single.errors));
        record.outcomes.push(outcomeOf(single));
      }
    },
    onResponse({ request, response }) {
      const record = recordOf(request);
      if (!record) return;
      records.delete(request);
      const operations = options.answered.of(request);
      const batch = record.requestedNames.length > 1;
      const names = operations.length > 0 ? operations.map((operation) => operation.name) : record.requestedNames;
      reportRequest(options, {
        operation: batch ? null : (names[0] ?? null),
        operationType: batch ? null : (operations[0]?.type ?? null),
        batch: batch ? names : null,
        status: response.status,
        durationMs: performance.now() - record.started,
        usages: operations.map((operation) => operation.usage),
        errorCodes: record.errorCodes,
        outcomes: record.outcomes,
        traceId: traceIdOf(request) ?? traceparentId(request.headers.get('traceparent')),
        variables: () => operations.map((operation) => operation.variables ?? null),
      });
    },
  };
}

/** A /graphql request once its response is out, as the request log and the request metrics take it. */
interface FinishedRequest {
  operation: string | null;
  operationType: string | null;
  /** The operation names of a batch; null for a single operation. */
  batch: Array<string | null> | null;
  status: number;
  durationMs: number;
  usages: ReadonlyArray<Pick<Operation, 'upstreamCalls' | 'cost'> | null>;
  errorCodes: readonly string[];
  outcomes: readonly OperationOutcome[];
  /** The request span's trace id, or the client's traceparent's. */
  traceId: string | undefined;
  /** Each operation's variables, read only with LOG_VARIABLES. */
  variables: () => unknown[];
}

/** Observes the request (metrics) and writes its log line. */
function reportRequest(options: RequestLogOptions, finished: FinishedRequest): void {
  options.observe(finished.batch ? 'batch' : options.labels.label(finished.operation), finished.durationMs / 1000, finished.errorCodes, finished.outcomes);
  if (!options.logger.isLevelEnabled('info')) return;
  let upstreamCalls = 0;
  let estimated: number | null = null;
  let budget: number | null = null;
  for (const usage of finished.usages) {
    if (!usage) continue;
    upstreamCalls += usage.upstreamCalls;
    const cost = usage.cost;
    if (cost) {
      estimated = (estimated ?? 0) + cost.estimated;
      budget = cost.budget;
    }
  }
  const traceId = finished.traceId;
  const line: Record<string, unknown> = {
    operation: finished.operation,
    operationType: finished.operationType,
    ...(finished.batch ? { batch: finished.batch } : {}),
    status: finished.status,
    durationMs: Math.round(finished.durationMs * 1000) / 1000,
    upstreamCalls,
    cost: estimated === null ? null : { estimated, budget },
    errorCodes: [...new Set(finished.errorCodes)],
    ...(traceId && traceId !== '00000000000000000000000000000000' ? { traceId } : {}),
    ...(options.logVariables ? { variables: finished.variables() } : {}),
  };
  options.logger.info({ request: line }, 'graphql request');
}

/** The trace id of a client's `traceparent` header, when tracing is off. */
function traceparentId(header: string | null | undefined): string | undefined {
  return TRACEPARENT.exec(header ?? '')?.[1];
}
