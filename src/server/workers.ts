import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';

/** A worker that dies this soon after it was forked counts as a crash at start... */
const EARLY_DEATH_MS = 10_000;
/** ...and this many in a row stop the primary rather than fork forever. */
const EARLY_DEATHS_TO_GIVE_UP = 5;

export interface WorkerPool {
  /** The metrics listener's port, when METRICS_PORT is set (0 picks a free one). */
  metricsPort: number | null;
}

/**
 * The primary of WORKERS > 1 (node:cluster): forks `count` workers, each a whole gateway sharing the
 * port; replaces a worker that dies; on SIGTERM or SIGINT passes the signal on, so that every worker
 * drains, and exits once all have ended. With METRICS_PORT it serves /metrics summed over the workers
 * (prom-client's AggregatorRegistry), so a scrape sees the whole process group, not one worker.
 */
export async function runWorkerPool(
  count: number,
  logger: Logger,
  metrics: { host: string; port: number | null },
): Promise<WorkerPool> {
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

  const metricsServer = metrics.port === null ? null : await serveMetrics(metrics.host, metrics.port);
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'draining every worker');
    metricsServer?.server.close();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logger.info({ workers: count, pid: process.pid }, `starting ${count} gateway workers`);
  return { metricsPort: metricsServer?.port ?? null };
}

async function serveMetrics(host: string, port: number): Promise<{ server: Server; port: number }> {
  const registry = new AggregatorRegistry();
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://ops').pathname !== '/metrics' || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    registry.clusterMetrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : port };
}
