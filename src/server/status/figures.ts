import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { type QuotaWindow, windowAt } from '../../quota/window.js';

/** The registry as prom-client's JSON: the process's own, or the primary's sum over the workers of WORKERS. */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Cumulative counts and current gauges, read from the registry at one moment. */
export interface Figures {
  /** Epoch ms. */
  at: number;
  requests: number;
  /** Requests per upper bound of the duration histogram (cumulative, as Prometheus counts them). */
  durationBuckets: Array<[number, number]>;
  errors: Record<string, number>;
  /** Upstream HTTP calls, by action then outcome. */
  calls: Record<string, Record<string, number>>;
  /** Lookups by where their value came from (cache, upstream, coalesced, refused). */
  lookups: Record<string, number>;
  replays: number;
  gcSeconds: number;
  gcCount: number;
  eventLoopMaxSeconds: number | null;
  eventLoopP99Seconds: number | null;
  residentBytes: number | null;
  heapUsedBytes: number | null;
  quotas: QuotaFigure[];
  ready: boolean | null;
  holding: boolean;
  overloaded: boolean;
  eventLoopShedding: boolean;
  breakersOpen: string[];
  redis: Record<string, boolean>;
  inFlight: number;
  queued: number;
}

/** A named client's quota, from the quota gauges (names come from the API keys file, never from a request). */
interface QuotaFigure {
  client: string;
  window: QuotaWindow;
  limit: number;
  /** As last seen; null until the client was charged or looked at since start. */
  remaining: number | null;
  charged: number;
  /** When the current window ends (epoch ms): the quota is whole again. */
  resetAt: number;
}

type Value = MetricValue<string> & { metricName?: string };

function valuesOf(metrics: MetricsJson, name: string): Value[] {
  return (metrics.find((metric) => metric.name === name)?.values ?? []) as Value[];
}

function sum(values: Value[], where: (value: Value) => boolean = () => true): number {
  return values.filter(where).reduce((total, value) => total + value.value, 0);
}

function byLabel(values: Value[], label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) {
    const key = String(value.labels[label] ?? '');
    out[key] = (out[key] ?? 0) + value.value;
  }
  return out;
}

function gauge(metrics: MetricsJson, name: string): number | null {
  const values = valuesOf(metrics, name);
  return values.length > 0 ? sum(values) : null;
}

/** Reads the figures the status page shows out of the registry's JSON. */
export function readFigures(metrics: MetricsJson, at: number): Figures {
  const duration = valuesOf(metrics, 'lookup_graph_graphql_request_duration_seconds');
  const buckets = new Map<number, number>();
  for (const value of duration) {
    if (value.metricName?.endsWith('_bucket') !== true) continue;
    const le = value.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(value.labels.le);
    buckets.set(le, (buckets.get(le) ?? 0) + value.value);
  }
  const calls: Record<string, Record<string, number>> = {};
  for (const value of valuesOf(metrics, 'lookup_graph_upstream_calls_total')) {
    const action = String(value.labels.action);
    const outcome = String(value.labels.outcome);
    calls[action] ??= {};
    calls[action][outcome] = (calls[action][outcome] ?? 0) + value.value;
  }
  const gc = valuesOf(metrics, 'lookup_graph_nodejs_gc_duration_seconds');
  const charged = byLabel(valuesOf(metrics, 'lookup_graph_quota_calls_charged_total'), 'client');
  const remaining = byLabel(valuesOf(metrics, 'lookup_graph_quota_remaining'), 'client');
  const quotas = valuesOf(metrics, 'lookup_graph_quota_limit')
    .map((value) => {
      const client = String(value.labels.client);
      const window = String(value.labels.window) as QuotaWindow;
      return {
        client,
        window,
        limit: value.value,
        remaining: client in remaining ? remaining[client]! : null,
        charged: charged[client] ?? 0,
        resetAt: windowAt(window, at).end,
      };
    })
    .sort((a, b) => a.client.localeCompare(b.client));
  const redis: Record<string, boolean> = {};
  for (const value of valuesOf(metrics, 'lookup_graph_redis_healthy'))
    redis[String(value.labels.use)] = value.value > 0;
  const ready = gauge(metrics, 'lookup_graph_ready');
  return {
    at,
    requests: sum(duration, (value) => value.metricName?.endsWith('_count') === true),
    durationBuckets: [...buckets.entries()].sort((a, b) => a[0] - b[0]),
    errors: byLabel(valuesOf(metrics, 'lookup_graph_graphql_errors_total'), 'code'),
    calls,
    lookups: byLabel(valuesOf(metrics, 'lookup_graph_cache_lookups_total'), 'source'),
    replays: sum(valuesOf(metrics, 'lookup_graph_result_replays_total')),
    gcSeconds: sum(gc, (value) => value.metricName?.endsWith('_sum') === true),
    gcCount: sum(gc, (value) => value.metricName?.endsWith('_count') === true),
    eventLoopMaxSeconds: gauge(metrics, 'lookup_graph_nodejs_eventloop_lag_max_seconds'),
    eventLoopP99Seconds: gauge(metrics, 'lookup_graph_nodejs_eventloop_lag_p99_seconds'),
    residentBytes: gauge(metrics, 'lookup_graph_process_resident_memory_bytes'),
    heapUsedBytes: gauge(metrics, 'lookup_graph_nodejs_heap_size_used_bytes'),
    quotas,
    ready: ready === null ? null : ready > 0,
    holding: (gauge(metrics, 'lookup_graph_upstream_ratelimit_holding') ?? 0) > 0,
    overloaded: (gauge(metrics, 'lookup_graph_upstream_overloaded') ?? 0) > 0,
    eventLoopShedding: (gauge(metrics, 'lookup_graph_event_loop_shedding') ?? 0) > 0,
    breakersOpen: valuesOf(metrics, 'lookup_graph_upstream_breaker_open')
      .filter((value) => value.value > 0)
      .map((value) => String(value.labels.action))
      .sort(),
    redis,
    inFlight: gauge(metrics, 'lookup_graph_upstream_in_flight') ?? 0,
    queued: gauge(metrics, 'lookup_graph_upstream_queued') ?? 0,
  };
}

/**
 * The q-quantile of the requests that fell between two cumulative bucket sets, interpolated inside its
 * bucket as Prometheus' histogram_quantile does; null without requests.
 */
export function quantileBetween(
  before: Array<[number, number]>,
  after: Array<[number, number]>,
  q: number,
): number | null {
  const earlier = new Map(before);
  const counts = after.map(([le, count]) => [le, count - (earlier.get(le) ?? 0)] as const);
  const total = counts.at(-1)?.[1] ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [le, count] of counts) {
    if (count >= rank) {
      // In the +Inf bucket: the highest finite bound, as Prometheus answers.
      if (!Number.isFinite(le)) return lowerBound;
      return lowerBound + ((le - lowerBound) * (rank - lowerCount)) / Math.max(count - lowerCount, 1e-12);
    }
    lowerBound = le;
    lowerCount = count;
  }
  return lowerBound;
}
