import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { AnsweredOperations } from '../cache/answered.js';
import type { GatewayContext } from '../operation/context.js';
import type { Operation } from '../operation/operation.js';
import { countByCode, errorCodesOf } from './errors.js';
import { outcomeOf, type OperationOutcome } from './metrics.js';
import type { OperationLabels } from './operation-label.js';
import { traceIdOf } from './request-trace.js';
import { isGraphQLRequest } from '../kernel/graphql-path.js';

interface RequestRecord {
  started: number;
  /** operationName of the request's parameters, for operations refused before they execute. */
  requestedNames: Array<string | null>;
  errorCodes: string[];
  /** The paths of the first FIRST_PATHS errors that have one. */
  errorPaths: string[];
  outcomes: OperationOutcome[];
}

/** Paths of errors the request line names; the rest are only counted. */
const FIRST_PATHS = 3;

export interface RequestLogOptions {
  logger: Logger;
  labels: OperationLabels;
  /** Told about every /graphql request: its operation label, duration, error codes and the outcome of each operation answered whole (the metrics). */
  observe: (
    operation: string,
    seconds: number,
    errorCodes: readonly string[],
    outcomes: readonly OperationOutcome[],
  ) => void;
  /** LOG_VARIABLES: add each operation's variables to the line. */
  logVariables: boolean;
  /** The operations each request was answered with. */
  answered: AnsweredOperations;
  /** The client's name from the API keys file, or null (never its key or digest). */
  clientOf?: (request: Request) => string | null;
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/;

/**
 * One structured line per /graphql request at info, written when the response goes out: operation
 * name and type, HTTP status, duration, upstream calls, cost, error codes (and, however many errors
 * there were, their count by code and the first paths: no error has a line of its own) and trace id (the
 * request span's, or the client's traceparent when tracing is off). Variables only with
 * LOG_VARIABLES=true. The same observation feeds the request-duration, error and operation-outcome
 * metrics. An operation delivered incrementally (@defer/@stream) writes a second line when its stream ends:
 * its payloads, its whole duration, and whether the client hung up before the last payload.
 * Installed first among the plugins, so requests refused by the protections are logged too.
 */
export function useRequestLog(options: RequestLogOptions): Plugin<GatewayContext> {
  const records = new WeakMap<Request, RequestRecord>();
  const recordOf = (request: Request | undefined) => (request ? records.get(request) : undefined);
  return {
    onRequest({ request, url }) {
      if (!isGraphQLRequest(request, url)) return;
      records.set(request, {
        started: performance.now(),
        requestedNames: [],
        errorCodes: [],
        errorPaths: [],
        outcomes: [],
      });
    },
    onParams({ request, params }) {
      recordOf(request)?.requestedNames.push(typeof params.operationName === 'string' ? params.operationName : null);
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const record = recordOf(request);
      if (!request || !record || !options.logger.isLevelEnabled('info')) return;
      return {
        onExecuteDone: ({ result }) => {
          if (!(Symbol.asyncIterator in result)) return undefined;
          let payloads = 0;
          let delivered = false;
          return {
            onNext: ({ result: payload }) => {
              payloads++;
              if ('hasNext' in payload && payload.hasNext === false) delivered = true;
            },
            onEnd: () => {
              const line = {
                ...(options.clientOf?.(request) ? { client: options.clientOf(request) } : {}),
                operation: args.operationName ?? null,
                payloads,
                durationMs: Math.round((performance.now() - record.started) * 1000) / 1000,
                clientHungUp: !delivered,
              };
              options.logger.info(
                { stream: line },
                delivered ? 'graphql stream delivered' : 'graphql stream ended early: the client hung up',
              );
            },
          };
        },
      };
    },
    onResultProcess({ request, result }) {
      const record = recordOf(request);
      if (!record) return;
      for (const single of Array.isArray(result) ? result : [result]) {
        if (Symbol.asyncIterator in single) continue;
        record.errorCodes.push(...errorCodesOf(single.errors));
        for (const error of single.errors ?? []) {
          if (record.errorPaths.length >= FIRST_PATHS) break;
          if (error.path) record.errorPaths.push(error.path.join('.'));
        }
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
        client: options.clientOf?.(request) ?? null,
        operation: batch ? null : (names[0] ?? null),
        operationType: batch ? null : (operations[0]?.type ?? null),
        batch: batch ? names : null,
        status: response.status,
        durationMs: performance.now() - record.started,
        usages: operations.map((operation) => operation.usage),
        errorCodes: record.errorCodes,
        errorPaths: record.errorPaths,
        outcomes: record.outcomes,
        traceId: traceIdOf(request) ?? traceparentId(request.headers.get('traceparent')),
        variables: () => operations.map((operation) => operation.variables ?? null),
      });
    },
  };
}

/** A /graphql request once its response is out, as the request log and the request metrics take it. */
interface FinishedRequest {
  /** The client's name from the API keys file, when it has one. */
  client: string | null;
  operation: string | null;
  operationType: string | null;
  /** The operation names of a batch; null for a single operation. */
  batch: Array<string | null> | null;
  status: number;
  durationMs: number;
  usages: ReadonlyArray<Pick<Operation, 'upstreamCalls' | 'cost'> | null>;
  errorCodes: readonly string[];
  errorPaths: readonly string[];
  outcomes: readonly OperationOutcome[];
  /** The request span's trace id, or the client's traceparent's. */
  traceId: string | undefined;
  /** Each operation's variables, read only with LOG_VARIABLES. */
  variables: () => unknown[];
}

/** Observes the request (metrics) and writes its log line. */
function reportRequest(options: RequestLogOptions, finished: FinishedRequest): void {
  options.observe(
    finished.batch ? 'batch' : options.labels.label(finished.operation),
    finished.durationMs / 1000,
    finished.errorCodes,
    finished.outcomes,
  );
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
    ...(finished.client ? { client: finished.client } : {}),
    operation: finished.operation,
    operationType: finished.operationType,
    ...(finished.batch ? { batch: finished.batch } : {}),
    status: finished.status,
    durationMs: Math.round(finished.durationMs * 1000) / 1000,
    upstreamCalls,
    cost: estimated === null ? null : { estimated, budget },
    errorCodes: [...new Set(finished.errorCodes)],
    ...(finished.errorCodes.length > 0 ? { errors: errorSummary(finished) } : {}),
    ...(traceId && traceId !== '00000000000000000000000000000000' ? { traceId } : {}),
    ...(options.logVariables ? { variables: finished.variables() } : {}),
  };
  options.logger.info({ request: line }, 'graphql request');
}

/** However many errors a request had: their count, the count of each code, and the first paths. */
function errorSummary(finished: FinishedRequest): {
  count: number;
  byCode: Record<string, number>;
  firstPaths: readonly string[];
} {
  return {
    count: finished.errorCodes.length,
    byCode: countByCode(finished.errorCodes),
    firstPaths: finished.errorPaths,
  };
}

/** The trace id of a client's `traceparent` header, when tracing is off. */
function traceparentId(header: string | null | undefined): string | undefined {
  return TRACEPARENT.exec(header ?? '')?.[1];
}
