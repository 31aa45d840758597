import { loadConfigOrExit } from './config.js';
import { createGateway } from './gateway.js';
import { createHttpServer } from './server/http-server.js';
import pino from 'pino';
import { createLogger, describeError } from './kernel/logger.js';
import { startOpsServer } from './server/ops-server.js';
import cluster from 'node:cluster';
import { runWorkerPool } from './server/workers.js';

/** The only file that listens: config -> gateway -> HTTP server -> graceful shutdown. */
async function main() {
  const config = loadConfigOrExit();
  // Written asynchronously (lines queue while a write is under way), so a burst of lines never blocks the
  // event loop; pino flushes the queue synchronously when the process exits (each exit below flushes first
  // all the same). LOG_FORMAT=pretty, for development, keeps pino-pretty's own synchronous, coloured output.
  const destination = config.telemetry.logFormat === 'pretty' ? undefined : pino.destination({ dest: 1, sync: false });
  const exit = (code: number) => {
    destination?.flushSync();
    process.exit(code);
  };
  const logger = createLogger(config.logLevel, destination, [config.upstream.token], config.telemetry.logFormat);
  if (config.retired.length > 0 && cluster.isPrimary) {
    logger.warn(
      { settings: config.retired },
      'these settings are no longer read (constants now, or merged: docs/configuration.md); remove them',
    );
  }
  // WORKERS > 1: this process only forks and watches the workers (each runs the rest of main) serves their combined metrics and, without REDIS_URL, counts their rate limit and quotas.
  if (config.ops.workers > 1 && cluster.isPrimary) {
    await runWorkerPool(
      config.ops.workers,
      logger,
      { host: config.ops.metricsHost, port: config.ops.metricsPort },
      {
        rateLimitPerMinute: config.security.rateLimit.perMinute,
        rateLimitInRedis: config.security.rateLimit.redisUrl !== null,
        quotas:
          config.quota.defaultQuota !== null ||
          [...config.security.auth.accounts.values()].some((account) => account.quota),
        quotasInRedis: config.quota.redisUrl !== null,
        cacheMaxBytes: config.cache.enabled && !config.cache.redisUrl ? config.cache.maxBytes : null,
      },
    );
    return;
  }
  const gateway = await createGateway(config, logger);
  const http = createHttpServer(gateway.yoga, config.http, logger);
  const server = http.server;
  const ops =
    config.ops.metricsPort === null || cluster.isWorker
      ? null
      : await startOpsServer(
          {
            ready: gateway.ready,
            cacheStatus: gateway.cacheStatus,
            upstreamStatus: gateway.upstreamStatus,
            clientRateLimit: gateway.clientRateLimit,
            metrics: gateway.metrics.exposition,
          },
          config.ops.metricsHost,
          config.ops.metricsPort,
          () => gateway.metrics.registry.getMetricsAsJSON(),
        ).catch((error: unknown) => portInUse(error, 'METRICS_PORT'));
  if (cluster.isWorker) gateway.metrics.reportToPrimary();
  server.once('error', (error) => portInUse(error, 'PORT'));
  server.listen(config.port, config.host, () => {
    gateway.readiness.serving();
    const shown = config.host.includes(':')
      ? `[${config.host}]`
      : config.host === '0.0.0.0'
        ? 'localhost'
        : config.host;
    const base = `http://${shown}:${config.port}`;
    // GraphiQL is advertised only when it is on (production turns it off: the URL would answer 406).
    const where = config.security.graphiql ? `GraphiQL: ${base}/graphql` : `GraphQL endpoint: ${base}/graphql`;
    const listening = { port: config.port, metricsPort: ops?.port ?? null };
    if (gateway.sandbox) {
      logger.warn(
        { ...listening, upstream: 'sandbox', sandboxUrl: gateway.sandbox.url },
        `Using the built-in SANDBOX upstream with sample data (set ACTION_BASE_URL and ACTION_TOKEN for the real service). ${where}`,
      );
    } else {
      logger.info({ ...listening, upstream: config.upstream.baseUrl?.origin }, `Lookup Graph ready. ${where}`);
    }
    if (config.production && config.ops.metricsPort === null)
      logger.warn('no METRICS_PORT: /metrics is not served (the public port never serves it in production)');
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Out of the load balancer first (/readyz 503), still serving for SHUTDOWN_DRAIN_DELAY_MS, then drain.
    gateway.readiness.draining();
    logger.info({ signal, drainDelayMs: config.ops.drainDelayMs }, 'draining in-flight requests');
    setTimeout(() => drain(), config.ops.drainDelayMs);
  };
  const drain = () => {
    // Live streams would hold their connections to the end of the grace: each ends with a final result, so its
    // client opens it again on another replica.
    gateway.live.endAll();
    ops?.server.close();
    ops?.server.closeAllConnections();
    // Every response from now on says `Connection: close`; idle keep-alive sockets end within the
    // keep-alive timeout, anything left after SHUTDOWN_GRACE_MS is cut (src/server/http-server.ts).
    void http.drain(config.shutdownGraceMs).then(() =>
      gateway.close().then(
        () => {
          logger.info('stopped');
          exit(0);
        },
        (error: unknown) => {
          logger.error({ err: describeError(error) }, 'shutdown failed');
          exit(1);
        },
      ),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** A port another process holds ends the start with one line naming the setting that moves it; any other error goes on. */
function portInUse(error: unknown, setting: string): never {
  const { code, port } = (error ?? {}) as { code?: string; port?: number };
  if (code !== 'EADDRINUSE') throw error;
  console.error(`port ${port} is in use: stop the other process or set ${setting}`);
  process.exit(1);
}

main().catch((error: unknown) => {
  console.error('Lookup Graph failed to start:', describeError(error));
  process.exit(1);
});
