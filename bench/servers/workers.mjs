import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * The gateway as `node dist/main.js` runs it, WORKERS included (a primary and its workers sharing one
 * port), for the rows that compare WORKERS=2 with one worker. Node's flags (the entry point's sizing) go
 * to the gateway; READY once it answers /readyz.
 */
const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const gateway = spawn(
  process.execPath,
  [...process.execArgv, new URL('../../dist/main.js', import.meta.url).pathname],
  {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
gateway.once('exit', (code) => process.exit(code ?? 1));
process.on('SIGTERM', () => gateway.kill('SIGTERM'));
for (;;) {
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
    (res) => res.ok,
    () => false,
  );
  if (ready) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(`READY ${port}`);
