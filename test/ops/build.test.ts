import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requireRedisInCi, startRedisProxy } from '../support/redis.js';
import { startSandboxLikeUpstream } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { freePort, startBuilt, startBuiltOnPorts, statusOf, waitFor } from '../support/processes.js';

const KEY = 'build-test-client-key';
const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

describe('node dist/main.js in production, with METRICS_PORT', () => {
  const upstream = forSuite(startSandboxLikeUpstream);

  it('serves only /graphql, /healthz and /readyz publicly, /metrics on its own port, goes unready on SIGTERM and drains', async () => {
    const gw = await startBuiltOnPorts(
      {
        NODE_ENV: 'production',
        GATEWAY_API_KEY_HASHES: createHash('sha256').update(KEY).digest('hex'),
        SHUTDOWN_DRAIN_DELAY_MS: '1500',
      },
      upstream,
    );
    const { port, metricsPort } = gw;
    const pub = `http://127.0.0.1:${port}`;
    const ops = `http://127.0.0.1:${metricsPort}`;
    try {
      await waitFor(() => gw.output().includes('Lookup Graph ready'), 20_000, 'start-up');
      // GraphiQL is off in production: the start-up line must not advertise it.
      expect(gw.output()).not.toContain('GraphiQL');
      expect(gw.output()).toContain('GraphQL endpoint');

      const res = await fetch(`${pub}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify({ query: '{ domainInfo(domain: "example.com") { domainName } }' }),
      });
      expect(await res.json()).toMatchObject({ data: { domainInfo: { domainName: 'example.com' } } });

      // The version the image is tagged with and docs/operations.md's overlay pins (test/ops/k8s-manifests.test.ts).
      expect(await (await fetch(`${pub}/healthz`)).json()).toEqual({ status: 'ok', version: VERSION });
      expect(await (await fetch(`${pub}/readyz`)).json()).toEqual({ status: 'ready' });
      expect(await statusOf(`${pub}/metrics`)).toBe(404);

      const metrics = await (await fetch(`${ops}/metrics`)).text();
      expect(metrics).toContain('lookup_graph_upstream_calls_total{action="domain_info",outcome="OK"} 1');
      expect(await (await fetch(`${ops}/healthz`)).json()).toMatchObject({
        status: 'ok',
        cache: { backend: 'memory' },
        upstream: { inFlight: 0 },
      });
      expect(await (await fetch(`${ops}/readyz`)).json()).toEqual({ status: 'ready', ready: true, reasons: [] });

      // The image's HEALTHCHECK command.
      const check = startBuilt({ PORT: String(port) }, 'dist/healthcheck.js');
      expect(await check.exited).toBe(0);

      gw.child.kill('SIGTERM');
      await waitFor(async () => (await statusOf(`${pub}/readyz`)) === 503, 5_000, '/readyz 503');
      expect(await (await fetch(`${pub}/readyz`)).json()).toEqual({ status: 'draining' });
      // Still serving during the drain delay, so the load balancer can take it out first.
      expect(await statusOf(`${pub}/healthz`)).toBe(200);
      expect(await gw.exited).toBe(0);
      const dead = startBuilt({ PORT: String(port) }, 'dist/healthcheck.js');
      expect(await dead.exited).toBe(1);
    } finally {
      gw.child.kill('SIGKILL');
    }
  });
});

describe('/readyz with REDIS_URL', () => {
  it('is 503 "starting" until Redis has answered once, then ready; a later Redis outage is only degraded', async (ctx) => {
    if (!(await requireRedisInCi())) return ctx.skip();
    const redis = await startRedisProxy();
    await redis.cut();
    const port = await freePort();
    const gw = startBuilt({
      PORT: String(port),
      REDIS_URL: redis.url,
      CACHE_KEY_SECRET: `readyz-${process.pid}`,
      REDIS_KEY_PREFIX: `readyz-${process.pid}:`,
    });
    const readyz = `http://127.0.0.1:${port}/readyz`;
    try {
      await waitFor(() => gw.output().includes('GraphiQL'), 20_000, 'start-up');
      expect(await statusOf(readyz)).toBe(503);
      expect(await (await fetch(readyz)).json()).toMatchObject({
        status: 'starting',
        reasons: ['cache-not-answering-yet'],
      });
      await redis.restore();
      await waitFor(async () => (await statusOf(readyz)) === 200, 10_000, 'ready after Redis answers');
      await redis.cut();
      await waitFor(
        async () => ((await (await fetch(readyz)).json()) as { status: string }).status === 'degraded',
        10_000,
        'degraded',
      );
      expect(await statusOf(readyz)).toBe(200);
      // The client rate limiter shares the Redis: it may be marked down too (also only degraded).
      expect(await (await fetch(readyz)).json()).toMatchObject({
        ready: true,
        reasons: expect.arrayContaining(['cache-unreachable']),
      });
    } finally {
      gw.child.kill('SIGKILL');
      await redis.close();
    }
  });
});
