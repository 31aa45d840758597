/**
 * deploy/k8s/ offline: no cluster is reachable here, so this renders the kustomizations itself (a small
 * renderer, below; checked against `kubectl kustomize` where kubectl is installed), validates every
 * manifest against the Kubernetes API's JSON schemas (kubernetes-models) with unknown fields refused, and
 * checks the manifests against the gateway's own settings, read by its own config reader.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { it } from '../support/fixtures.js';
import { ROOT } from '../support/processes.js';

type Obj = Record<string, any>;

const K8S = join(ROOT, 'deploy', 'k8s');
const BASE = join(K8S, 'base');
const OVERLAY = join(K8S, 'overlays', 'redis-cluster');
const SERVICE_MONITOR = join(K8S, 'components', 'service-monitor');
const MONITORING = join(K8S, 'components', 'monitoring');

function readYaml(path: string): Obj[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]!.message}`);
    return doc.toJS() as Obj;
  });
}

/**
 * The part of kustomize these files use: `resources` (files, or folders with a kustomization of their own),
 * `components` (folders whose kustomization is a Component: their resources join this one's), and
 * `patches` by `path`, each a strategic merge patch naming its target by kind and name. The merge: maps merge
 * key by key, `null` removes a key, lists of named items (containers, env, ports, volumes) merge item by item
 * on `name` (their merge key in the Kubernetes API), other lists are replaced. Any other kustomization field
 * fails here, so a file this renderer would misread cannot pass unnoticed.
 */
function render(dir: string): Obj[] {
  const kustomization = readYaml(join(dir, 'kustomization.yaml'))[0]!;
  const unsupported = Object.keys(kustomization).filter(
    (key) => !['apiVersion', 'kind', 'resources', 'components', 'patches'].includes(key),
  );
  expect(unsupported, `${dir}: kustomization fields this renderer does not apply`).toEqual([]);
  const resources: Obj[] = [];
  for (const entry of kustomization.resources as string[]) {
    const path = join(dir, entry);
    resources.push(...(statSync(path).isDirectory() ? render(path) : readYaml(path)));
  }
  for (const entry of (kustomization.components ?? []) as string[]) {
    expect(readYaml(join(dir, entry, 'kustomization.yaml'))[0]).toMatchObject({
      apiVersion: 'kustomize.config.k8s.io/v1alpha1',
      kind: 'Component',
    });
    resources.push(...render(join(dir, entry)));
  }
  for (const { path, ...rest } of (kustomization.patches ?? []) as Obj[]) {
    expect(rest, `${dir}: only patches by path`).toEqual({});
    for (const patch of readYaml(join(dir, path))) {
      const targets = resources.filter((r) => r.kind === patch.kind && r.metadata.name === patch.metadata.name);
      expect(targets, `patch ${path} must match one resource`).toHaveLength(1);
      resources[resources.indexOf(targets[0]!)] = merge(targets[0]!, patch);
    }
  }
  return resources;
}

function merge(base: unknown, patch: unknown): any {
  if (
    Array.isArray(base) &&
    Array.isArray(patch) &&
    [...base, ...patch].every((item) => typeof item?.name === 'string')
  ) {
    const merged = base.map((item) => {
      const update = patch.find((p) => p.name === item.name);
      return update ? merge(item, update) : item;
    });
    return [...merged, ...patch.filter((p) => !base.some((item) => item.name === p.name))];
  }
  if (!isMap(base) || !isMap(patch)) return patch;
  const merged: Obj = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = key in base ? merge(base[key], value) : value;
  }
  return merged;
}

const isMap = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The model of every kind deploy/k8s may hold, by apiVersion and kind: a kind missing here fails the test. */
const MODELS: Record<string, { new (data: any): { toJSON(): Obj }; prototype: { validate(): void } }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

/**
 * Validates `manifest` against its kind's schema and returns the fields the schema does not know. The
 * schemas accept unknown fields (as the API server does without strict field validation), so the check
 * watches which fields the compiled validator looks at: a field it never reads is not in the schema
 * (a typo such as `replica:` or `readinessProbes:` that Kubernetes would drop without a word).
 */
