import { type Aggregator, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LookupSource } from '../cache/lookup-cache.js';
import type { CachePart } from '../cache/store.js';
import type { CallOutcome } from '../upstream/client.js';
import { ActionError } from '../kernel/errors.js';
import { countByCode } from './errors.js';
import type { CallAction, UpstreamStatus } from '../upstream/index.js';
import { answer } from '../kernel/cluster-ipc.js';

/** What the primary of WORKERS > 1 asks each worker for: its registry as JSON (src/server/workers.ts). */
export const WORKER_METRICS_TOPIC = 'metrics';

/**
 * A gauge read at scrape time. `aggregator`: how the primary of WORKERS > 1 combines the workers' values of
 * one series on its /metrics (prom-client's AggregatorRegistry): sum for what each worker holds of its own,
 * min, max or first for what describes one thing they all see.
 */
export interface GaugeSpec {
  name: string;
  help: string;
  labelNames?: string[];
  aggregator: Aggregator;
  collect: (gauge: Gauge) => void;
}

/** An operation answered whole: ok (no errors), partial (data and errors) or error (no data). */
export type OperationOutcome = 'ok' | 'partial' | 'error';

/** The outcome of one result answered whole. */
export function outcomeOf({ errors, data }: ExecutionResult): OperationOutcome {
  return !errors?.length ? 'ok' : data ? 'partial' : 'error';
}

