#!/usr/bin/env node
/**
 * Writes the Kubernetes monitoring component from its sources, so the cluster gets exactly the files the
 * tests check: deploy/grafana/lookup-graph.json as a ConfigMap for Grafana's dashboard sidecar, and
 * deploy/prometheus/lookup-graph.rules.yml as a PrometheusRule. Run after changing either:
 *
 *   npm run k8s:monitoring
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}deploy/k8s/components/monitoring/`;
const dashboard = readFileSync(`${root}deploy/grafana/lookup-graph.json`, 'utf8');
const rules = parse(readFileSync(`${root}deploy/prometheus/lookup-graph.rules.yml`, 'utf8'));
const labels = { 'app.kubernetes.io/name': 'lookup-graph' };
const header = (source) => `# Written by scripts/monitoring-manifests.mjs from ${source}: edit that file, then run npm run k8s:monitoring.\n`;

writeFileSync(
  `${out}grafana-dashboard.yaml`,
  header('deploy/grafana/lookup-graph.json') +
    stringify(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'lookup-graph-dashboard', labels: { ...labels, grafana_dashboard: '1' } },
        data: { 'lookup-graph.json': dashboard },
      },
      { lineWidth: 0 },
    ),
);
writeFileSync(
  `${out}prometheus-rule.yaml`,
  header('deploy/prometheus/lookup-graph.rules.yml') +
    stringify(
      {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: { name: 'lookup-graph', labels },
        spec: rules,
      },
      { lineWidth: 0 },
    ),
);
