import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type OperatedGateway, operatedLoad, startOperatedGateway } from '../support/operated-gateway.js';
import { freePort, ROOT, waitFor } from '../support/processes.js';
import { requireRedisInCi } from '../support/redis.js';

const RULES = join(ROOT, 'deploy', 'prometheus', 'lookup-graph.rules.yml');
const DASHBOARD = JSON.parse(readFileSync(join(ROOT, 'deploy', 'grafana', 'lookup-graph.json'), 'utf8'));
// In CI .ci/run installs Debian's prometheus package, so a missing server is a failure there, not a skip.
const installed = spawnSync('prometheus', ['--version']).status === 0 || process.env.CI === 'true';
const available = installed && (await requireRedisInCi());

/** The window the dashboard's $__rate_interval stands for here: a few of this test's 1 s scrapes. */
const RATE_INTERVAL = '10s';

interface Series {
  metric: Record<string, string>;
}

/** Every PromQL expression of the dashboard, its variables replaced as Grafana does with "All" selected. */
function dashboardQueries(): Array<{ panel: string; expr: string }> {
  return (DASHBOARD.panels as Array<{ title: string; targets?: Array<{ expr: string }> }>).flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      panel: panel.title,
      expr: target.expr.replaceAll('$__rate_interval', RATE_INTERVAL).replace(/\$(job|instance|client)\b/g, '.*'),
    })),
  );
}

/** The metric names and label names an expression uses (PromQL's own words and functions left out). */
function namesIn(expr: string): { metrics: string[]; labels: string[] } {
  const metrics = [...new Set(expr.match(/\blookup_graph_\w+/g) ?? [])];
  const labels = new Set<string>();
  for (const [, list] of expr.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g))
    for (const name of list!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      labels.add(name);
  for (const [, matchers] of expr.matchAll(/\{([^}]*)\}/g))
    for (const [, name] of matchers!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)) labels.add(name!);
  return { metrics, labels: [...labels] };
}

describe.runIf(available)('a real Prometheus scraping a built gateway under load', () => {
  let gw: OperatedGateway;
  let prometheus: ReturnType<typeof spawn>;
  let api: string;
  let dir: string;
  let exported: Map<string, Set<string>>;

  const query = async (expr: string) => {
    const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expr)}`);
    return (await res.json()) as { status: string; error?: string; data?: { result: Series[] } };
  };

  beforeAll(async () => {
    gw = await startOperatedGateway();
    dir = mkdtempSync(join(tmpdir(), 'lg-prometheus-'));
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: [${JSON.stringify(RULES)}]`,
        'scrape_configs:',
        '  - job_name: lookup-graph',
        `    static_configs: [{ targets: ["127.0.0.1:${gw.metricsPort}"] }]`,
      ].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--storage.tsdb.retention.time=1h',
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
    await waitFor(
      () =>
        fetch(`${api}/-/ready`).then(
          (res) => res.ok,
          () => false,
        ),
      20_000,
      'Prometheus ready',
    );
    await operatedLoad(gw.port, 8_000);
    // Two more scrapes after the load, so every rate spans samples of it.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // What the gateway exports: each metric's label names (job and instance are the scrape's).
    const text = await fetch(`http://127.0.0.1:${gw.metricsPort}/metrics`).then((res) => res.text());
    exported = new Map();
    for (const [, name, labels] of text.matchAll(/^(\w+)(?:\{([^}]*)\})? /gm)) {
      const set = exported.get(name!) ?? new Set(['job', 'instance']);
      for (const [, label] of (labels ?? '').matchAll(/(\w+)="/g)) set.add(label!);
      exported.set(name!, set);
    }
  }, 60_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await gw?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes the gateway', async () => {
    const up = await query('up{job="lookup-graph"}');
    expect(up.data?.result).toHaveLength(1);
  });

  it('every query of the dashboard evaluates and returns at least one series; every variable has values', async () => {
    const empty: string[] = [];
    for (const { panel, expr } of dashboardQueries()) {
      const answer = await query(expr);
      expect(answer.status, `${panel}: ${expr}: ${answer.error}`).toBe('success');
      if ((answer.data?.result.length ?? 0) === 0) empty.push(`${panel}: ${expr}`);
    }
    expect(empty).toEqual([]);
    for (const variable of DASHBOARD.templating.list.filter((v: { type: string }) => v.type === 'query')) {
      const [, metric, label] = /^label_values\((\w+)(?:\{[^}]*\})?, (\w+)\)$/.exec(variable.definition) ?? [];
      const res = await fetch(`${api}/api/v1/label/${label}/values?match[]=${metric}`).then((r) => r.json());
      expect(res.data.length, variable.name).toBeGreaterThan(0);
    }
    // The client variable lists the clients of the keys file.
    const clients = await fetch(`${api}/api/v1/label/client/values?match[]=lookup_graph_quota_calls_charged_total`);
    expect((await clients.json()).data).toEqual(expect.arrayContaining(['team-a', 'team-b']));
  });

  it('every query of the dashboard and every alert names only metrics and labels the gateway exports', () => {
    const expressions = [
      ...dashboardQueries().map(({ panel, expr }) => ({ where: panel, expr })),
      ...(parse(readFileSync(RULES, 'utf8')).groups as Array<{ rules: Array<{ alert: string; expr: string }> }>)
        .flatMap((group) => group.rules)
        .map((rule) => ({ where: rule.alert, expr: rule.expr })),
    ];
    for (const { where, expr } of expressions) {
      const { metrics, labels } = namesIn(expr);
      for (const metric of metrics) expect(exported.has(metric), `${where}: ${metric}`).toBe(true);
      const known = new Set(metrics.flatMap((metric) => [...(exported.get(metric) ?? [])]));
      for (const label of labels) expect(known.has(label), `${where}: label ${label}`).toBe(true);
    }
  });

  it('every alert rule evaluates without error in Prometheus, and a quota alert fires for the refused client', async () => {
    await waitFor(
      async () => {
        const res = await fetch(`${api}/api/v1/rules`).then((r) => r.json());
        const rules = res.data.groups.flatMap((group: { rules: unknown[] }) => group.rules);
        return (
          rules.length > 0 && rules.every((rule: { lastEvaluation: string }) => !rule.lastEvaluation.startsWith('0001'))
        );
      },
      10_000,
      'every rule evaluated',
    );
    const res = await fetch(`${api}/api/v1/rules`).then((r) => r.json());
    const rules = res.data.groups.flatMap((group: { rules: unknown[] }) => group.rules) as Array<{
      name: string;
      health: string;
      lastError?: string;
      alerts: Array<{ labels: Record<string, string> }>;
    }>;
    expect(rules.map((rule) => rule.name).sort()).toEqual(
      (parse(readFileSync(RULES, 'utf8')).groups[0].rules as Array<{ alert: string }>).map((r) => r.alert).sort(),
    );
    for (const rule of rules)
      expect(`${rule.name}: ${rule.health} ${rule.lastError ?? ''}`.trim()).toBe(`${rule.name}: ok`);
    // team-a spent its 3 calls: the alert with no `for` is firing for it, and for no one else.
    const spent = rules.find((rule) => rule.name === 'LookupGraphQuotaSpent')!;
    expect(spent.alerts.map((alert) => alert.labels.client)).toEqual(['team-a']);
  });
});
