import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, Registry } from 'prom-client';
import { askWorker } from '../kernel/cluster-ipc.js';
import { countQuotasForWorkers } from '../quota/primary-counter.js';
import { shareCacheForWorkers } from '../cache/worker-group-store.js';
import { countHitsForWorkers } from '../security/rate-limit.js';
import { WORKER_METRICS_TOPIC } from '../telemetry/metrics.js';
import { statusRoute } from './status/serve.js';

/** A worker that dies this soon after it was forked counts as a crash at start... */
const EARLY_DEATH_MS = 10_000;
/** ...and this many in a row stop the primary rather than fork forever. */
const EARLY_DEATHS_TO_GIVE_UP = 5;

/** How long a scrape waits for a worker's metrics; one that does not answer counts with its last. */
const WORKER_METRICS_MS = 5_000;

type WorkerMetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Where the counts the workers must share are kept: by the primary (no REDIS_URL), in Redis, or nowhere (off). */
export interface SharedCounts {
  /** CLIENT_RATE_LIMIT_PER_MINUTE (0: off). */
  rateLimitPerMinute: number;
  rateLimitInRedis: boolean;
  /** Whether any client has a quota. */
  quotas: boolean;
  quotasInRedis: boolean;
  /** The lookup cache's bound (CACHE_MAX_MB) when it is on and not in Redis: the primary then holds the entries and leases the workers share; null otherwise. */
  cacheMaxBytes: number | null;
}

export interface WorkerPool {
  /** The metrics listener's port, when METRICS_PORT is set (0 picks a free one). */
  metricsPort: number | null;
}

/**
 * The primary of WORKERS > 1 (node:cluster): forks `count` workers, each a whole gateway sharing the
 * port; replaces a worker that dies; on SIGTERM or SIGINT passes the signal on, so that every worker
 * drains, and exits once all have ended. With METRICS_PORT it serves /metrics and the status page combined
 * over the workers (`WorkerMetrics`), so a scrape sees the whole process group, not one worker. Without REDIS_URL it holds
 * the client rate limit's windows and the quota counters every worker counts in, so a limit is one for the
 * process group.
 */
export async function runWorkerPool(
  count: number,
  logger: Logger,
  metrics: { host: string; port: number | null },
  shared: SharedCounts,
): Promise<WorkerPool> {
  const countsHere = {
    rateLimit: shared.rateLimitPerMinute > 0 && !shared.rateLimitInRedis,
    quotas: shared.quotas && !shared.quotasInRedis,
  };
  if (countsHere.rateLimit) countHitsForWorkers(shared.rateLimitPerMinute);
  if (countsHere.quotas) countQuotasForWorkers();
  if (shared.cacheMaxBytes !== null) shareCacheForWorkers(shared.cacheMaxBytes);
  const workerMetrics = new WorkerMetrics();
  let stopping = false;
  let earlyDeaths = 0;
  const bornAt = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork();
    bornAt.set(worker.id, Date.now());
  };
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const lived = Date.now() - (bornAt.get(worker.id) ?? 0);
    bornAt.delete(worker.id);
    workerMetrics.retire(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        logger.info('every worker stopped');
        process.exit(0);
      }
      return;
    }
    earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0;
    if (earlyDeaths >= EARLY_DEATHS_TO_GIVE_UP) {
      logger.fatal(
        { pid: worker.process.pid, code, signal },
        `${earlyDeaths} workers in a row died within ${EARLY_DEATH_MS / 1000} s of starting: stopping`,
      );
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    logger.warn({ pid: worker.process.pid, code, signal }, 'a worker died: starting another');
    fork();
  });
  for (let i = 0; i < count; i++) fork();

  const metricsServer = metrics.port === null ? null : await serveMetrics(metrics.host, metrics.port, workerMetrics);
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'draining every worker');
    metricsServer?.server.close();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const where = (on: boolean, inRedis: boolean) => (!on ? 'off' : inRedis ? 'redis' : 'primary');
  const counts = {
    rateLimit: where(shared.rateLimitPerMinute > 0, shared.rateLimitInRedis),
    quota: where(shared.quotas, shared.quotasInRedis),
  };
  const cache = shared.cacheMaxBytes !== null ? 'primary' : 'redis or off';
  const held = [
    countsHere.rateLimit && 'the client rate limit',
    countsHere.quotas && 'quotas',
    shared.cacheMaxBytes !== null && 'the cache and its coalescing',
  ].filter(Boolean);
  logger.info(
    { workers: count, pid: process.pid, counts, cache },
    `starting ${count} gateway workers` +
      (held.length > 0
        ? `; ${held.join(', ')} shared by all of them through this primary (no REDIS_URL)`
        : counts.rateLimit === 'redis' || counts.quota === 'redis'
          ? '; limits counted in Redis, once for every worker and replica'
          : ''),
  );
  return { metricsPort: metricsServer?.port ?? null };
}

