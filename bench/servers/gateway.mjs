import { createServer } from 'node:http';
import { loadConfig } from '../../dist/config.js';
import { createGateway } from '../../dist/gateway.js';
import { createLogger } from '../../dist/kernel/logger.js';

/**
 * The gateway as production runs it: the built JavaScript (`npm run build`, dist/) on plain Node, no
 * TypeScript loader. Configured by the environment the benchmark passes.
 */
const config = loadConfig({ ...process.env, PORT: '0' });
// BENCH_RESILIENCE: JSON merged over the upstream constants no setting reads (src/upstream/resilience/constants.ts).
Object.assign(config.resilience, JSON.parse(process.env.BENCH_RESILIENCE ?? '{}'));
const gateway = await createGateway(config, createLogger(config.logLevel));
const server = createServer(gateway.yoga);
server.listen(0, '127.0.0.1', () => console.log(`READY ${server.address().port}`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void gateway.close().then(() => process.exit(0)));
});
