/**
 * `npm run bench`: the sandbox (in this process, with a configurable latency), the gateway and bare
 * Yoga (each in its own process), and a load generator, all on 127.0.0.1. Everything is measured in
 * ONE run, as medians over interleaved rounds, and reported as ratios to the baselines measured in
 * the same run. Writes bench/results.md.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { SANDBOX_TOKEN } from '../src/sandbox/server.js';
import { Redis } from 'ioredis';
import { request as httpRequest } from 'undici';
import { median, openLoop, percentile, runAll, sequentialLatency, throughput, type Request } from './load.js';
import { CAN_PIN, measuredRound, pinSelf, residentMb, startServer, threadCpuSeconds, type ServerProcess } from './processes.js';
import {
  DOMAIN_DOCUMENT,
  FIVE_FIELD_PROFILE,
  FRESH_PROFILE_DOCUMENT,
  TEN_SYMBOL_QUERY,
  fullProfileQuery,
  gatewayEnvOver,
  gql,
  graphql,
  repeat,
  zipf,
} from './workloads.js';
import { redisAnswers } from '../test/support/redis.js';
import { measureDefer, type DeferTimings } from './incremental.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  sandboxLatencyMs: num('BENCH_SANDBOX_LATENCY_MS', 0),
  rounds: num('BENCH_ROUNDS', 5),
  roundMs: num('BENCH_ROUND_MS', 2000),
  /**
   * Unmeasured load on the same server before each measured round: a gateway left idle for about a minute
   * (as each one is between its rounds) ran its next 2 s at 2-3x the CPU in a probe, after V8 had shrunk its heap.
   */
  roundWarmupMs: num('BENCH_ROUND_WARMUP_MS', 500),
  concurrency: num('BENCH_CONCURRENCY', 32),
  latencySamples: num('BENCH_LATENCY_SAMPLES', 300),
  /** The open loop at 25% of the uncached saturation rate: how long, per target. */
  openLoopMs: num('BENCH_OPEN_LOOP_MS', 5000),
  zipfOperations: num('BENCH_ZIPF_OPERATIONS', 3000),
  zipfInputs: 1000,
  zipfExponent: 1.1,
  /** (i): the slow lookup's latency, and how many pages are asked with and without @defer. */
  deferSlowMs: num('BENCH_DEFER_SLOW_MS', 2000),
  deferSamples: num('BENCH_DEFER_SAMPLES', 5),
};

// The gateway runs as production runs it: the built JavaScript on plain Node (bench/servers/gateway.mjs).
// BENCH_GATEWAY_ROOT: the gateway of another checkout (an older commit, for a before/after pair measured by
// this bench); BENCH_OUT: the file written instead of bench/results.md.
const gatewayRoot = process.env.BENCH_GATEWAY_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
execSync('npm run build', { cwd: gatewayRoot, stdio: ['ignore', 'ignore', 'inherit'] });
const GATEWAY = join(gatewayRoot, 'bench/servers/gateway.mjs');
const gatewayCommit = `${execSync('git rev-parse --short HEAD', { cwd: gatewayRoot }).toString().trim()}${process.env.BENCH_GATEWAY_ROOT ? ' (BENCH_GATEWAY_ROOT)' : ''}${
  execSync('git status --porcelain -- src', { cwd: gatewayRoot }).length > 0 ? ' with uncommitted changes in src/' : ''
}`;

pinSelf(1);
const sandbox = await startServer('bench/servers/sandbox.ts', { SANDBOX_LATENCY_MS: String(settings.sandboxLatencyMs) }, 1);
const gatewayEnv = gatewayEnvOver(sandbox.origin);
/** A server's own Prometheus metrics, as text. */
async function metricsOf(server: ServerProcess): Promise<string> {
  return (await fetch(`${server.origin}/metrics`)).text();
}

/**
 * The values of the gateway's samples of `series` (its name without the lookup_graph_ prefix, followed by `{` or
 * a space) that carry `label` (`name="value"`) when one is given.
 */
function samples(text: string, series: string, label?: string): number[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`lookup_graph_${series}`) && (!label || line.includes(label)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
}

/** Upstream calls a gateway made, from its own /metrics. */
async function upstreamCalls(server: ServerProcess, action?: string): Promise<number> {
  return samples(await metricsOf(server), 'upstream_calls_total{', action && `action="${action}"`).reduce((sum, value) => sum + value, 0);
}

/**
 * Seconds the gateway's main thread has stood still for the collector so far, by kind, from its own /metrics
 * (prom-client's GC observer). A kind appears once it has happened: scavenges always have under load (a missing
 * one reads NaN, not 0), full collections and incremental steps may not have yet.
 */
async function gcPauseSeconds(server: ServerProcess): Promise<{ minor: number; major: number }> {
  const text = await metricsOf(server);
  const read = (kind: string) => samples(text, 'nodejs_gc_duration_seconds_sum{', `kind="${kind}"`)[0];
  return { minor: read('minor') ?? Number.NaN, major: (read('major') ?? 0) + (read('incremental') ?? 0) };
}