function validateStrictly(manifest: Obj): string[] {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  expect(Model, `a schema for ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
  const read = new Set<string>();
  const track = (value: unknown, path: string): unknown =>
    typeof value !== 'object' || value === null
      ? value
      : new Proxy(value as Obj, {
          get(target, key, receiver) {
            if (typeof key === 'string') read.add(`${path}/${key}`);
            return track(Reflect.get(target, key, receiver), `${path}/${String(key)}`);
          },
          has(target, key) {
            if (typeof key === 'string') read.add(`${path}/${key}`);
            return Reflect.has(target, key);
          },
          ownKeys(target) {
            read.add(`${path}/*`); // a map of any keys (labels, data): the validator enumerates it
            return Reflect.ownKeys(target);
          },
        });
  Model!.prototype.validate.call(track(new Model!(manifest).toJSON(), ''));
  const unknown: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (!Array.isArray(value) && !read.has(`${path}/${key}`) && !read.has(`${path}/*`))
        unknown.push(`${path}/${key}`);
      walk(child, `${path}/${key}`);
    }
  };
  walk(manifest, '');
  return unknown;
}

const find = (manifests: Obj[], kind: string, name = 'lookup-graph') => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  expect(found, `${kind} ${name}`).toBeDefined();
  return found!;
};

/** What the gateway reads in the pod: the ConfigMap, with the Secret's keys and the entry point's MEMORY_LIMIT_MB given test values. */
function podEnv(manifests: Obj[]): Record<string, string> {
  const container = find(manifests, 'Deployment').spec.template.spec.containers[0];
  const env: Record<string, string> = { ...find(manifests, 'ConfigMap').data, ACTION_BASE_URL: 'https://actions.test' };
  for (const variable of container.env as Obj[]) {
    if (variable.valueFrom?.secretKeyRef)
      env[variable.name] = variable.name === 'GATEWAY_API_KEY_HASHES' ? 'a'.repeat(64) : `test-${variable.name}`;
  }
  return env;
}

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

/** The base with the ServiceMonitor component, as an overlay of an operator's that adds it renders. */
const withServiceMonitor = () => [...render(BASE), ...render(SERVICE_MONITOR)];
/** The base with both monitoring components: the ServiceMonitor, the dashboard's ConfigMap and the alert rules. */
const withMonitoring = () => [...withServiceMonitor(), ...render(MONITORING)];

describe.each([
  ['base', BASE, () => render(BASE)],
  ['overlays/redis-cluster', OVERLAY, () => render(OVERLAY)],
  ['base with components/service-monitor', null, withServiceMonitor],
  ['base with components/service-monitor and components/monitoring', null, withMonitoring],
])('deploy/k8s/%s', (name, dir, rendered) => {
  const manifests = rendered();

  it('holds a Deployment, two Services, a PodDisruptionBudget, an autoscaling/v2 HPA and the ConfigMap; only the component adds a kind outside the core API', () => {
    const core = [
      'apps/v1 Deployment lookup-graph',
      'autoscaling/v2 HorizontalPodAutoscaler lookup-graph',
      'policy/v1 PodDisruptionBudget lookup-graph',
      'v1 ConfigMap lookup-graph',
      'v1 Service lookup-graph',
      'v1 Service lookup-graph-metrics',
    ];
    const monitor = name.includes('service-monitor') ? ['monitoring.coreos.com/v1 ServiceMonitor lookup-graph'] : [];
    const monitoring = name.includes('components/monitoring')
      ? ['v1 ConfigMap lookup-graph-dashboard', 'monitoring.coreos.com/v1 PrometheusRule lookup-graph']
      : [];
    expect(manifests.map((m) => `${m.apiVersion} ${m.kind} ${m.metadata.name}`).sort()).toEqual(
      [...core, ...monitor, ...monitoring].sort(),
    );
  });

  it('every manifest is valid against the Kubernetes API schema, with no field the schema does not know', () => {
    for (const manifest of manifests)
      expect(validateStrictly(manifest), `${manifest.kind} ${manifest.metadata.name}`).toEqual([]);
  });

  it.runIf(kubectl)('renders as `kubectl kustomize` renders it', () => {
    // The component has no overlay of its own here: a scratch one adds it to the base (kustomize wants relative paths).
    const scratch = dir ?? mkdtempSync(join(tmpdir(), 'lookup-graph-kustomize-'));
    try {
      if (!dir) {
        const components = name.includes('components/monitoring') ? [SERVICE_MONITOR, MONITORING] : [SERVICE_MONITOR];
        const overlay = {
          resources: [relative(scratch, BASE)],
          components: components.map((component) => relative(scratch, component)),
        };
        writeFileSync(
          join(scratch, 'kustomization.yaml'),
          JSON.stringify({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', ...overlay }),
        );
      }
      const run = spawnSync('kubectl', ['kustomize', scratch], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const byKey = (list: Obj[]) => Object.fromEntries(list.map((m) => [`${m.kind}/${m.metadata.name}`, m]));
      expect(byKey(parseAllDocuments(run.stdout).map((doc) => doc.toJS() as Obj))).toEqual(byKey(manifests));
    } finally {
      if (!dir) rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('the manifests agree with the gateway', () => {
  const base = render(BASE);
  const deployment = find(base, 'Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const config = loadConfig(podEnv(base));
  const portNamed = (name: string) => (container.ports as Obj[]).find((p) => p.name === name)?.containerPort;

  it("the ConfigMap and Secret keys make a configuration the gateway's own reader accepts, in production", () => {
    expect(config.production).toBe(true);
    expect(config.host).toBe('0.0.0.0');
    expect(config.ops.metricsHost).toBe('0.0.0.0');
    // The blank ACTION_BASE_URL is the operator's to fill in: without it the gateway refuses to start.
    expect(find(base, 'ConfigMap').data.ACTION_BASE_URL).toBe('');
    expect(() => loadConfig({ ...podEnv(base), ACTION_BASE_URL: '' })).toThrow(
      /ACTION_BASE_URL is required when NODE_ENV=production/,
    );
    // Secrets never sit in the ConfigMap.
    for (const secret of ['ACTION_TOKEN', 'CACHE_KEY_SECRET', 'GATEWAY_API_KEY_HASHES']) {
      expect(find(base, 'ConfigMap').data).not.toHaveProperty(secret);
      expect((container.env as Obj[]).find((e) => e.name === secret)?.valueFrom?.secretKeyRef).toEqual({
        name: 'lookup-graph',
        key: secret,
      });
    }
  });

  it('ports: the container, both Services and the ServiceMonitor name the ports the gateway listens on', () => {
    expect(portNamed('http')).toBe(config.port);
    expect(portNamed('metrics')).toBe(config.ops.metricsPort);
    expect(find(base, 'Service').spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    const metricsService = find(base, 'Service', 'lookup-graph-metrics');
    expect(metricsService.spec.ports).toEqual([
      { name: 'metrics', port: config.ops.metricsPort, targetPort: 'metrics' },
    ]);
    const monitor = find(withServiceMonitor(), 'ServiceMonitor');
    expect(monitor.spec.endpoints).toMatchObject([{ port: 'metrics', path: '/metrics' }]);
    // The ServiceMonitor picks the metrics Service only; both Services pick the Deployment's pods.
    const selects = (selector: Obj, labels: Obj) => Object.entries(selector).every(([k, v]) => labels[k] === v);
    expect(selects(monitor.spec.selector.matchLabels, metricsService.metadata.labels)).toBe(true);
    expect(selects(monitor.spec.selector.matchLabels, find(base, 'Service').metadata.labels)).toBe(false);
    for (const service of [find(base, 'Service'), metricsService])
      expect(selects(service.spec.selector, pod.metadata?.labels ?? deployment.spec.template.metadata.labels)).toBe(
        true,
      );
    expect(deployment.spec.selector.matchLabels).toEqual(find(base, 'PodDisruptionBudget').spec.selector.matchLabels);
  });

  it('probes: startup and liveness on /healthz, readiness on /readyz, and the gateway answers them so', async ({
    startGateway,
  }) => {
    expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const gw = await startGateway();
    const status = async (path: string) => (await gw.fetch(`${path}`)).status;
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe])
      expect(await status(probe.httpGet.path)).toBe(200);
    // On SIGTERM readiness fails while liveness holds, so Kubernetes stops routing without restarting the pod.
    // The manifest's note on readiness says what src/server/probes.ts and docs/operations.md say: 503 in these two phases only.
    const note =
      readFileSync(join(BASE, 'deployment.yaml'), 'utf8').match(/((?:^ *#.*\n)+) *readinessProbe:/m)?.[1] ?? '';
    expect(note.replace(/\s*#\s*/g, ' ')).toMatch(
      /503 only while starting \(with REDIS_URL, until Redis has answered once\) and while draining/,
    );
    expect(readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      '`/readyz` is 503 only while starting and draining',
    );
    gw.gateway.readiness.draining();
    expect(await status(container.readinessProbe.httpGet.path)).toBe(503);
    expect(await status(container.livenessProbe.httpGet.path)).toBe(200);
  });

  it('drain: preStop, the drain delay and the grace period fit in terminationGracePeriodSeconds; readiness fails within the delay', () => {
    const preStopMs = container.lifecycle.preStop.sleep.seconds * 1000;
    const needMs = preStopMs + config.ops.drainDelayMs + config.shutdownGraceMs;
    expect(config.ops.drainDelayMs).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(needMs);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeLessThanOrEqual(needMs + 10_000);
    // Anything that watches /readyz (the kubelet's probe, a load balancer's health check at the same pace)
    // sees it fail before the gateway stops accepting.
    const probe = container.readinessProbe;
    expect(probe.periodSeconds * probe.failureThreshold * 1000).toBeLessThanOrEqual(config.ops.drainDelayMs);
  });

  it('memory: the limit reaches the entry point as MEMORY_LIMIT_MB, requests equal limits, and the caches are sized from it', () => {
    const { requests, limits } = container.resources;
    expect(requests.memory).toBe(limits.memory);
    expect(limits.memory).toBe('256Mi');
    expect((container.env as Obj[]).find((e) => e.name === 'MEMORY_LIMIT_MB')?.valueFrom?.resourceFieldRef).toEqual({
      containerName: container.name,
      resource: 'limits.memory',
      divisor: '1Mi',
    });
    // deploy/entrypoint.sh: CACHE_MAX_MB = M/16, CACHE_RESULTS_MB = M/64 (test/ops/container-memory.test.ts runs it).
    const entry = readFileSync(join(ROOT, 'deploy', 'entrypoint.sh'), 'utf8');
    expect(entry).toMatch(/^CACHE_MAX_MB="\$\{CACHE_MAX_MB:-\$\(\(limit_mb \/ 16\)\)\}"$/m);
    expect(entry).toMatch(/^CACHE_RESULTS_MB="\$\{CACHE_RESULTS_MB:-\$\(\(limit_mb \/ 64\)\)\}"$/m);
    // What the entry point exports for this pod's limit is what the gateway then holds, nothing in the manifests overriding it.
    const limitMb = Number.parseInt(limits.memory, 10);
    const sized = loadConfig({
      ...podEnv(base),
      CACHE_MAX_MB: String(limitMb / 16),
      CACHE_RESULTS_MB: String(limitMb / 64),
    });
    expect(sized.cache.maxBytes).toBe((limitMb / 16) * 1024 * 1024);
    expect(sized.cache.resultsMaxBytes).toBe((limitMb / 64) * 1024 * 1024);
    expect(find(base, 'ConfigMap').data).not.toHaveProperty('CACHE_MAX_MB');
  });

  it('security: non-root, read-only root file system, no privilege escalation, no capabilities, no service account token', () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m);
  });

  it('scaling: the HPA scales the Deployment on CPU from two replicas, and the PDB keeps all but one through a disruption', () => {
    const hpa = find(base, 'HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deployment.metadata.name,
    });
    expect(hpa.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(container.resources.requests.cpu).toBeDefined();
    expect(deployment.spec).not.toHaveProperty('replicas');
    expect(find(base, 'PodDisruptionBudget').spec.maxUnavailable).toBe(1);
  });

  it("docs/operations.md's example overlay tags the image with package.json's version, which /healthz reports", () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    const docs = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    expect([...docs.matchAll(/newTag: "([^"]+)"/g)].map((m) => m[1])).toEqual([version]);
    expect(docs).toContain(`"version":"${version}"`);
  });

  it('the redis-cluster overlay changes only REDIS_URL, to seed nodes of a cluster', () => {
    const overlay = render(OVERLAY);
    const url = find(overlay, 'ConfigMap').data.REDIS_URL as string;
    expect(url).toMatch(/^redis-cluster:\/\/[\w.-]+:\d+(,[\w.-]+:\d+)+$/);
    const withBaseUrl = overlay.map((m) =>
      m.kind === 'ConfigMap' ? { ...m, data: { ...m.data, REDIS_URL: find(base, 'ConfigMap').data.REDIS_URL } } : m,
    );
    expect(withBaseUrl).toEqual(base);
  });
});

describe('deploy/k8s/components/monitoring', () => {
  const manifests = render(MONITORING);

  it("holds the dashboard of deploy/grafana as a ConfigMap Grafana's sidecar loads, and the rules of deploy/prometheus as a PrometheusRule", () => {
    const dashboard = find(manifests, 'ConfigMap', 'lookup-graph-dashboard');
    expect(dashboard.metadata.labels.grafana_dashboard).toBe('1');
    expect(dashboard.data['lookup-graph.json']).toBe(
      readFileSync(join(ROOT, 'deploy', 'grafana', 'lookup-graph.json'), 'utf8'),
    );
    const rule = find(manifests, 'PrometheusRule');
    expect(rule.spec).toEqual(readYaml(join(ROOT, 'deploy', 'prometheus', 'lookup-graph.rules.yml'))[0]);
  });
});
