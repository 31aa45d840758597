import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, queryOnce, ROOT, startBuilt, statusOf, waitFor } from '../support/processes.js';

const RECORDER = pathToFileURL(join(ROOT, 'test/support/module-recorder.mjs')).href;
const STATUS = pathToFileURL(join(ROOT, 'dist/server/status/')).href;
const dir = mkdtempSync(join(tmpdir(), 'status-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sum of a counter's series in Prometheus text whose labels include `labels`. */
function counterSum(text: string, name: string, labels: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('the status page of the built gateway (node dist/main.js, METRICS_PORT)', () => {
  it('is loaded only when first asked for: start-up, lookups and scrapes load none of it', async () => {
    const record = join(dir, 'modules');
    const [port, metricsPort] = [await freePort(), await freePort()];
    const gw = startBuilt({
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      NODE_OPTIONS: `--import=${RECORDER}`,
      MODULE_RECORD: record,
    });
    const loaded = () =>
      readFileSync(record, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith(STATUS));
    try {
      await waitFor(() => gw.output().includes('ready') || gw.output().includes('SANDBOX'), 30_000, 'start-up');
      await queryOnce(port, '{ domainInfo(domain: "example.com") { domainName } }');
      expect(await statusOf(`http://127.0.0.1:${metricsPort}/metrics`)).toBe(200);
      // Only the gauges of readiness, Redis and shedding, and the route that loads the page when asked.
      expect(loaded().sort()).toEqual([`${STATUS}gauges.js`, `${STATUS}serve.js`]);
      expect(await statusOf(`http://127.0.0.1:${metricsPort}/status`)).toBe(200);
      expect(loaded()).toContain(`${STATUS}page.js`);
    } finally {
      gw.child.kill('SIGKILL');
      await gw.exited;
    }
  });

  it('with WORKERS=2, /status.json shows the sum over the workers, as /metrics does', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const gw = startBuilt({ PORT: String(port), METRICS_PORT: String(metricsPort), WORKERS: '2' });
    const ops = `http://127.0.0.1:${metricsPort}`;
    try {
      await waitFor(async () => (await statusOf(`http://127.0.0.1:${port}/readyz`)) === 200, 30_000, 'start-up');
      // Each on a connection of its own, so the workers share them: twelve distinct lookups, each a paid call.
      // The primary holds no lookups of its own: only the sum over the workers shows them.
      const run = `${process.pid}-${Date.now()}`;
      for (let i = 0; i < 12; i++) {
        const res = await queryOnce(port, `{ domainInfo(domain: "w${i}-${run}.example") { domainName } }`);
        expect(res.status).toBe(200);
      }
      const report = await fetch(`${ops}/status.json`).then((res) => res.json());
      const metrics = await fetch(`${ops}/metrics`).then((res) => res.text());
      const upstream = counterSum(metrics, 'lookup_graph_cache_lookups_total', 'source="upstream"');
      expect(upstream).toBeGreaterThanOrEqual(12);
      expect(report.answered.lookups.upstream).toBe(upstream);
      expect(report.callOutcomes.OK).toBe(counterSum(metrics, 'lookup_graph_upstream_calls_total', 'outcome="OK"'));
      expect(report.state.ready).toBe(true);
    } finally {
      gw.child.kill('SIGTERM');
      await gw.exited;
    }
  });
});