/** Full collections (mark-compact) the gateway has made so far, from the same GC observer. */
async function fullCollections(server: ServerProcess): Promise<number> {
  return samples(await metricsOf(server), 'nodejs_gc_duration_seconds_count{', 'kind="major"')[0] ?? 0;
}

console.log(
  `Lookup Graph benchmark: ${settings.rounds} rounds of ${settings.roundMs} ms, concurrency ${settings.concurrency}, sandbox latency ${settings.sandboxLatencyMs} ms${CAN_PIN ? ', servers on CPU 0, load on CPU 1' : ''}`,
);
const bare = await startServer('bench/servers/bare-yoga.ts', {});
const bareUnguarded = await startServer('bench/servers/bare-yoga.ts', { BARE_YOGA_BODY_GUARD: 'off' });
const passthrough = await startServer('bench/servers/passthrough.ts', { UPSTREAM_ORIGIN: sandbox.origin });
const yogaLookup = await startServer('bench/servers/yoga-lookup.ts', { UPSTREAM_ORIGIN: sandbox.origin, UPSTREAM_TOKEN: SANDBOX_TOKEN });
const restRequest = (domain: string): Request => ({
  path: '/v1/action/domain_info',
  body: JSON.stringify({ domain }),
  headers: { authorization: `Bearer ${SANDBOX_TOKEN}` },
});
const gateway = await startServer(GATEWAY, gatewayEnv);
const gatewayAtStartMb = residentMb(gateway.pid) ?? Number.NaN;
const { maxBytes, resultsMaxBytes } = loadConfig({}).cache;
const cacheBounds = `${maxBytes / 2 ** 20} MB of entries, up to an eighth of that parsed, ${resultsMaxBytes / 2 ** 20} MB of results`;
// The same gateway with remembered results off (CACHE_RESULTS_MB=0): every cached operation runs its resolvers.
const unremembered = await startServer(GATEWAY, { ...gatewayEnv, CACHE_RESULTS_MB: '0' });
// (h) the same gateway with tracing on: every request sampled, spans exported over OTLP/HTTP
// (protobuf) to a sink in this process that reads and drops them.
let otlpExports = 0;
const otlpSink = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    otlpExports += 1;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise<void>((resolve) => otlpSink.listen(0, '127.0.0.1', resolve));
const traced = await startServer(GATEWAY, {
  ...gatewayEnv,
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(otlpSink.address() as AddressInfo).port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
});