/**
 * Prometheus metrics, on a registry of this gateway's own (several gateways can live in one
 * process, as in the tests). Served at GET /metrics by the probes (src/server/probes.ts).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly upstreamCalls = new Counter({
    name: 'lookup_graph_upstream_calls_total',
    help: 'HTTP calls sent to the upstream (each retry counts; never a lookup refused, shed or cancelled before it was sent, nor a connection that failed), by action and outcome (OK or the error code; CLIENT_CLOSED: cancelled because its clients went away).',
    labelNames: ['action', 'outcome'],
    registers: [this.registry],
  });
  private readonly upstreamLatency = new Histogram({
    name: 'lookup_graph_upstream_call_duration_seconds',
    help: 'Duration of each HTTP call sent to the upstream.',
    labelNames: ['action'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly upstreamRequests = new Counter({
    name: 'lookup_graph_upstream_requests_total',
    help: 'Lookups the loaders sent towards the upstream, by action and final outcome; refusals by the rate-limit gate, an open breaker or a full queue count here and not as calls.',
    labelNames: ['action', 'outcome'],
    registers: [this.registry],
  });
  private readonly shedLookups = new Counter({
    name: 'lookup_graph_upstream_shed_total',
    help: "Lookups the gateway refused without calling the upstream to stay responsive, by action and reason: queue-full, no-slot-in-time (refused at once: the calls ahead would hold it past its wait deadline), wait-expired (waited until its deadline), client-share (RATE_LIMITED: the client's own share was full). The others are OVERLOADED.",
    labelNames: ['action', 'reason'],
    registers: [this.registry],
  });
  private readonly lookups = new Counter({
    name: 'lookup_graph_cache_lookups_total',
    help: "Lookups by action and where their value came from: cache (hit), upstream (miss), coalesced (joined another request's call) or refused (no call: held, shed, breaker open, out of budget or time, client gone).",
    labelNames: ['action', 'source'],
    registers: [this.registry],
  });
  private readonly quotaCharged = new Counter({
    name: 'lookup_graph_quota_calls_charged_total',
    help: "Upstream calls charged to clients' quotas, by client name from the API keys file (unnamed for keys without one, forwarded for forwarded tokens).",
    labelNames: ['client'],
    registers: [this.registry],
  });
  private readonly quotaRemaining = new Gauge({
    name: 'lookup_graph_quota_remaining',
    help: "Calls left in a named client's quota window, as this replica last saw it.",
    labelNames: ['client'],
    // Workers count one quota (the primary's, or Redis's), so the lowest any of them saw is the latest.
    aggregator: 'min',
    registers: [this.registry],
  });
  private readonly quotaLimit = new Gauge({
    name: 'lookup_graph_quota_limit',
    help: 'Calls a named client may make per quota window (its own quota in the API keys file, else CLIENT_QUOTA), by client and window (minute, hour, day, month).',
    labelNames: ['client', 'window'],
    // The same setting in every worker.
    aggregator: 'max',
    registers: [this.registry],
  });
  private readonly keySetFetches = new Counter({
    name: 'lookup_graph_identity_key_set_fetches_total',
    help: "Fetches of the identity provider's discovery document and signing keys (JWT_ISSUER, JWT_JWKS_URL), by outcome: ok or error.",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly replays = new Counter({
    name: 'lookup_graph_result_replays_total',
    help: 'Operations answered from a remembered result: every lookup still cached, no resolver run; their lookups count as cache hits too.',
    registers: [this.registry],
  });
  private readonly liveOpen = new Gauge({
    name: 'lookup_graph_live_operations',
    help: 'Live queries (@live) open now: streams this process keeps current.',
    aggregator: 'sum',
    registers: [this.registry],
  });
  private readonly livePolls = new Counter({
    name: 'lookup_graph_live_polls_total',
    help: "Live polls of watched lookups, one per lookup per interval, by action and outcome: made (this replica made the call), shared (another replica's call served it), unpaid (no watcher's quota could pay).",
    labelNames: ['action', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly livePushes = new Counter({
    name: 'lookup_graph_live_pushes_total',
    help: 'Results pushed to live queries after their first: each one a value that changed.',
    registers: [this.registry],
  });
  private readonly batchSize = new Histogram({
    name: 'lookup_graph_financial_batch_symbols',
    help: 'Symbols per financial-profile upstream call.',
    buckets: [1, 2, 3, 5, 10, 20, 50, 100],
    registers: [this.registry],
  });
  private readonly operations = new Counter({
    name: 'lookup_graph_graphql_operations_total',
    help: 'GraphQL operations by outcome: ok (no errors), partial (data and errors), error (no data), aborted (@defer/@stream whose client hung up before the last payload).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly requestDuration = new Histogram({
    name: 'lookup_graph_graphql_request_duration_seconds',
    help: 'Duration of each /graphql request, arrival to response, by operation: the names of trusted documents and METRICS_OPERATION_NAMES, else anonymous, other or batch.',
    labelNames: ['operation'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly errors = new Counter({
    name: 'lookup_graph_graphql_errors_total',
    help: 'Errors in /graphql responses by extensions.code (UNCODED without one, OTHER for a code outside the known form).',
    labelNames: ['code'],
    registers: [this.registry],
  });

  /**
   * @param batchedSymbols whether an action's lookups are stock symbols batched into one call (its batch sizes are observed)
   */
  constructor(
    private readonly batchedSymbols: (action: string) => boolean,
    gauges: GaugeSpec[] = [],
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'lookup_graph_' });
    // A limit of each process, not something the workers hold between them.
    const maxFds = this.registry.getSingleMetric('lookup_graph_process_max_fds') as
      | { aggregator: Aggregator }
      | undefined;
    if (maxFds) maxFds.aggregator = 'min';
    for (const { name, help, labelNames, aggregator, collect } of gauges) {
      new Gauge({
        name,
        help,
        labelNames: labelNames ?? [],
        aggregator,
        registers: [this.registry],
        collect() {
          collect(this);
        },
      });
    }
  }

  /** In a worker of WORKERS > 1: answer the primary's requests for this registry, which it combines over the workers. */
  reportToPrimary(): void {
    answer(WORKER_METRICS_TOPIC, () => this.registry.getMetricsAsJSON());
  }

  /**
   * The named clients of the API keys file, known from the start: each has a series of charged calls (0 until
   * it is charged) and, when it has a quota, its limit.
   */
  knownClients(clients: ReadonlyArray<{ name: string; quota: { limit: number; window: string } | null }>): void {
    for (const { name, quota } of clients) {
      this.quotaCharged.inc({ client: name }, 0);
      if (quota) this.quotaLimit.set({ client: name, window: quota.window }, quota.limit);
    }
  }

  /** The Prometheus text of every metric and its content type, as GET /metrics answers it. */
  exposition = async (): Promise<{ text: string; contentType: string }> => ({
    text: await this.registry.metrics(),
    contentType: this.registry.contentType,
  });

  observeLookup = (action: string, source: LookupSource): void => {
    this.lookups.inc({ action, source });
  };

  /** A call charged to a client's quota (charged 1) or a look at it (charged 0), and its remaining quota when it is named. */
  observeQuota = (client: string, charged: number, remaining: number | null): void => {
    if (charged > 0) this.quotaCharged.inc({ client }, charged);
    if (remaining !== null) this.quotaRemaining.set({ client }, remaining);
  };

  /** One fetch of the identity provider's key set (with its discovery document, when it was needed). */
  observeKeySetFetch = (outcome: 'ok' | 'error'): void => {
    this.keySetFetches.inc({ outcome });
  };

  /** Live queries (src/operation/live.ts): one opened or ended, and each result pushed. */
  readonly observeLive = {
    opened: (delta: 1 | -1): void => this.liveOpen.inc(delta),
    pushed: (): void => this.livePushes.inc(),
  };

  /** One live poll of a watched lookup (src/cache/live-polls.ts). */
  observeLivePoll = (action: string, outcome: 'made' | 'shared' | 'unpaid'): void => {
    this.livePolls.inc({ action, outcome });
  };

  observeReplay = (): void => {
    this.replays.inc();
  };

  /** One /graphql request, as the request log sees it (src/telemetry/request-log.ts): its duration, error codes and the outcome of each operation answered whole. */
  observeRequest = (
    operation: string,
    seconds: number,
    errorCodes: readonly string[],
    outcomes: readonly OperationOutcome[],
  ): void => {
    this.requestDuration.observe({ operation }, seconds);
    for (const [code, count] of Object.entries(countByCode(errorCodes))) this.errors.inc({ code }, count);
    for (const outcome of outcomes) this.operations.inc({ outcome });
  };

  /** Each HTTP call the client sent (retries included), as the ActionClient reports it. */
  observeCall = (call: CallOutcome): void => {
    if (!call.sent) return;
    this.upstreamCalls.inc({ action: call.action, outcome: call.outcome });
    this.upstreamLatency.observe({ action: call.action }, call.durationMs / 1000);
  };

  /** Wraps the way upstream so every lookup request is counted with its final outcome. */
  instrument(callAction: CallAction): CallAction {
    return async (action, body, options) => {
      try {
        const envelope = await callAction(action, body, options);
        this.upstreamRequests.inc({ action, outcome: 'OK' });
        if (this.batchedSymbols(action) && typeof body.company === 'string') {
          this.batchSize.observe(body.company.split(',').length);
        }
        return envelope;
      } catch (error) {
        this.upstreamRequests.inc({ action, outcome: error instanceof ActionError ? error.code : 'UNEXPECTED' });
        if (error instanceof ActionError && error.shed) this.shedLookups.inc({ action, reason: error.shed });
        throw error;
      }
    };
  }

  /** Counts an operation delivered incrementally once its last payload is out, or once its client hung up before (see useIncrementalOutcomes). */
  readonly observeIncremental = (outcome: 'ok' | 'partial' | 'aborted'): void => {
    this.operations.inc({ outcome });
  };
}

