import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LookupOutcome } from '../cache/lookup-cache.js';
import type { CacheStore } from '../cache/store.js';
import type { GatewayContext } from '../operation/context.js';
import type { Operation, OperationTrace } from '../operation/operation.js';
import type { CallAction } from '../upstream/index.js';
import type { CallObserver, CallOutcome } from '../upstream/client.js';
import { describeOperation } from '../kernel/describe-operation.js';
import { ActionError } from '../kernel/errors.js';
import { errorCodesOf } from './errors.js';
import type { TracingOn } from './tracing.js';
import { isGraphQLRequest } from '../kernel/graphql-path.js';
import { TRACE, type Traced, traceOf } from './request-trace.js';

/**
 * The spans of one request, by hand with @opentelemetry/api:
 *
 *   POST /graphql (server, continues the client's traceparent; answered from a remembered result:
 *   │              this span alone, with the operation and `lookup_graph.remembered_result`)
 *   └─ query Name (the GraphQL operation: type, name, cost estimate, upstream calls)
 *      └─ lookup <action> (source: cache / upstream / coalesced; the key hashed or omitted)
 *         ├─ redis GET / SET / ... (with REDIS_URL)
 *         └─ upstream <action> (the call with its retries and outcome)
 *            └─ POST /v1/action/<action> (client, one per HTTP attempt, status and outcome code)
 *
 * Lookups find their operation's span on the Operation (`trace`, shared by Yoga's copies of the
 * context). A lookup hands its own span's context down with its work (the cache's `trace`, the call's
 * `trace` option), and the upstream and Redis spans are made under it: no context manager, so no
 * async hook runs for every promise of the process.
 */

/** The operation's span context, under which its lookups make theirs. */
interface OperationSpan {
  tracing: TracingOn;
  context: Context;
}

/** What the Operation carries while tracing is on: its lookups, each with its span under the operation's. */
function operationTrace(operation: OperationSpan): OperationTrace {
  return {
    lookup: (action, key, run) => traceLookup(operation, action, key, run),
    lookups: (action, keys, run) => traceLookups(operation, action, keys, run),
  };
}

const ATTEMPTS = Symbol('lookup-graph.upstream.attempts');

const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

