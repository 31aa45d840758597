import { readSandboxLatency } from '../../src/sandbox/latency.js';
import { startSandbox } from '../../src/sandbox/server.js';

/** The sandbox upstream in a process of its own, as a real upstream would be; SANDBOX_LATENCY as for the gateway. */
const problems: string[] = [];
const latency = readSandboxLatency(process.env.SANDBOX_LATENCY, problems);
if (problems.length > 0) throw new Error(problems.join('; '));
const sandbox = await startSandbox({ latency, rateLimitPerMinute: 10_000_000 });
console.log(`READY ${new URL(sandbox.url).port}`);
process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
