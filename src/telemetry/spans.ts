import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';
import type { LookupReport } from '../cache/lookup-report.js';
import type { GatewayContext } from '../operation/context.js';
import type { Operation, OperationTrace } from '../operation/operation.js';
import type { CallAction } from '../upstream/index.js';
import type { CallTrace, LookupTrace, StoreStep, StoreStepResult } from '../kernel/lookup-trace.js';
import { describeOperation } from '../kernel/describe-operation.js';
import { ActionError } from '../kernel/errors.js';
import { errorCodesOf } from './errors.js';
import type { TracingOn } from './tracing.js';
import { isGraphQLRequest } from '../kernel/graphql-path.js';
import { TRACE, type Traced, traceOf } from './request-trace.js';

/**
 * The spans of one request, by hand with @opentelemetry/api. A query with one uncached lookup makes three:
 *
 *   POST /graphql (server, continues the client's traceparent; answered from a remembered result:
 *   │              this span alone, with the operation and `lookup_graph.remembered_result`)
 *   └─ query Name (the GraphQL operation: type, name, cost estimate, upstream calls, its lookups counted
 *      │           by source; each Redis round trip of its lookups an event `redis <COMMAND>`)
 *      └─ upstream <action> (client, one per upstream call: retries included, each HTTP attempt an event
 *                            `attempt` with its status and outcome code; the lookup's key hashed or omitted)
 *
 * A lookup has no span of its own: a cached one adds nothing but its count on the operation's span.
 * Lookups take their trace from the Operation (`trace`, shared by Yoga's copies of the context) and hand
 * it down with their work (the cache's `trace`, the call's `trace` option): no context manager, so no
 * async hook runs for every promise of the process.
 */

/** Where the upstream calls go, as each call's span names it. */
interface CallTarget {
  address: string;
  port: number;
}

/** The operation's span: what its lookups' traces tell their steps to, and the parent of their calls. */
class TracedOperation implements OperationTrace {
  constructor(
    readonly tracing: TracingOn,
    readonly span: Span,
    readonly context: Context,
    readonly target: CallTarget,
  ) {}

  lookup(action: string, keys: string | readonly string[]): LookupTrace {
    return new TracedLookup(this, action, keys);
  }
}

const REDIS_COMMANDS: Readonly<Record<StoreStep, string>> = {
  get: 'GET',
  set: 'SET',
  acquireLease: 'SET NX',
  releaseLease: 'EVAL',
  leaseHeld: 'EXISTS',
};

/** One lookup's trace: its store round trips as events on the operation's span, its call as a span under it. */
class TracedLookup implements LookupTrace {
  constructor(
    private readonly operation: TracedOperation,
    private readonly action: string,
    private readonly keys: string | readonly string[],
  ) {}

  storeStep(step: StoreStep, startedAt: number, result: StoreStepResult): void {
    const span = this.operation.span;
    // Not sampled: nothing to tell.
    if (!span.isRecording()) return;
    span.addEvent(
      `redis ${REDIS_COMMANDS[step]}`,
      {
        'db.system.name': 'redis',
        'lookup_graph.lookup.action': this.action,
        'lookup_graph.cache.result': result,
        'lookup_graph.duration_ms': Date.now() - startedAt,
      },
      startedAt,
    );
  }

  startCall(action: string, body: Readonly<Record<string, unknown>>): CallTrace {
    const { tracing, context, target } = this.operation;
    const span = tracing.tracer.startSpan(
      `upstream ${action}`,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'server.address': target.address,
          'server.port': target.port,
          'lookup_graph.upstream.action': action,
        },
      },
      context,
    );
    let headers: Record<string, string> | undefined;
    if (span.isRecording()) {
      // The keys' HMAC only for a span that is kept and a call that is made: most lookups are neither.
      const keys = this.keys;
      if (typeof keys === 'string') {
        const hashed = tracing.keyForSpan(this.action, keys);
        if (hashed) span.setAttribute('lookup_graph.lookup.key_hash', hashed);
      } else {
        const hashes: string[] = [];
        for (const key of keys) {
          const hashed = tracing.keyForSpan(this.action, key);
          if (hashed) hashes.push(hashed);
        }
        if (hashes.length) span.setAttribute('lookup_graph.lookup.key_hashes', hashes);
      }
      if (typeof body.company === 'string')
        span.setAttribute('lookup_graph.upstream.symbols', body.company.split(',').length);
    }
    if (tracing.settings.propagateUpstream) {
      headers = {};
      tracing.propagator.inject(trace.setSpan(context, span), headers, {
        set: (carrier, key, value) => ((carrier as Record<string, string>)[key] = value),
      });
    }
    return new TracedCall(span, headers);
  }
}

/** One upstream call's span: its HTTP attempts as events, its outcome when it ends. */
class TracedCall implements CallTrace {
  private attempts = 0;
  private status: number | undefined;

  constructor(
    private readonly span: Span,
    readonly headers: Record<string, string> | undefined,
  ) {}

  attempt(status: number | undefined, outcome: string, durationMs: number): void {
    this.attempts += 1;
    this.status = status;
    if (!this.span.isRecording()) return;
    // One attributes object an attempt; no status when no response came.
    const attributes: Attributes = {
      'lookup_graph.upstream.outcome': outcome,
      'http.request.resend_count': this.attempts - 1,
      'lookup_graph.duration_ms': durationMs,
    };
    if (status !== undefined) attributes['http.response.status_code'] = status;
    this.span.addEvent('attempt', attributes);
  }