/**
 * The workers' metrics as one: each gauge series combined by its own aggregator (sum, min, max…, set where
 * the gauge is defined, src/telemetry/metrics.ts), counters and histograms summed. A worker that dies leaves
 * its counters and histograms as last scraped, added to the totals from then on, so a total never goes back
 * when a worker is replaced (what it counted after its last scrape is lost, as with any process that dies).
 */
class WorkerMetrics {
  /** Each live worker's last answer, by worker id. */
  private readonly last = new Map<number, WorkerMetricsJson>();
  /** The counters and histograms of the workers that died, summed. */
  private retired: WorkerMetricsJson = [];

  async scrape(): Promise<Registry> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    await Promise.all(
      workers.map(async (worker) => {
        const fresh = await askWorker<WorkerMetricsJson>(worker, WORKER_METRICS_TOPIC, null, WORKER_METRICS_MS);
        if (fresh && !worker.isDead()) this.last.set(worker.id, fresh);
      }),
    );
    // Read together, at once: a worker retired meanwhile is in `retired` and no longer in `last`, never in both.
    return AggregatorRegistry.aggregate([...this.last.values(), this.retired]);
  }

  /** A worker ended: its counters and histograms stay in the totals, its gauges go. */
  retire(workerId: number): void {
    const last = this.last.get(workerId);
    this.last.delete(workerId);
    if (!last) return;
    const kept = last.filter(
      (metric) =>
        (String(metric.type) === 'counter' || String(metric.type) === 'histogram') &&
        (metric.aggregator ?? 'sum') === 'sum',
    );
    this.retired = sumSeries([this.retired, kept]);
  }
}

/** Counters and histograms summed series by series (synchronously, unlike a registry's JSON). */
function sumSeries(groups: WorkerMetricsJson[]): WorkerMetricsJson {
  const byName = new Map<string, { metric: WorkerMetricsJson[number]; values: Map<string, MetricValue<string>> }>();
  for (const metrics of groups) {
    for (const metric of metrics) {
      let entry = byName.get(metric.name);
      if (!entry) {
        entry = { metric, values: new Map() };
        byName.set(metric.name, entry);
      }
      for (const value of metric.values) {
        const labels = value.labels as Record<string, string | number>;
        const key = `${(value as { metricName?: string }).metricName ?? ''}{${Object.keys(labels)
          .sort()
          .map((name) => `${name}=${labels[name]}`)
          .join(',')}}`;
        const seen = entry.values.get(key);
        if (seen) seen.value += value.value;
        else entry.values.set(key, { ...value });
      }
    }
  }
  return [...byName.values()].map(({ metric, values }) => ({ ...metric, values: [...values.values()] }));
}

async function serveMetrics(
  host: string,
  port: number,
  workers: WorkerMetrics,
): Promise<{ server: Server; port: number }> {
  const contentType = Registry.PROMETHEUS_CONTENT_TYPE;
  // The status page reads the same sum over the workers as /metrics.
  const status = statusRoute(() => workers.scrape().then((registry) => registry.getMetricsAsJSON()));
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://ops').pathname;
    if (status.serve(pathname, req, res)) return;
    if (pathname !== '/metrics' || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    workers
      .scrape()
      .then((registry) => registry.metrics())
      .then(
        (text) => res.writeHead(200, { 'content-type': contentType }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed'),
      );
  });
  server.once('close', () => status.close());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
