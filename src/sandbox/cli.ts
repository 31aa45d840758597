import { EnvReader } from '../kernel/env.js';
import { readSandboxLatency } from './latency.js';
import { SANDBOX_TOKEN, startSandbox } from './server.js';

/**
 * `npm run sandbox`: the built-in sandbox alone, as a separate upstream on its own port. A gateway in
 * production mode never starts the sandbox itself; pointed at this one it can be tried (keys, probes,
 * limits) before the real service, on PORT (4010 unless set) with SANDBOX_LATENCY.
 */

/** The client key the documented production trial uses (docs/operations.md), and its sha256 hex. */
const DEMO_KEY = 'demo-key';
const DEMO_KEY_SHA256 = 'c48a01f49fd0f2cc404bc3cbbc80e91457a3d41bb429a695243de4c61794155c';

const read = new EnvReader(process.env);
const port = read.int('PORT', 4010, 1, 65535);
const latency = readSandboxLatency(read.string('SANDBOX_LATENCY'), read.problems);
if (read.problems.length > 0) {
  console.error(read.problems.join('\n'));
  process.exit(78);
}

const sandbox = await startSandbox({ latency }, port).catch((error: { code?: string }) => {
  if (error?.code !== 'EADDRINUSE') throw error;
  console.error(`port ${port} is in use: stop the other process or set PORT`);
  process.exit(1);
});
console.log(`Sandbox upstream (sample data) at ${sandbox.url}, bearer token "${SANDBOX_TOKEN}". A gateway in production mode over it:

  npm run build && NODE_ENV=production ACTION_BASE_URL=${sandbox.url} ACTION_TOKEN=${SANDBOX_TOKEN} \\
    GATEWAY_API_KEY_HASHES=${DEMO_KEY_SHA256} node dist/main.js

then send x-api-key: ${DEMO_KEY} (the hash above is its sha256). Ctrl-C stops the sandbox.`);

const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