  end(outcome: string): void {
    const span = this.span;
    if (span.isRecording()) {
      if (this.status !== undefined) span.setAttribute('http.response.status_code', this.status);
      span.setAttribute('lookup_graph.upstream.attempts', this.attempts);
      span.setAttribute('lookup_graph.upstream.retries', Math.max(0, this.attempts - 1));
      span.setAttribute('lookup_graph.upstream.outcome', outcome);
      if (outcome !== 'OK') {
        span.setAttribute('error.type', outcome);
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
      }
    }
    span.end();
  }
}

const headerGetter = {
  keys: (headers: Headers) => [...headers.keys()],
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

/** The request and operation spans. Installed first, so refused requests have their span too. */
export function useTracing(tracing: TracingOn, upstream: URL): Plugin<GatewayContext> {
  const { tracer, propagator } = tracing;
  const target: CallTarget = {
    address: upstream.hostname,
    port: Number(upstream.port) || (upstream.protocol === 'https:' ? 443 : 80),
  };
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
      ctx.operation.trace = new TracedOperation(tracing, span, trace.setSpan(parent, span), target);
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
  if (span.isRecording()) {
    const cost = usage.cost;
    if (cost) {
      span.setAttribute('lookup_graph.cost.estimated', cost.estimated);
      span.setAttribute('lookup_graph.cost.budget', cost.budget);
    }
    span.setAttribute('lookup_graph.upstream_calls', usage.upstreamCalls);
    describeLookups(span, usage.lookups);
    const codes = errorCodesOf(result.errors);
    if (codes.length > 0) span.setAttribute('lookup_graph.error_codes', [...new Set(codes)]);
    if (result.errors?.length && !result.data) span.setStatus({ code: SpanStatusCode.ERROR, message: codes[0] });
  }
  span.end();
}

/**
 * An operation's lookups on its span: how many, of which actions, and where their values came from (one
 * source when they agree, else "mixed", with a count per source).
 */
function describeLookups(span: Span, lookups: readonly LookupReport[]): void {
  span.setAttribute('lookup_graph.lookups', lookups.length);
  if (lookups.length === 0) return;
  const actions = new Set<string>();
  const sources = new Map<string, number>();
  for (const lookup of lookups) {
    actions.add(lookup.action);
    sources.set(lookup.source, (sources.get(lookup.source) ?? 0) + 1);
  }
  span.setAttribute('lookup_graph.lookup.actions', [...actions]);
  span.setAttribute('lookup_graph.lookup.source', sources.size === 1 ? [...sources.keys()][0]! : 'mixed');
  for (const [source, count] of sources) span.setAttribute(`lookup_graph.lookup.${source}`, count);
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
  if (usage.cost) {
    span.setAttribute('lookup_graph.cost.estimated', usage.cost.estimated);
    span.setAttribute('lookup_graph.cost.budget', usage.cost.budget);
  }
  describeLookups(span, usage.lookups);
}

/**
 * Each call from a traced lookup (its `trace`) gets its span, told each HTTP attempt (`attempts`, read by
 * the client). Outside a traced lookup it adds nothing.
 */
export function traceCallAction(callAction: CallAction): CallAction {
  return (action, body, options) => {
    const lookup = options?.trace;
    if (!lookup) return callAction(action, body, options);
    const call = lookup.startCall(action, body);
    return callAction(action, body, { ...options, attempts: call }).then(
      (envelope) => {
        call.end('OK');
        return envelope;
      },
      (error: unknown) => {
        call.end(error instanceof ActionError ? error.code : 'INTERNAL');
        throw error;
      },
    );
  };
}

/** The cache's Redis round trips, each told to the lookup that makes it (its `trace`, handed down by the cache). */
export function tracedStore(store: CacheStore): CacheStore {
  const round = <T>(
    step: StoreStep,
    lookup: LookupTrace | undefined,
    run: () => Promise<T>,
    result: (value: T) => StoreStepResult,
  ): Promise<T> => {
    if (!lookup) return run();
    const startedAt = Date.now();
    return run().then(
      (value) => {
        lookup.storeStep(step, startedAt, result(value));
        return value;
      },
      (error: unknown) => {
        lookup.storeStep(step, startedAt, 'failed');
        throw error;
      },
    );
  };
  const ok = (): StoreStepResult => 'ok';
  return {
    kind: store.kind,
    ...(store.peek ? { peek: (key: string) => store.peek!(key) } : {}),
    ...(store.peekStoredAt ? { peekStoredAt: (key: string) => store.peekStoredAt!(key) } : {}),
    ...(store.storedAt ? { storedAt: (key: string) => store.storedAt!(key) } : {}),
    ...(store.parts ? { parts: () => store.parts!() } : {}),
    get: (key, lookup) =>
      round(
        'get',
        lookup,
        () => store.get(key),
        (entry) => (entry === undefined ? 'miss' : 'hit'),
      ),
    set: (key, entry, ttlMs, valueJson, lookup) =>
      round('set', lookup, () => store.set(key, entry, ttlMs, valueJson), ok),
    acquireLease: (key, ttlMs, lookup) =>
      round(
        'acquireLease',
        lookup,
        () => store.acquireLease(key, ttlMs),
        (won) => (won ? 'won' : 'lost'),
      ),
    releaseLease: (key, lookup) => round('releaseLease', lookup, () => store.releaseLease(key), ok),
    leaseHeld: (key, lookup) =>
      round(
        'leaseHeld',
        lookup,
        () => store.leaseHeld(key),
        (held) => (held ? 'hit' : 'miss'),
      ),
    // Renewals run on a timer, for no one lookup.
    ...(store.renewLeases
      ? { renewLeases: (keys: readonly string[], ttlMs: number) => store.renewLeases!(keys, ttlMs) }
      : {}),
    healthy: () => store.healthy(),
    close: () => store.close(),
  };
}
