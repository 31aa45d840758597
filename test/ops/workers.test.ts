import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childrenOf, queryOnce, startBuiltOnPorts, waitFor, type BuiltOnPorts } from '../support/processes.js';

describe('WORKERS=2: one primary, two gateway workers on one port (node dist/main.js)', () => {
  let gateway: BuiltOnPorts;
  let port: number;
  let metricsPort: number;

  beforeAll(async () => {
    gateway = await startBuiltOnPorts({
      WORKERS: '2',
      SANDBOX_LATENCY: 'news:1500',
      CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'info',
    });
    ({ port, metricsPort } = gateway);
    await waitFor(
      () => (gateway.output().match(/SANDBOX upstream/g) ?? []).length === 2,
      30_000,
      `two workers listening:\n${gateway.output()}`,
    );
  });
  afterAll(() => {
    gateway.child.kill('SIGKILL');
  });

  it('shares the port and, without Redis, one cache held by the primary; /metrics sums both workers', async () => {
    expect(childrenOf(gateway.child.pid!)).toHaveLength(2);
    const sources: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { status, body } = await queryOnce(port, '{ domainInfo(domain: "workers.example") { domainName } }');
      expect(status).toBe(200);
      expect(body.data.domainInfo.domainName).toBe('workers.example');
      sources.push(body.extensions.gateway.lookups[0].source);
    }
    // Round-robin over two processes sharing the primary's cache (no REDIS_URL): one upstream call in all.
    expect(sources.filter((source) => source === 'upstream')).toHaveLength(1);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const calls = [
      ...metrics.matchAll(/^lookup_graph_upstream_calls_total\{[^}]*action="domain_info"[^}]*\} (\d+)/gm),
    ].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(calls).toBe(1);
  });

  it('replaces a worker that dies', async () => {
    const [victim] = childrenOf(gateway.child.pid!);
    process.kill(victim!, 'SIGKILL');
    await waitFor(
      () => {
        const now = childrenOf(gateway.child.pid!);
        return now.length === 2 && !now.includes(victim!);
      },
      30_000,
      'a new worker',
    );
    await waitFor(
      () => (gateway.output().match(/SANDBOX upstream/g) ?? []).length === 3,
      30_000,
      'the new worker listening',
    );
    expect(gateway.output()).toContain('a worker died: starting another');
    for (let i = 0; i < 4; i++)
      expect((await queryOnce(port, '{ domainInfo(domain: "after-death.example") { domainName } }')).status).toBe(200);
  });

  it('drains every worker on SIGTERM: an operation in flight is answered, then all exit 0', async () => {
    const workers = childrenOf(gateway.child.pid!);
    // A slow lookup (the sandbox's latency for this input) that is still running when SIGTERM arrives.
    const inFlight = queryOnce(port, '{ news(query: "drain workers") { query } }');
    await new Promise((resolve) => setTimeout(resolve, 30));
    gateway.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.data.news.query).toBe('drain workers');
    expect(await gateway.exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
