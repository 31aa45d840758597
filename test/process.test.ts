import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, startChild, waitFor, type Child } from './support/processes.js';

// As `npm start` does: node itself runs the TypeScript (through tsx's loader), so signals reach it.
function start(env: Record<string, string>, command = [process.execPath, '--import', 'tsx', 'src/main.ts']): Child {
  return startChild(command, env, true);
}

/** A domain lookup sent to the gateway on `port`, its parsed answer. */
function lookupDomain(port: number, domain: string): Promise<unknown> {
  return fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ domainInfo(domain: "${domain}") { domainName } }` }),
  }).then((res) => res.json());
}

describe('npm start (src/main.ts)', () => {
  it('announces the sandbox, serves /healthz, and on SIGTERM finishes in-flight requests before exiting 0', async () => {
    const port = await freePort();
    const server = start({ PORT: String(port), SANDBOX_LATENCY: '700' });
    try {
      await waitFor(() => server.output().includes('GraphiQL'));
      expect(server.output()).toContain('built-in SANDBOX upstream');
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toMatchObject({ status: 'ok', cache: { backend: 'memory', healthy: true } });

      const inFlight = lookupDomain(port, 'example.com');
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.child.kill('SIGTERM');
      expect(await inFlight).toMatchObject({ data: { domainInfo: { domainName: 'example.com' } } });
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('draining in-flight requests');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('SIGTERM to the `npm start` process drains in-flight requests and frees the port within SHUTDOWN_GRACE_MS', async () => {
    const port = await freePort();
    const graceMs = 4000;
    const server = start({ PORT: String(port), SANDBOX_LATENCY: '700', SHUTDOWN_GRACE_MS: String(graceMs) }, [
      'npm',
      'start',
    ]);
    try {
      await waitFor(() => server.output().includes('GraphiQL'));
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      const inFlight = lookupDomain(port, 'example.org');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const signalled = Date.now();
      server.child.kill('SIGTERM'); // npm's own process, as a process manager would signal it
      expect(await inFlight).toMatchObject({ data: { domainInfo: { domainName: 'example.org' } } });
      // npm forwards the signal to node (the script execs it); node holds the output pipe until it has drained and exited.
      await new Promise((resolve) =>
        server.child.stdout!.closed ? resolve(null) : server.child.stdout!.once('close', resolve),
      );
      expect(Date.now() - signalled).toBeLessThan(graceMs);
      expect(server.output()).toContain('"msg":"stopped"');
      expect(server.output()).toContain('draining in-flight requests');
      // Nothing is left serving the port: it can be listened on again.
      await new Promise<void>((resolve, reject) => {
        const probe = createServer()
          .once('error', reject)
          .listen(port, '127.0.0.1', () => probe.close(() => resolve()));
      });
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('refuses to start in production without the upstream settings, naming them', async () => {
    const server = start({ NODE_ENV: 'production', PORT: String(await freePort()) });
    expect(await server.exited).toBe(78);
    expect(server.output()).toContain('ACTION_BASE_URL is required when NODE_ENV=production');
    expect(server.output()).toContain('ACTION_TOKEN is required when NODE_ENV=production');
  });
});