/** The request and operation spans. Installed first, so refused requests have their span too. */
export function useTracing(tracing: TracingOn): Plugin<GatewayContext> {
  const { tracer, propagator } = tracing;
  return {
    onRequest({ request, url }) {
      if (!isGraphQLRequest(request, url)) return;
      const parent = propagator.extract(ROOT_CONTEXT, request.headers, headerGetter);
      const span = tracer.startSpan(
        `${request.method} ${url.pathname}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'url.path': url.pathname,
            'url.scheme': url.protocol.replace(':', ''),
          },
        },
        parent,
      );
      (request as Traced)[TRACE] = { span, context: trace.setSpan(parent, span) };
    },
    onExecute({ args }) {
      const ctx = args.contextValue;
      const request = (ctx as { request?: Request }).request;
      const owner = request ? traceOf(request) : undefined;
      const parent = owner?.context ?? ROOT_CONTEXT;
      const operation = describeOperation(args.document, args.operationName);
      const span = tracer.startSpan(
        operation.name ? `${operation.type} ${operation.name}` : operation.type,
        {
          attributes: {
            'graphql.operation.type': operation.type,
            ...(operation.name ? { 'graphql.operation.name': operation.name } : {}),
          },
        },
        parent,
      );
      if (owner) {
        owner.open ??= new Set();
        owner.open.add(span);
      }
      ctx.operation.trace = operationTrace({ tracing, context: trace.setSpan(parent, span) });
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          endOperation(span, ctx.operation, result);
          owner?.open?.delete(span);
        },
      };
    },
    onResponse({ request, response }) {
      const owner = traceOf(request);
      if (!owner) return;
      // An operation refused in its onExecute (the cost limit) has no onExecuteDone.
      if (owner.open) for (const span of owner.open) span.end();
      owner.span.setAttribute('http.response.status_code', response.status);
      if (response.status >= 500) owner.span.setStatus({ code: SpanStatusCode.ERROR });
      owner.span.end();
    },
  };
}

function endOperation(span: Span, usage: Operation, result: ExecutionResult): void {
  const cost = usage.cost;
  if (cost) {
    span.setAttribute('lookup_graph.cost.estimated', cost.estimated);
    span.setAttribute('lookup_graph.cost.budget', cost.budget);
  }
  span.setAttribute('lookup_graph.upstream_calls', usage.upstreamCalls);
  span.setAttribute('lookup_graph.lookups', usage.lookups.length);
  const codes = errorCodesOf(result.errors);
  if (codes.length > 0) span.setAttribute('lookup_graph.error_codes', [...new Set(codes)]);
  if (result.errors?.length && !result.data) span.setStatus({ code: SpanStatusCode.ERROR, message: codes[0] });
  span.end();
}

/** A request answered from a remembered result (src/cache/result-memo.ts): the operation it replays and what it stands on. */
interface ReplayedOperation {
  name: string | null;
  usage: Pick<Operation, 'cost' | 'lookups'>;
}

/**
 * A request answered from a remembered result: nothing was parsed, executed or looked up, so its request
 * span alone tells it (no operation or lookup span under it): the operation replayed, that it was a
 * replay (`lookup_graph.remembered_result`), and the cache entries the answer was checked against: how
 * many, of which actions, and from where. Every GraphQL request has its span (`useTracing`'s onRequest),
 * and a replay answers only GraphQL requests.
 */
export function traceReplay(request: Request, { name, usage }: ReplayedOperation): void {
  const span = traceOf(request)?.span;
  // Not sampled: nothing to describe.
  if (!span?.isRecording()) return;
  span.setAttribute('graphql.operation.type', 'query');
  if (name) span.setAttribute('graphql.operation.name', name);
  span.setAttribute('lookup_graph.remembered_result', true);
  span.setAttribute('lookup_graph.upstream_calls', 0);
  span.setAttribute('lookup_graph.lookups', usage.lookups.length);
  if (usage.cost) {
    span.setAttribute('lookup_graph.cost.estimated', usage.cost.estimated);
    span.setAttribute('lookup_graph.cost.budget', usage.cost.budget);
  }
  const actions = new Set<string>();
  const sources = new Map<string, number>();
  for (const lookup of usage.lookups) {
    actions.add(lookup.action);
    sources.set(lookup.source, (sources.get(lookup.source) ?? 0) + 1);
  }
  span.setAttribute('lookup_graph.lookup.actions', [...actions]);
  // As a span of several lookups says it: one source when they agree, else "mixed" with a count per source.
  span.setAttribute('lookup_graph.lookup.source', sources.size === 1 ? [...sources.keys()][0]! : 'mixed');
  for (const [source, count] of sources) span.setAttribute(`lookup_graph.lookup.${source}`, count);
}

/** One lookup of one key: its span, with where the value came from. */
function traceLookup<V>(
  operation: OperationSpan,
  action: string,
  key: string,
  run: (trace: Context) => Promise<LookupOutcome<V>>,
): Promise<LookupOutcome<V>> {
  const { tracing } = operation;
  const span = tracing.tracer.startSpan(
    `lookup ${action}`,
    { attributes: { 'lookup_graph.lookup.action': action } },
    operation.context,
  );
  // The key's HMAC only for a span that is kept: most are not, with a ratio sampler.
  const hashed = span.isRecording() ? tracing.keyForSpan(action, key) : undefined;
  if (hashed) span.setAttribute('lookup_graph.lookup.key_hash', hashed);
  return run(trace.setSpan(operation.context, span)).then(
    (outcome) => {
      span.setAttribute('lookup_graph.lookup.source', outcome.source);
      if (outcome.error) failed(span, outcome.error);
      span.end();
      return outcome;
    },
    (error: unknown) => {
      failed(span, error);
      span.end();
      throw error;
    },
  );
}

/** Several keys of one action looked up together (stock symbols): one span, counted by source. */
function traceLookups<V>(
  operation: OperationSpan,
  action: string,
  keys: readonly string[],
  run: (trace: Context) => Promise<LookupOutcome<V>[]>,
): Promise<LookupOutcome<V>[]> {
  const { tracing } = operation;
  const span = tracing.tracer.startSpan(
    `lookup ${action}`,
    { attributes: { 'lookup_graph.lookup.action': action, 'lookup_graph.lookup.keys': keys.length } },
    operation.context,
  );
  const hashes = span.isRecording()
    ? keys.map((key) => tracing.keyForSpan(action, key)).filter((hash): hash is string => hash !== undefined)
    : [];
  if (hashes.length) span.setAttribute('lookup_graph.lookup.key_hashes', hashes);
  return run(trace.setSpan(operation.context, span)).then(
    (outcomes) => {
      const sources = new Set(outcomes.map((outcome) => outcome.source));
      // One source when they agree, else "mixed" with a count per source.
      span.setAttribute('lookup_graph.lookup.source', sources.size === 1 ? [...sources][0]! : 'mixed');
      for (const source of sources)
        span.setAttribute(
          `lookup_graph.lookup.${source}`,
          outcomes.filter((outcome) => outcome.source === source).length,
        );
      const codes = outcomes.flatMap((outcome) =>
        outcome.error instanceof ActionError ? [outcome.error.code] : outcome.error ? ['INTERNAL'] : [],
      );
      if (codes.length > 0) span.setAttribute('lookup_graph.error_codes', [...new Set(codes)]);
      span.end();
      return outcomes;
    },
    (error: unknown) => {
      failed(span, error);
      span.end();
      throw error;
    },
  );
}

/** The trace context a lookup handed down (the cache's and the call's `trace`), when it holds a span to hang under. */
function lookupContext(handed: unknown): Context | undefined {
  const context = handed as Context | undefined;
  return context && trace.getSpan(context) ? context : undefined;
}

function failed(span: Span, error: unknown): void {
  const code = error instanceof ActionError ? error.code : 'INTERNAL';
  span.setAttribute('error.type', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/**
 * One lookup's way upstream, retries included: the span every HTTP attempt hangs under. Outside a
 * traced lookup (no `trace` in the options) it adds nothing.
 */
export function traceCallAction(tracing: TracingOn, callAction: CallAction): CallAction {
  return (action, body, options) => {
    const parent = lookupContext(options?.trace);
    if (!parent) return callAction(action, body, options);
    const span = tracing.tracer.startSpan(
      `upstream ${action}`,
      { attributes: { 'lookup_graph.upstream.action': action } },
      parent,
    );
    if (typeof body.company === 'string')
      span.setAttribute('lookup_graph.upstream.symbols', body.company.split(',').length);
    const attempts = { count: 0 };
    const finish = (outcome: string) => {
      span.setAttribute('lookup_graph.upstream.attempts', attempts.count);
      span.setAttribute('lookup_graph.upstream.retries', Math.max(0, attempts.count - 1));
      span.setAttribute('lookup_graph.upstream.outcome', outcome);
      if (outcome !== 'OK') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      span.end();
    };
    return callAction(action, body, {
      ...options,
      trace: trace.setSpan(parent, span).setValue(ATTEMPTS, attempts),
    }).then(
      (envelope) => {
        finish('OK');
        return envelope;
      },
      (error: unknown) => {
        finish(error instanceof ActionError ? error.code : 'INTERNAL');
        throw error;
      },
    );
  };
}

/** Each HTTP attempt to the upstream: a client span, and `traceparent` on the request when TRACE_PROPAGATE_UPSTREAM is on. */
export function upstreamCallObserver(tracing: TracingOn): CallObserver {
  return {
    start(action, origin, handed) {
      const parent = lookupContext(handed);
      if (!parent) return undefined;
      const attempts = parent.getValue(ATTEMPTS) as { count: number } | undefined;
      if (attempts) attempts.count += 1;
      const span = tracing.tracer.startSpan(
        `POST /v1/action/${action}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': 'POST',
            'server.address': origin.hostname,
            'server.port': Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80),
            'lookup_graph.upstream.action': action,
            ...(attempts && attempts.count > 1 ? { 'http.request.resend_count': attempts.count - 1 } : {}),
          },
        },
        parent,
      );
      let headers: Record<string, string> | undefined;
      if (tracing.settings.propagateUpstream) {
        headers = {};
        tracing.propagator.inject(trace.setSpan(parent, span), headers, {
          set: (carrier, key, value) => ((carrier as Record<string, string>)[key] = value),
        });
      }
      return {
        headers,
        done(call: CallOutcome) {
          if (call.upstreamStatus !== undefined) span.setAttribute('http.response.status_code', call.upstreamStatus);
          span.setAttribute('lookup_graph.upstream.outcome', call.outcome);
          if (call.outcome !== 'OK') {
            span.setAttribute('error.type', call.outcome);
            span.setStatus({ code: SpanStatusCode.ERROR, message: call.outcome });
          }
          span.end();
        },
      };
    },
  };
}

