import { startSandbox } from '../../src/sandbox/server.js';

/** The sandbox upstream in a process of its own, as a real upstream would be. */
const sandbox = await startSandbox({ latencyMs: Number(process.env.SANDBOX_LATENCY_MS ?? 0), rateLimitPerMinute: 10_000_000 });
console.log(`READY ${new URL(sandbox.url).port}`);
process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