const fullProfile = fullProfileQuery();
// The floor of (c) against (b): a bare node:http server reading the same requests and sending the gateway's own bytes back.
const recorded = async (query: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'lookup-graph-bench-')), 'answer.json');
  const res = await fetch(`${gateway.origin}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: gql(query) });
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
};
const fixedAnswer = await startServer('bench/servers/fixed-answer.ts', {
  FIXED_SMALL_FILE: await recorded(FIVE_FIELD_PROFILE),
  FIXED_LARGE_FILE: await recorded(fullProfile),
});
// (r) the same gateway with the Redis cache (own key secret), when a Redis answers on 127.0.0.1:6379.
const redisUp = await redisAnswers();
const redisClient = redisUp ? new Redis('redis://127.0.0.1:6379') : null;
const viaRedis = redisUp ? await startServer(GATEWAY, { ...gatewayEnv, REDIS_URL: 'redis://127.0.0.1:6379', CACHE_KEY_SECRET: `bench-r-${Date.now()}` }) : null;
const ACCEPT_COMPRESSED = { 'accept-encoding': 'br, gzip' };
let unique = 0;
let fresh5 = 0;
interface Scenario {
  id: string;
  server: ServerProcess;
  request: () => Request;
}
const throughputScenarios: Scenario[] = [
  { id: 'a', server: bare, request: repeat(graphql('{ hello }')) },
  { id: 'a2', server: bareUnguarded, request: repeat(graphql('{ hello }')) },
  { id: 'b', server: gateway, request: repeat(graphql(FIVE_FIELD_PROFILE)) },
  { id: 'bz', server: gateway, request: repeat({ ...graphql(FIVE_FIELD_PROFILE), headers: ACCEPT_COMPRESSED }) },
  { id: 'c', server: gateway, request: repeat(graphql(fullProfile)) },
  { id: 'fb', server: fixedAnswer, request: repeat(graphql(FIVE_FIELD_PROFILE)) },
  { id: 'fc', server: fixedAnswer, request: repeat(graphql(fullProfile)) },
  { id: 'b0', server: unremembered, request: repeat(graphql(FIVE_FIELD_PROFILE)) },
  { id: 'c0', server: unremembered, request: repeat(graphql(fullProfile)) },
  { id: 'cz', server: gateway, request: repeat({ ...graphql(fullProfile), headers: ACCEPT_COMPRESSED }) },
  { id: 'e', server: gateway, request: repeat(graphql(TEN_SYMBOL_QUERY)) },
  // Uncached: a domain nobody asked for before on every request; @fresh makes the profile and the symbols go upstream every time.
  { id: 'u', server: gateway, request: () => graphql(DOMAIN_DOCUMENT, { domain: `u-${unique++}.example.com` }) },
  // The floor of (u): the pass-through proxy making the same upstream call, with nothing of a gateway in between.
  { id: 'pt', server: passthrough, request: () => restRequest(`pt-${unique++}.example.com`) },
  // The floor of (u) on this stack: unguarded bare Yoga whose one field makes that call, nothing else of a gateway.
  { id: 'yl', server: yogaLookup, request: () => graphql(DOMAIN_DOCUMENT, { domain: `yl-${unique++}.example.com` }) },
  { id: 'p', server: gateway, request: () => graphql(FRESH_PROFILE_DOCUMENT, { username: `bench_${fresh5++}` }) },
  { id: 's', server: gateway, request: repeat(graphql(TEN_SYMBOL_QUERY.replace(') {', ') @fresh {'))) },
  ...(viaRedis ? [{ id: 'r', server: viaRedis, request: repeat(graphql(FIVE_FIELD_PROFILE)) }] : []),
  { id: 'h', server: traced, request: repeat(graphql(FIVE_FIELD_PROFILE)) },
];

// Warm-up: fills the gateway's cache and the JIT of every process, the uncached path included.
for (const scenario of throughputScenarios) await throughput(scenario.server.origin, scenario.request, settings.concurrency, 1000);
await sequentialLatency(gateway.origin, () => graphql(DOMAIN_DOCUMENT, { domain: `warm-${unique++}.example.com` }), settings.latencySamples);
await sequentialLatency(sandbox.origin, () => restRequest(`warm-${unique++}.example.com`), settings.latencySamples);
await sequentialLatency(passthrough.origin, () => restRequest(`warm-${unique++}.example.com`), settings.latencySamples);
await sequentialLatency(traced.origin, () => graphql(DOMAIN_DOCUMENT, { domain: `warm-${unique++}.example.com` }), settings.latencySamples);

const rps: Record<string, number[]> = {};
/** Server CPU µs per request, per round. */
const cpuUs: Record<string, number[]> = {};
/** Of (u)'s CPU per request, per round: the gateway's main thread and V8's helper threads (the collector's concurrent and parallel work). */
const uncachedThreads: { main: number[]; helpers: number[] } = { main: [], helpers: [] };
/** (u)'s main-thread collector pauses per request (µs), per round: scavenges, and full collections with their incremental steps. */
const uncachedPauses: { minor: number[]; major: number[] } = { minor: [], major: [] };
/** Redis commands per request of (r), per round. */
const redisCommandsPerRequest: number[] = [];
const redisCommands = async () => Number(/total_commands_processed:(\d+)/.exec((await redisClient?.info('stats')) ?? '')?.[1] ?? 0);
const bytes: Record<string, number> = {};
const failures: Record<string, number> = {};
const overheads: number[] = [];
const restLatencies: number[] = [];
const gatewayLatencies: number[] = [];
const hopLatencies: number[] = [];
const tracedLatencies: number[] = [];
for (let round = 0; round < settings.rounds; round++) {
  for (const scenario of throughputScenarios) {
    if (settings.roundWarmupMs > 0) await throughput(scenario.server.origin, scenario.request, settings.concurrency, settings.roundWarmupMs);
    const commandsBefore = scenario.id === 'r' ? await redisCommands() : 0;
    const pausesBefore = scenario.id === 'u' ? await gcPauseSeconds(scenario.server) : null;
    const threadsBefore = scenario.id === 'u' ? threadCpuSeconds(scenario.server.pid) : null;
    const result = await measuredRound(scenario.server, scenario.request, settings.concurrency, settings.roundMs);
    if (threadsBefore && pausesBefore) {
      const threadsAfter = threadCpuSeconds(scenario.server.pid);
      uncachedThreads.main.push(((threadsAfter.main - threadsBefore.main) * 1e6) / result.requests);
      uncachedThreads.helpers.push(((threadsAfter.helpers - threadsBefore.helpers) * 1e6) / result.requests);
      const pausesAfter = await gcPauseSeconds(scenario.server);
      uncachedPauses.minor.push(((pausesAfter.minor - pausesBefore.minor) * 1e6) / result.requests);
      uncachedPauses.major.push(((pausesAfter.major - pausesBefore.major) * 1e6) / result.requests);
    }
    cpuUs[scenario.id] = [...(cpuUs[scenario.id] ?? []), result.cpuUs];
    if (scenario.id === 'r') redisCommandsPerRequest.push(((await redisCommands()) - commandsBefore - 1) / result.requests);
    rps[scenario.id] = [...(rps[scenario.id] ?? []), result.requestsPerSecond];
    bytes[scenario.id] = result.meanResponseBytes;
    failures[scenario.id] = (failures[scenario.id] ?? 0) + result.errors;
  }
  // (d) uncached: every request a domain nobody asked for before, straight to the sandbox and through the gateway.
  const rest = await sequentialLatency(sandbox.origin, () => restRequest(`rest-${unique++}.example.com`), settings.latencySamples);
  const hop = await sequentialLatency(passthrough.origin, () => restRequest(`hop-${unique++}.example.com`), settings.latencySamples);
  hopLatencies.push(hop.medianMs);
  const viaGateway = await sequentialLatency(gateway.origin, () => graphql(DOMAIN_DOCUMENT, { domain: `gw-${unique++}.example.com` }), settings.latencySamples);
  restLatencies.push(rest.medianMs);
  gatewayLatencies.push(viaGateway.medianMs);
  overheads.push(viaGateway.medianMs - rest.medianMs);
  failures.d = (failures.d ?? 0) + viaGateway.errors + rest.errors;
  const viaTraced = await sequentialLatency(traced.origin, () => graphql(DOMAIN_DOCUMENT, { domain: `tr-${unique++}.example.com` }), settings.latencySamples);
  tracedLatencies.push(viaTraced.medianMs);
  failures.h2 = (failures.h2 ?? 0) + viaTraced.errors;
}

// Memory after the load above, then after one more pass of the gateway's scenarios: growth across runs.
const memoryAfter = async () => {
  const text = await metricsOf(gateway);
  const mb = (name: string) => (samples(text, `${name} `)[0] ?? Number.NaN) / 2 ** 20;
  return {
    rssMb: residentMb(gateway.pid) ?? mb('process_resident_memory_bytes'),
    heapMb: mb('nodejs_heap_size_used_bytes'),
    /** What the caches hold by their own count (lookup_graph_cache_bytes: entries, parsed copies, results). */
    cachesMb: samples(text, 'cache_bytes{').reduce((sum, bytes) => sum + bytes, 0) / 2 ** 20,
  };
};
const memoryFirst = await memoryAfter();
for (const scenario of throughputScenarios.filter((s) => s.server === gateway))
  await throughput(gateway.origin, scenario.request, settings.concurrency, settings.roundMs);
const memorySecond = await memoryAfter();

// p50/p99 added over a direct upstream call, both in an open loop at 25% of the gateway's uncached saturation rate.
const openRate = Math.max(1, Math.round(median(rps.u!) / 4));
const openDirect = await openLoop(sandbox.origin, () => restRequest(`open-rest-${unique++}.example.com`), openRate, settings.openLoopMs);
const fullCollectionsBefore = await fullCollections(gateway);
const openGateway = await openLoop(
  gateway.origin,
  () => graphql(DOMAIN_DOCUMENT, { domain: `open-gw-${unique++}.example.com` }),
  openRate,
  settings.openLoopMs,
);
const openFullCollections = (await fullCollections(gateway)) - fullCollectionsBefore;
failures.o = openDirect.errors + openGateway.errors;

// Compression: what comes back for the full profile and for the GraphiQL page with and without Accept-Encoding.
const bodyBytes = async (path: string, headers: Record<string, string>, body?: string) => {
  const res = await httpRequest(`${gateway.origin}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  return { bytes: (await res.body.arrayBuffer()).byteLength, encoding: String(res.headers['content-encoding'] ?? 'identity') };
};
const compressed = {
  full: await bodyBytes('/graphql', {}, gql(fullProfile)),
  fullBr: await bodyBytes('/graphql', ACCEPT_COMPRESSED, gql(fullProfile)),
  graphiql: await bodyBytes('/graphql', { accept: 'text/html' }),
  graphiqlBr: await bodyBytes('/graphql', { accept: 'text/html', ...ACCEPT_COMPRESSED }),
};

