import type { Gauge } from 'prom-client';
import type { CacheStatus } from '../../cache/index.js';
import type { GaugeSpec } from '../../telemetry/metrics.js';
import type { ClientRateLimitStatus, ReadyReport } from '../probes.js';

/** What the readiness and Redis gauges read, at scrape time. */
export interface StateSources {
  ready: () => ReadyReport;
  cacheStatus: () => CacheStatus;
  clientRateLimit?: () => ClientRateLimitStatus;
  /** Whether new operations are refused for the event loop's delay now (SHED_EVENT_LOOP_DELAY_MS). */
  eventLoopBehind: () => boolean;
}

/**
 * Gauges of the state /readyz and /healthz report, so that the status page, dashboards and alerts read it
 * from the metrics like everything else: readiness, each Redis connection's health, and the event loop's
 * shedding. A Redis the settings do not use has no series.
 */
export function stateGauges(sources: StateSources): GaugeSpec[] {
  return [
    {
      name: 'lookup_graph_ready',
      help: '1 while /readyz answers 200 (ready, degraded or overloaded), 0 while starting or draining.',
      // Every worker must be ready for the process to be: the lowest.
      aggregator: 'min',
      collect: (gauge: Gauge) => gauge.set(sources.ready().ready ? 1 : 0),
    },
    {
      name: 'lookup_graph_redis_healthy',
      help: 'Per use of Redis (cache, rate_limit): 1 while it answers in time, 0 while it does not (the gateway then serves without it). No series when that use has no Redis.',
      labelNames: ['use'],
      // Unhealthy in any worker is unhealthy: the lowest.
      aggregator: 'min',
      collect: (gauge: Gauge) => {
        const cache = sources.cacheStatus();
        if (cache.backend === 'redis') gauge.set({ use: 'cache' }, cache.healthy ? 1 : 0);
        const limiter = sources.clientRateLimit?.();
        if (limiter?.backend === 'redis') gauge.set({ use: 'rate_limit' }, limiter.healthy ? 1 : 0);
      },
    },
    {
      name: 'lookup_graph_event_loop_shedding',
      help: "1 while new operations are refused (OVERLOADED) because the event loop's delay exceeds SHED_EVENT_LOOP_DELAY_MS, else 0.",
      // 1 while any worker sheds.
      aggregator: 'max',
      collect: (gauge: Gauge) => gauge.set(sources.eventLoopBehind() ? 1 : 0),
    },
  ];
}
