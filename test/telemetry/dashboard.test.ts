import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway.js';
import { createLogger } from '../../src/kernel/logger.js';

const dashboard = JSON.parse(readFileSync(new URL('../../deploy/grafana/lookup-graph.json', import.meta.url), 'utf8'));

describe('deploy/grafana/lookup-graph.json', () => {
  const panels: any[] = dashboard.panels;
  const exprs: string[] = panels.flatMap((panel) => (panel.targets ?? []).map((target: any) => target.expr));

  it('is a dashboard whose panels fit the grid, with unique ids and a query each', () => {
    expect(dashboard.uid).toBe('lookup-graph');
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    for (const panel of panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type !== 'row') expect(panel.targets.length).toBeGreaterThan(0);
    }
    // Balanced brackets in every query: a cheap check that none was cut or mistyped.
    for (const expr of exprs) {
      for (const [open, close] of ['()', '{}', '[]'])
        expect(expr.split(open!).length, expr).toBe(expr.split(close!).length);
    }
  });

  it('charts request duration by operation, errors by code and the cache hit ratio, from metrics the gateway exports', async () => {
    const all = exprs.join('\n');
    expect(all).toContain('lookup_graph_graphql_request_duration_seconds_bucket');
    expect(all).toContain('sum by (code) (rate(lookup_graph_graphql_errors_total');
    expect(all).toContain('lookup_graph_cache_lookups_total{job=~"$job",instance=~"$instance",source="cache"}');

    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const gateway = await createGateway(config, createLogger('silent'));
    try {
      const text = await (await gateway.yoga.fetch('http://localhost/metrics')).text();
      const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
      const used = new Set(
        [...all.matchAll(/lookup_graph_[a-z0-9_]+/g)].map((match) => match[0].replace(/_(bucket|count|sum)$/, '')),
      );
      expect(used.size).toBeGreaterThan(8);
      for (const name of used) expect(exported.has(name), `${name} is not exported`).toBe(true);
    } finally {
      await gateway.close();
    }
  });
});
