import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway.js';
import { createLogger } from '../../src/logger.js';

/** The gateway as `npm start` builds it, configured by the environment the benchmark passes. */
const config = loadConfig({ ...process.env, PORT: '0' });
const gateway = await createGateway(config, createLogger(config.logLevel));
const server = createServer(gateway.yoga);
server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void gateway.close().then(() => process.exit(0)));
});
