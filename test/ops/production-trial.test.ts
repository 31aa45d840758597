/**
 * The documented production trial (docs/operations.md): `npm run sandbox` as a separate upstream, and the
 * built gateway in production mode over it with the command the sandbox prints, demo key and all.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort, ROOT, startBuilt, waitFor } from '../support/processes.js';

describe('npm run sandbox, then the gateway in production over it', () => {
  it('serves the demo key, refuses a request without it, and answers the probes', async () => {
    const sandboxPort = await freePort();
    const sandbox = spawn('npm', ['run', 'sandbox', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(sandboxPort) },
      detached: true,
    });
    let printed = '';
    sandbox.stdout.on('data', (chunk) => (printed += chunk));
    sandbox.stderr.on('data', (chunk) => (printed += chunk));
    let gateway: ReturnType<typeof startBuilt> | undefined;
    try {
      await waitFor(() => printed.includes('Ctrl-C'), 30_000, 'the sandbox');
      // The settings exactly as printed.
      const setting = (name: string) => new RegExp(`${name}=(\\S+)`).exec(printed)?.[1] ?? '';
      const key = /x-api-key: (\S+)/.exec(printed)![1]!;
      expect(setting('ACTION_BASE_URL')).toBe(`http://127.0.0.1:${sandboxPort}`);
      const port = await freePort();
      const env = {
        NODE_ENV: 'production',
        PORT: String(port),
        ...Object.fromEntries(
          ['ACTION_BASE_URL', 'ACTION_TOKEN', 'GATEWAY_API_KEY_HASHES'].map((n) => [n, setting(n)]),
        ),
      };
      gateway = startBuilt(env);
      await waitFor(() => gateway!.output().includes('Lookup Graph ready'), 20_000, 'the gateway');
      const ask = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ query: '{ company(domain: "hubspot.com") { name } }' }),
        });
      const served = await ask({ 'x-api-key': key });
      expect(await served.json()).toMatchObject({ data: { company: { name: 'Hubspot' } } });
      const refused = await ask({});
      expect(refused.status).toBe(401);
      expect((await refused.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      gateway?.child.kill('SIGKILL');
      process.kill(-sandbox.pid!, 'SIGTERM');
    }
  });
});