await gateway.stop();
await unremembered.stop();
await traced.stop();
await viaRedis?.stop();
redisClient?.disconnect();
await new Promise((resolve) => otlpSink.close(resolve));

// (f) a Zipf workload over 1,000 domains, on a fresh gateway (empty cache).
const pick = zipf(settings.zipfInputs, settings.zipfExponent, 42);
const workload = Array.from({ length: settings.zipfOperations }, () => `zipf-${pick()}.example.com`);
const distinct = new Set(workload).size;
const zipfRequests = workload.map((domain) => graphql(DOMAIN_DOCUMENT, { domain }));
const fresh = await startServer(GATEWAY, gatewayEnv);
// (e), cold: the ten symbols on an empty cache.
await runAll(fresh.origin, [graphql(TEN_SYMBOL_QUERY)], 1);
const coldSymbolCalls = await upstreamCalls(fresh, 'company_financial_profile');
const before = await upstreamCalls(fresh);
failures.f = await runAll(fresh.origin, zipfRequests, 16);
const zipfCalls = (await upstreamCalls(fresh)) - before;
await fresh.stop();

// (g) the same workload split between two gateway processes sharing a Redis cache.
let redisResult: { calls: number; failures: number } | null = null;
if (await redisAnswers()) {
  const shared = { ...gatewayEnv, REDIS_URL: 'redis://127.0.0.1:6379', CACHE_KEY_SECRET: `bench-${Date.now()}` };
  const one = await startServer(GATEWAY, shared);
  const two = await startServer(GATEWAY, shared);
  const halves = [zipfRequests.filter((_, i) => i % 2 === 0), zipfRequests.filter((_, i) => i % 2 === 1)];
  const errors = await Promise.all([runAll(one.origin, halves[0]!, 8), runAll(two.origin, halves[1]!, 8)]);
  redisResult = { calls: (await upstreamCalls(one)) + (await upstreamCalls(two)), failures: errors[0]! + errors[1]! };
  await Promise.all([one.stop(), two.stop()]);
}
// (i) a page with one slow lookup: time to the first payload with @defer, against the full result.
// A sandbox of its own, where only the transcript is slow; the rows above are not affected.
let deferResult: DeferTimings | null = null;
if (settings.deferSamples > 0) {
  const slowSandbox = await startServer('bench/servers/sandbox.ts', { SANDBOX_LATENCY_MS: `transcript:${settings.deferSlowMs}` }, 1);
  const deferGateway = await startServer(GATEWAY, { ...gatewayEnv, ACTION_BASE_URL: slowSandbox.origin });
  await measureDefer(deferGateway.origin, 1, 'warm'); // the JIT and the connections
  deferResult = await measureDefer(deferGateway.origin, settings.deferSamples, 'h');
  await Promise.all([deferGateway.stop(), slowSandbox.stop()]);
}
await bare.stop();
await bareUnguarded.stop();
await passthrough.stop();
await yogaLookup.stop();
await fixedAnswer.stop();
await sandbox.stop();

