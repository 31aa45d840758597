import { createServer } from 'node:http';
import { ConfigError, loadConfig } from './config.js';
import { createGateway } from './gateway.js';
import { createLogger, describeError } from './logger.js';

/** The only file that listens: config -> gateway -> HTTP server -> graceful shutdown. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, undefined, [config.upstream.token]);
  const gateway = await createGateway(config, logger);
  const server = createServer(gateway.yoga);
  server.listen(config.port, config.host, () => {
    const shown = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? 'localhost' : config.host;
    const url = `http://${shown}:${config.port}/graphql`;
    if (gateway.sandbox) {
      logger.warn({ upstream: 'sandbox', sandboxUrl: gateway.sandbox.url }, `Using the built-in SANDBOX upstream with sample data (set ACTION_BASE_URL and ACTION_TOKEN for the real service). GraphiQL: ${url}`);
    } else {
      logger.info({ upstream: config.upstream.baseUrl?.origin }, `Lookup Graph ready. GraphiQL: ${url}`);
    }
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    const force = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
    force.unref();
    // Connections that finish their last response become idle: close them as they do.
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(reaper);
      void gateway.close().then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: describeError(error) }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Lookup Graph failed to start:', describeError(error));
  process.exit(1);
});