const REDIS_COMMANDS = {
  get: 'GET',
  set: 'SET',
  acquireLease: 'SET NX',
  releaseLease: 'EVAL',
  leaseHeld: 'EXISTS',
} as const;

/** Redis round trips of the cache as spans under the lookup that makes them (its `trace`, handed down by the cache). */
export function tracedStore(tracing: TracingOn, store: CacheStore): CacheStore {
  const round = <T>(
    method: keyof typeof REDIS_COMMANDS,
    handed: unknown,
    run: () => Promise<T>,
    describe?: (result: T, span: Span) => void,
  ): Promise<T> => {
    const parent = lookupContext(handed);
    if (!parent) return run();
    const command = REDIS_COMMANDS[method];
    const span = tracing.tracer.startSpan(
      `redis ${command}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'redis', 'db.operation.name': command, 'lookup_graph.cache.step': method },
      },
      parent,
    );
    return run().then(
      (result) => {
        describe?.(result, span);
        span.end();
        return result;
      },
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        throw error;
      },
    );
  };
  return {
    kind: store.kind,
    ...(store.peek ? { peek: (key: string) => store.peek!(key) } : {}),
    ...(store.peekStoredAt ? { peekStoredAt: (key: string) => store.peekStoredAt!(key) } : {}),
    get: (key, handed) =>
      round(
        'get',
        handed,
        () => store.get(key),
        (value, span) => span.setAttribute('lookup_graph.cache.hit', value !== undefined),
      ),
    set: (key, entry, ttlMs, valueJson, handed) => round('set', handed, () => store.set(key, entry, ttlMs, valueJson)),
    acquireLease: (key, ttlMs, handed) =>
      round(
        'acquireLease',
        handed,
        () => store.acquireLease(key, ttlMs),
        (won, span) => span.setAttribute('lookup_graph.cache.lease_acquired', won),
      ),
    releaseLease: (key, handed) => round('releaseLease', handed, () => store.releaseLease(key)),
    leaseHeld: (key, handed) => round('leaseHeld', handed, () => store.leaseHeld(key)),
    // Renewals run on a timer, under no lookup's span.
    ...(store.renewLeases
      ? { renewLeases: (keys: readonly string[], ttlMs: number) => store.renewLeases!(keys, ttlMs) }
      : {}),
    healthy: () => store.healthy(),
    close: () => store.close(),
  };
}