// Report.
const med = (id: string) => median(rps[id]!);
const pct = (value: number) => `${(value * 100).toFixed(0)}%`;
const overhead = median(overheads);
const cpu = (id: string) => median(cpuUs[id] ?? [Number.NaN]);
const us = (id: string) => `${cpu(id).toFixed(0)} µs`;
const met = (ok: boolean) => (ok ? 'met' : 'not met');
const added = (p: number) => percentile(openGateway.latencies, p) - percentile(openDirect.latencies, p);
const rows: string[][] = [
  ['(a) bare Yoga `{ hello }`', `${med('a').toFixed(0)} req/s`, `baseline; ${us('a')} CPU/request`, '', `${failures.a}`],
  [
    '(a) bare Yoga `{ hello }` without its body guard (`maxRequestBodySize: false`)',
    `${med('a2').toFixed(0)} req/s`,
    `stricter baseline; ${us('a2')} CPU/request`,
    '',
    `${failures.a2}`,
  ],
  ['(a) direct REST call to the sandbox (sequential)', `${median(restLatencies).toFixed(3)} ms`, 'baseline', '', '0'],
  [
    '(b) cached 5-field photo-social profile',
    `${med('b').toFixed(0)} req/s`,
    `${pct(med('b') / med('a'))} of (a), ${pct(med('b') / med('a2'))} of unguarded; ${us('b')} CPU/request`,
    `≥ 80% of unguarded: ${met(med('b') / med('a2') >= 0.8)}`,
    `${failures.b}`,
  ],
  [
    '(b) same, client accepts br/gzip (the 0.4 KB response stays uncompressed)',
    `${med('bz').toFixed(0)} req/s`,
    `${pct(med('bz') / med('b'))} of (b); ${us('bz')} CPU/request`,
    'small responses cost nothing',
    `${failures.bz}`,
  ],
  [
    '(c) cached full profile, every field',
    `${med('c').toFixed(0)} req/s`,
    `${pct(med('c') / med('b'))} of (b), ${pct(med('c') / med('a2'))} of unguarded; ${us('c')} CPU/request (by server CPU: ${pct(cpu('b') / cpu('c'))} of (b))`,
    `≥ 80% of (b): ${met(med('c') / med('b') >= 0.8)}`,
    `${failures.c}`,
  ],
  [
    '(c) floor: bare node:http reading the same requests and sending the same bytes, full profile against 5 fields',
    `${med('fc').toFixed(0)} vs ${med('fb').toFixed(0)} req/s`,
    `${pct(med('fc') / med('fb'))} (the gateway: ${pct(med('c') / med('b'))}); ${us('fc')} vs ${us('fb')} CPU/request (by CPU: ${pct(cpu('fb') / cpu('fc'))})`,
    'what the bytes alone cost',
    `${(failures.fc ?? 0) + (failures.fb ?? 0)}`,
  ],
  [
    '(b) same, remembered results off (`CACHE_RESULTS_MB=0`): the operation runs every time',
    `${med('b0').toFixed(0)} req/s`,
    `${pct(med('b0') / med('a2'))} of unguarded; ${us('b0')} CPU/request`,
    '',
    `${failures.b0}`,
  ],
  [
    '(c) same, remembered results off: resolvers and serialisation every time',
    `${med('c0').toFixed(0)} req/s`,
    `${pct(med('c0') / med('b0'))} of (b) with results off; ${us('c0')} CPU/request`,
    '',
    `${failures.c0}`,
  ],
  [
    '(c) same, client accepts br (compressed)',
    `${med('cz').toFixed(0)} req/s`,
    `${pct(med('cz') / med('c'))} of (c); ${us('cz')} CPU/request; ${compressed.full.bytes} B → ${compressed.fullBr.bytes} B (${compressed.fullBr.encoding})`,
    '≥ 1 KB compressed',
    `${failures.cz}`,
  ],
  [
    '(d) floor: a bare node:http pass-through proxy to the sandbox',
    `${median(hopLatencies).toFixed(3)} ms`,
    `+${(median(hopLatencies) - median(restLatencies)).toFixed(3)} ms over REST: the extra hop alone`,
    '',
    '0',
  ],
  [
    '(d) uncached lookup through the gateway (sequential)',
    `${median(gatewayLatencies).toFixed(3)} ms`,
    `+${overhead.toFixed(3)} ms over REST, +${(median(gatewayLatencies) - median(hopLatencies)).toFixed(3)} ms over the pass-through`,
    `≤ 1 ms: ${met(overhead <= 1)}`,
    `${failures.d}`,
  ],
  [
    '(d) floor: the pass-through proxy, closed loop (a new domain every request, straight REST)',
    `${med('pt').toFixed(0)} req/s`,
    `${us('pt')} CPU/request: one upstream call through undici and one node:http answer, nothing else`,
    '',
    `${failures.pt}`,
  ],
  [
    '(d) floor: unguarded bare Yoga whose one field makes the same upstream call (the same document, a new domain every request)',
    `${med('yl').toFixed(0)} req/s`,
    `${pct(med('yl') / med('a2'))} of unguarded Yoga \`{ hello }\`: the most an uncached lookup can reach on Yoga and undici; ${us('yl')} CPU/request`,
    '',
    `${failures.yl}`,
  ],
  [
    '(d) uncached single lookup, closed loop (a new domain every request)',
    `${med('u').toFixed(0)} req/s`,
    `${pct(med('u') / med('a2'))} of unguarded Yoga, ${pct(med('u') / med('yl'))} of the floor on Yoga, ${pct(med('u') / med('pt'))} of the pass-through; ${us('u')} CPU/request, of which V8's helper threads ${median(uncachedThreads.helpers).toFixed(0)} µs (the main thread ${median(uncachedThreads.main).toFixed(0)} µs, standing still for the collector ${median(uncachedPauses.minor).toFixed(0)} µs in scavenges and ${median(uncachedPauses.major).toFixed(1)} µs in full collections)`,
    `≥ 50% of unguarded, ≤ 420 µs: ${met(med('u') / med('a2') >= 0.5)}, ${met(cpu('u') <= 420)}`,
    `${failures.u}`,
  ],
  [
    `(d) added latency at 25% of that rate (open loop, ${openRate} req/s)`,
    `p50 +${added(50).toFixed(2)} ms, p99 +${added(99).toFixed(2)} ms`,
    `gateway p50 ${percentile(openGateway.latencies, 50).toFixed(2)} / p99 ${percentile(openGateway.latencies, 99).toFixed(2)} ms; direct p50 ${percentile(openDirect.latencies, 50).toFixed(2)} / p99 ${percentile(openDirect.latencies, 99).toFixed(2)} ms; ${openFullCollections} full collections in the gateway meanwhile`,
    `≤ +1 ms / ≤ +10 ms: ${met(added(50) <= 1)}, ${met(added(99) <= 10)}`,
    `${failures.o}`,
  ],
  [
    '(d) photo-social profile, 5 fields, uncached (`@fresh`)',
    `${med('p').toFixed(0)} req/s`,
    `${pct(med('p') / med('a2'))} of unguarded Yoga; ${us('p')} CPU/request`,
    '',
    `${failures.p}`,
  ],
  [
    '(e) ten symbols in one operation (cached)',
    `${med('e').toFixed(0)} req/s`,
    `${pct(med('e') / med('a'))} of (a); ${us('e')} CPU/request; cold: ${coldSymbolCalls} upstream call`,
    '1 call',
    `${failures.e}`,
  ],
  [
    '(e) ten symbols, uncached (`@fresh`: one call each time)',
    `${med('s').toFixed(0)} req/s`,
    `${pct(med('s') / med('a2'))} of unguarded Yoga; ${us('s')} CPU/request`,
    '',
    `${failures.s}`,
  ],
  [
    '(f) Zipf over 1,000 domains, one process',
    `${((zipfCalls / settings.zipfOperations) * 1000).toFixed(0)} calls / 1,000 ops`,
    `${zipfCalls} calls for ${distinct} distinct inputs`,
    '≤ distinct',
    `${failures.f}`,
  ],
  redisResult
    ? [
        '(g) same workload, two processes sharing Redis',
        `${((redisResult.calls / settings.zipfOperations) * 1000).toFixed(0)} calls / 1,000 ops`,
        `${redisResult.calls} calls (one process: ${zipfCalls})`,
        '= one process',
        `${redisResult.failures}`,
      ]
    : ['(g) same workload, two processes sharing Redis', 'skipped', 'no Redis on 127.0.0.1:6379', '', ''],
  rps.r
    ? [
        '(r) cached 5-field profile from the Redis cache',
        `${med('r').toFixed(0)} req/s`,
        `${pct(med('r') / med('b'))} of (b), the memory cache; ${us('r')} CPU/request; ${median(redisCommandsPerRequest).toFixed(2)} Redis commands per request`,
        '1 round trip per operation',
        `${failures.r}`,
      ]
    : ['(r) cached 5-field profile from the Redis cache', 'skipped', 'no Redis on 127.0.0.1:6379', '', ''],
  [
    '(m) gateway resident memory after the load above / after one more pass',
    `${memoryFirst.rssMb.toFixed(0)} MB / ${memorySecond.rssMb.toFixed(0)} MB`,
    `heap used ${memoryFirst.heapMb.toFixed(0)} MB / ${memorySecond.heapMb.toFixed(0)} MB (default CACHE_MAX_MB); at start, before any request: ${gatewayAtStartMb.toFixed(0)} MB; the caches hold ${memoryFirst.cachesMb.toFixed(0)} / ${memorySecond.cachesMb.toFixed(0)} MB by their own count (bounds: ${cacheBounds})`,
    `≤ 150 MB: ${met(Math.max(memoryFirst.rssMb, memorySecond.rssMb) <= 150)}`,
    '',
  ],
  [
    '(z) GraphiQL page',
    `${compressed.graphiql.bytes} B → ${compressed.graphiqlBr.bytes} B`,
    `${compressed.graphiqlBr.encoding} (${pct(compressed.graphiqlBr.bytes / compressed.graphiql.bytes)} of identity)`,
    'compressed',
    '',
  ],
  [
    '(h) tracing on (OTLP http/protobuf, all sampled): cached 5-field profile',
    `${med('h').toFixed(0)} req/s`,
    `${pct(med('h') / med('b'))} of (b), tracing off; ${us('h')} CPU/request`,
    '',
    `${failures.h}`,
  ],
  [
    '(h) tracing on: uncached lookup (sequential)',
    `${median(tracedLatencies).toFixed(3)} ms`,
    `+${(median(tracedLatencies) - median(gatewayLatencies)).toFixed(3)} ms over (d), tracing off; ${otlpExports} OTLP exports received`,
    '',
    `${failures.h2}`,
  ],
  deferResult
    ? [
        `(i) page with one slow lookup (${settings.deferSlowMs} ms): first payload with @defer`,
        `${deferResult.firstPayloadMs.toFixed(0)} ms`,
        `${pct(deferResult.firstPayloadMs / deferResult.wholeResponseMs)} of the full result without @defer (${deferResult.wholeResponseMs.toFixed(0)} ms); last payload ${deferResult.lastPayloadMs.toFixed(0)} ms`,
        'first ≪ full',
        `${deferResult.failures}`,
      ]
    : ['(i) page with one slow lookup: first payload with @defer', 'skipped', 'BENCH_DEFER_SAMPLES=0', '', ''],
];
const header = ['scenario', 'median', 'ratio / detail', 'target', 'failed requests'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}`);
console.log(`\nResponse sizes: (b) ${bytes.b!.toFixed(0)} B, (c) ${bytes.c!.toFixed(0)} B, (e) ${bytes.e!.toFixed(0)} B`);

const markdown = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}. All numbers come from ONE run: medians over
${settings.rounds} interleaved rounds, and ratios to the baselines measured in the same run.

## Machine and settings
- CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; memory ${(totalmem() / 2 ** 30).toFixed(0)} GiB
- Node ${process.version}; ${CAN_PIN ? 'each server process pinned to CPU 0, the load generator and the sandbox to CPU 1 (taskset)' : 'no CPU pinning (taskset not found)'}
- Rounds: ${settings.rounds} × ${settings.roundMs} ms per throughput scenario, closed loop with ${settings.concurrency} keep-alive connections, each after ${settings.roundWarmupMs} ms of unmeasured load on the same server (an idle gateway's first seconds cost 2–3× the CPU)
- The sandbox upstream runs in a process of its own (on CPU 1 with the load generator); sandbox latency: ${settings.sandboxLatencyMs} ms; uncached latency: ${settings.latencySamples} sequential requests per round
- (i): ${settings.deferSamples} pages with @defer (multipart/mixed) and ${settings.deferSamples} without, one at a time, each on inputs nobody asked for before; a sandbox of its own with only the transcript slowed to ${settings.deferSlowMs} ms
- Zipf workload: ${settings.zipfOperations} operations over ${settings.zipfInputs} domains, exponent ${settings.zipfExponent}, 16 concurrent (two processes × 8 for (g))
- The gateway: commit ${gatewayCommit}
- The gateway runs the built JavaScript (\`npm run build\`, bench/servers/gateway.mjs on plain Node), as production does; bare Yoga, the pass-through and the sandbox run through tsx (their CPU is counted for the Node process under it)
- CPU/request: user + system time of the server's processes (/proc) over a round, divided by the requests it answered in it
- The open loop (d, 25%): ${settings.openLoopMs} ms at a fixed arrival rate of a quarter of the closed-loop uncached rate, against the gateway and straight against the sandbox
- Gateway settings: ${Object.entries(gatewayEnv)
  .filter(([k]) => !k.startsWith('ACTION_'))
  .map(([k, v]) => `${k}=${v}`)
  .join(', ')}; cache in memory (Redis for (g))

## Results
| ${header.join(' | ')} |
|${header.map(() => '---').join('|')}|
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}

Rounds (req/s): ${Object.entries(rps)
  .map(([id, values]) => `(${id}) ${values.map((v) => v.toFixed(0)).join(', ')}`)
  .join('; ')}.
CPU per request, per round (µs): ${Object.entries(cpuUs)
  .map(([id, values]) => `(${id}) ${values.map((v) => v.toFixed(0)).join(', ')}`)
  .join('; ')}.
(u) collector pauses per request, per round (µs, scavenges / full collections): ${uncachedPauses.minor.map((v, i) => `${v.toFixed(0)} / ${uncachedPauses.major[i]!.toFixed(1)}`).join(', ')}.
Uncached overhead per round (ms): ${overheads.map((v) => v.toFixed(3)).join(', ')}.
Mean response bytes: (b) ${bytes.b!.toFixed(0)}, (c) ${bytes.c!.toFixed(0)}, (e) ${bytes.e!.toFixed(0)}.

## Reading the numbers
- Bare Yoga with its defaults pipes every POST body through a size-limiting stream; the gateway enforces
  its body limit on Content-Length and on the bytes read instead (src/security/body-limit.ts), which is
  why a cached lookup can outrun the default baseline. The unguarded baseline is the stricter comparison.
- (b) and (c) repeat one operation, so from its third request on the gateway answers it from a remembered
  result (src/cache/result-memo.ts: no resolver runs, the data's JSON bytes are kept) as it would any operation
  repeated while its cache entries stand, at the HTTP layer before Yoga (src/replay-route.ts: auth, rate limit,
  body size and CORS checked there); the rows "remembered results off" go through Yoga, run the resolvers and
  serialise every time, on graphql-jit (@envelop/graphql-jit), as an operation nobody repeated does.
- (c) sends a 5.4 KB query and gets 12.6 KB back, (b) 0.1 KB and 0.4 KB: once neither runs a resolver, the
  difference between them is the bytes read and written. The load generator shares CPU 1 with the sandbox and
  is the limit of the large-response rows (the node:http floor sending the same bytes is its measure): the
  gateway's own cost shows in CPU/request, and "by server CPU" is (b)'s CPU per request against (c)'s.
- The load generator (bench/load.ts) builds a repeated request once and reads answers through undici's
  dispatch handler: it checks the status and looks for \`"errors"\` in the bytes (decompressed when compressed)
  without decoding them to text.
- Uncached rows: (d) closed loop asks a domain nobody asked for before on every request (the cache grows as it
  would); (d) photo-social and (e) uncached use \`@fresh\`, which skips the cache read and still stores the answer.
- The floor on Yoga (bench/servers/yoga-lookup.ts) is unguarded bare Yoga whose one field makes the gateway's
  upstream call over an undici Pool and answers the same document's five fields with plain resolvers: no cache,
  coalescing, input checks, limits, deadlines, metrics or logs. Its rate against unguarded \`{ hello }\` is the most
  an uncached lookup can reach on this stack; the gateway's own work is what separates (u) from it.
- (m) is read from /proc (VmRSS) of the gateway process and its own /metrics (heap used; the caches' size from
  \`lookup_graph_cache_bytes\`) after every row above has run against it, then again after one more pass of its
  throughput rows; "at start" is read once the gateway is ready, before its first request.
- CPU/request counts every thread of a server. The uncached row splits the gateway's into its main thread
  and V8's helper threads, which do the collector's concurrent marking and sweeping and parallel scavenges;
  pinned to one core, that work takes the same core as the main thread. Its collector pauses are the
  main thread's time standing still for scavenges and for full collections (with their incremental steps),
  from prom-client's GC observer on the gateway's /metrics, read around each measured round.
- (d) is the time a frontend waits beyond a direct REST call for an uncached lookup: one more loopback hop
  (client to gateway) plus parsing, limits, cost, cache, resilience layers and the envelope parse. Documents
  are sent once with variables, as frontends do; unique query texts would add parse and validation.
- (h) is the gateway with OTEL_EXPORTER_OTLP_ENDPOINT set (a sink in the bench process); the rows without (h)
  run with tracing off, where no OpenTelemetry SDK is loaded and no span hook is installed.
- The machine is a shared 2-core VM: rounds move a lot (see the per-round numbers), the medians and ratios less.
`;
const out = process.env.BENCH_OUT ?? 'results.md';
writeFileSync(fileURLToPath(new URL(`./${out}`, import.meta.url)), markdown);
console.log(`\nwrote bench/${out}`);