/**
 * Counts operations delivered incrementally (@defer/@stream) once their last payload is out: 'partial'
 * when any payload carried errors; 'aborted' when the stream ended before its last payload (the client
 * hung up). The request log counts every other operation (observeRequest).
 */
export function useIncrementalOutcomes(metrics: Metrics): Plugin {
  return {
    onExecute: () => ({
      onExecuteDone: ({ result }) => {
        if (!(Symbol.asyncIterator in result)) return undefined;
        let errors = false;
        let delivered = false;
        return {
          onNext: ({ result: payload }) => {
            if (
              payload.errors?.length ||
              ('incremental' in payload && payload.incremental?.some((part) => part.errors?.length))
            )
              errors = true;
            if ('hasNext' in payload && payload.hasNext === false) {
              delivered = true;
              metrics.observeIncremental(errors ? 'partial' : 'ok');
            }
          },
          // Ended without its last payload: the stream was closed, its client gone.
          onEnd: () => {
            if (!delivered) metrics.observeIncremental('aborted');
          },
        };
      },
    }),
  };
}

/** Gauges read from the upstream's status at scrape time: its budget, breakers and load. */
export function upstreamGauges(status: () => UpstreamStatus): GaugeSpec[] {
  return [
    {
      name: 'lookup_graph_upstream_ratelimit_remaining',
      help: 'Upstream calls left in the current rate-limit window, as the upstream last said (absent until it says).',
      // One budget, told to each worker on its own calls: the lowest is the upstream's latest word in the window.
      aggregator: 'min',
      collect: (gauge: Gauge) => {
        const remaining = status().rateLimit.remaining;
        if (remaining !== null) gauge.set(remaining);
      },
    },
    {
      name: 'lookup_graph_upstream_ratelimit_holding',
      help: '1 while the gateway refuses calls because the upstream budget is spent, else 0.',
      // 1 while any worker holds.
      aggregator: 'max',
      collect: (gauge: Gauge) => gauge.set(status().rateLimit.holding ? 1 : 0),
    },
    {
      name: 'lookup_graph_upstream_breaker_open',
      help: 'Per action: 1 when its circuit breaker is open or half-open, 0 when closed.',
      labelNames: ['action'],
      // Each worker has its own breakers: 1 while any of them is open.
      aggregator: 'max',
      collect: (gauge: Gauge) => {
        for (const [action, breaker] of Object.entries(status().breakers))
          gauge.set({ action }, breaker.state === 'closed' ? 0 : 1);
      },
    },
    {
      name: 'lookup_graph_upstream_in_flight',
      help: 'Upstream calls in flight now.',
      aggregator: 'sum',
      collect: (gauge: Gauge) => gauge.set(status().inFlight),
    },
    {
      name: 'lookup_graph_upstream_overloaded',
      help: '1 while the gateway sheds lookups for load (from the first shed until 5 s pass without one), else 0; /readyz then reports "overloaded".',
      // 1 while any worker sheds.
      aggregator: 'max',
      collect: (gauge: Gauge) => gauge.set(status().overload.overloaded ? 1 : 0),
    },
    {
      name: 'lookup_graph_upstream_queued',
      help: 'Upstream calls waiting for a free slot now.',
      aggregator: 'sum',
      collect: (gauge: Gauge) => gauge.set(status().queued),
    },
  ];
}

/**
 * Gauges of what the in-process caches hold, read at scrape time, each by its own count against its bound:
 * the entries (CACHE_MAX_MB), their parsed copies (an eighth of it, on top) and the remembered results
 * (CACHE_RESULTS_MB). With Redis only the results, which each process keeps; none with the cache off.
 */
export function cacheGauges(parts: () => CachePart[]): GaugeSpec[] {
  return [
    {
      name: 'lookup_graph_cache_bytes',
      help: 'Bytes the in-process caches hold, by part (entries: their JSON; parsed: entries read again, kept parsed, at twice their JSON; results: remembered results; documents: parsed and compiled GraphQL documents, estimated).',
      labelNames: ['part'],
      // Each worker holds caches of its own: the memory they take together.
      aggregator: 'sum',
      collect: (gauge: Gauge) => {
        for (const { part, bytes } of parts()) gauge.set({ part }, bytes);
      },
    },
    {
      name: 'lookup_graph_cache_entries',
      help: 'Entries the in-process caches hold, by part (entries, parsed, results, documents).',
      labelNames: ['part'],
      aggregator: 'sum',
      collect: (gauge: Gauge) => {
        for (const { part, entries } of parts()) gauge.set({ part }, entries);
      },
    },
  ];
}
