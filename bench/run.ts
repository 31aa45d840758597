/**
 * `npm run bench`: the sandbox (in this process, with a configurable latency), the gateway and bare
 * Yoga (each in its own process), and a load generator, all on 127.0.0.1. Everything is measured in
 * ONE run, as medians over interleaved rounds, and reported as ratios to the baselines measured in
 * the same run. Writes bench/results.md.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SANDBOX_TOKEN } from '../src/sandbox/server.js';
import { median, runAll, sequentialLatency, throughput, type Request } from './load.js';
import { CAN_PIN, pinSelf, startServer, type ServerProcess } from './processes.js';
import { FIVE_FIELD_PROFILE, TEN_SYMBOL_QUERY, fullProfileQuery, gql, zipf } from './workloads.js';
import { redisAnswers } from '../test/support/redis.js';
import { measureDefer, type DeferTimings } from './incremental.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  sandboxLatencyMs: num('BENCH_SANDBOX_LATENCY_MS', 0),
  rounds: num('BENCH_ROUNDS', 5),
  roundMs: num('BENCH_ROUND_MS', 2000),
  concurrency: num('BENCH_CONCURRENCY', 32),
  latencySamples: num('BENCH_LATENCY_SAMPLES', 300),
  zipfOperations: num('BENCH_ZIPF_OPERATIONS', 3000),
  zipfInputs: 1000,
  zipfExponent: 1.1,
  /** (i): the slow lookup's latency, and how many pages are asked with and without @defer. */
  deferSlowMs: num('BENCH_DEFER_SLOW_MS', 2000),
  deferSamples: num('BENCH_DEFER_SAMPLES', 5),
};

pinSelf(1);
const sandbox = await startServer('bench/servers/sandbox.ts', { SANDBOX_LATENCY_MS: String(settings.sandboxLatencyMs) }, 1);
const gatewayEnv = {
  ACTION_BASE_URL: sandbox.origin,
  ACTION_TOKEN: SANDBOX_TOKEN,
  LOG_LEVEL: 'error',
  CLIENT_RATE_LIMIT_PER_MINUTE: '0',
  COST_BUDGET: '1000',
  OPERATION_TIMEOUT_MS: '30000',
};
/** Upstream calls a gateway made, from its own /metrics. */
async function upstreamCalls(server: ServerProcess, action?: string): Promise<number> {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('lookup_graph_upstream_calls_total{') && (!action || line.includes(`action="${action}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
const graphql = (query: string, variables?: Record<string, unknown>): Request => ({ path: '/graphql', body: gql(query, variables) });
// Frontends send one document with variables; Yoga parses and validates it once.
const DOMAIN_DOCUMENT = 'query Domain($domain: String!) { domainInfo(domain: $domain) { domainName isRegistered expiresOn registrar { name } nameServers } }';

console.log(
  `Lookup Graph benchmark: ${settings.rounds} rounds of ${settings.roundMs} ms, concurrency ${settings.concurrency}, sandbox latency ${settings.sandboxLatencyMs} ms${CAN_PIN ? ', servers on CPU 0, load on CPU 1' : ''}`,
);
const bare = await startServer('bench/servers/bare-yoga.ts', {});
const bareUnguarded = await startServer('bench/servers/bare-yoga.ts', { BARE_YOGA_BODY_GUARD: 'off' });
const passthrough = await startServer('bench/servers/passthrough.ts', { UPSTREAM_ORIGIN: sandbox.origin });
const restRequest = (domain: string): Request => ({
  path: '/v1/action/domain_info',
  body: JSON.stringify({ domain }),
  headers: { authorization: `Bearer ${SANDBOX_TOKEN}` },
});
const gateway = await startServer('bench/servers/gateway.ts', gatewayEnv);
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
const traced = await startServer('bench/servers/gateway.ts', {
  ...gatewayEnv,
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(otlpSink.address() as AddressInfo).port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
});

const fullProfile = fullProfileQuery();
const throughputScenarios: Array<{ id: string; label: string; server: ServerProcess; request: () => Request }> = [
  { id: 'a', label: '(a) bare Yoga { __typename }', server: bare, request: () => graphql('{ __typename }') },
  { id: 'a2', label: '(a) bare Yoga without its body guard', server: bareUnguarded, request: () => graphql('{ __typename }') },
  { id: 'b', label: '(b) cached 5-field photo-social profile', server: gateway, request: () => graphql(FIVE_FIELD_PROFILE) },
  { id: 'c', label: '(c) cached full profile, every field', server: gateway, request: () => graphql(fullProfile) },
  { id: 'e', label: '(e) ten symbols in one operation (cached)', server: gateway, request: () => graphql(TEN_SYMBOL_QUERY) },
  { id: 'h', label: '(h) tracing on: cached 5-field photo-social profile', server: traced, request: () => graphql(FIVE_FIELD_PROFILE) },
];

// Warm-up: fills the gateway's cache and the JIT of every process, the uncached path included.
for (const scenario of throughputScenarios) await throughput(scenario.server.origin, scenario.request, settings.concurrency, 1000);
let unique = 0;
await sequentialLatency(gateway.origin, () => graphql(DOMAIN_DOCUMENT, { domain: `warm-${unique++}.example.com` }), settings.latencySamples);
await sequentialLatency(sandbox.origin, () => restRequest(`warm-${unique++}.example.com`), settings.latencySamples);
await sequentialLatency(passthrough.origin, () => restRequest(`warm-${unique++}.example.com`), settings.latencySamples);
await sequentialLatency(traced.origin, () => graphql(DOMAIN_DOCUMENT, { domain: `warm-${unique++}.example.com` }), settings.latencySamples);

const rps: Record<string, number[]> = {};
const bytes: Record<string, number> = {};
const failures: Record<string, number> = {};
const overheads: number[] = [];
const restLatencies: number[] = [];
const gatewayLatencies: number[] = [];
const hopLatencies: number[] = [];
const tracedLatencies: number[] = [];
for (let round = 0; round < settings.rounds; round++) {
  for (const scenario of throughputScenarios) {
    const result = await throughput(scenario.server.origin, scenario.request, settings.concurrency, settings.roundMs);
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
await gateway.stop();
await traced.stop();
await new Promise((resolve) => otlpSink.close(resolve));

// (f) a Zipf workload over 1,000 domains, on a fresh gateway (empty cache).
const pick = zipf(settings.zipfInputs, settings.zipfExponent, 42);
const workload = Array.from({ length: settings.zipfOperations }, () => `zipf-${pick()}.example.com`);
const distinct = new Set(workload).size;
const zipfRequests = workload.map((domain) => graphql(DOMAIN_DOCUMENT, { domain }));
const fresh = await startServer('bench/servers/gateway.ts', gatewayEnv);
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
  const one = await startServer('bench/servers/gateway.ts', shared);
  const two = await startServer('bench/servers/gateway.ts', shared);
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
  const deferGateway = await startServer('bench/servers/gateway.ts', { ...gatewayEnv, ACTION_BASE_URL: slowSandbox.origin });
  await measureDefer(deferGateway.origin, 1, 'warm'); // the JIT and the connections
  deferResult = await measureDefer(deferGateway.origin, settings.deferSamples, 'h');
  await Promise.all([deferGateway.stop(), slowSandbox.stop()]);
}
await bare.stop();
await bareUnguarded.stop();
await passthrough.stop();
await sandbox.stop();

// Report.
const med = (id: string) => median(rps[id]!);
const pct = (value: number) => `${(value * 100).toFixed(0)}%`;
const overhead = median(overheads);
const rows: string[][] = [
  ['(a) bare Yoga `{ __typename }`', `${med('a').toFixed(0)} req/s`, 'baseline', '', `${failures.a}`],
  ['(a) bare Yoga without its body guard (`maxRequestBodySize: false`)', `${med('a2').toFixed(0)} req/s`, 'stricter baseline', '', `${failures.a2}`],
  ['(a) direct REST call to the sandbox (sequential)', `${median(restLatencies).toFixed(3)} ms`, 'baseline', '', '0'],
  [
    '(b) cached 5-field photo-social profile',
    `${med('b').toFixed(0)} req/s`,
    `${pct(med('b') / med('a'))} of (a), ${pct(med('b') / med('a2'))} of unguarded`,
    '≥ 80%',
    `${failures.b}`,
  ],
  [
    '(c) cached full profile, every field',
    `${med('c').toFixed(0)} req/s`,
    `${pct(med('c') / med('a'))} of (a), ${pct(med('c') / med('a2'))} of unguarded`,
    '≥ 40%',
    `${failures.c}`,
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
    '≤ 1 ms',
    `${failures.d}`,
  ],
  [
    '(e) ten symbols in one operation (cached)',
    `${med('e').toFixed(0)} req/s`,
    `${pct(med('e') / med('a'))} of (a); cold: ${coldSymbolCalls} upstream call`,
    '1 call',
    `${failures.e}`,
  ],
  [
    '(f) Zipf over 1,000 domains, one process',
    `${((zipfCalls / settings.zipfOperations) * 1000).toFixed(0)} calls / 1,000 ops`,
    `${zipfCalls} calls for ${distinct} distinct inputs`,
    '≤ distinct',
    `${failures.f}`,
  ],
  [
    '(h) tracing on (OTLP http/protobuf, all sampled): cached 5-field profile',
    `${med('h').toFixed(0)} req/s`,
    `${pct(med('h') / med('b'))} of (b), tracing off`,
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
  redisResult
    ? [
        '(g) same workload, two processes sharing Redis',
        `${((redisResult.calls / settings.zipfOperations) * 1000).toFixed(0)} calls / 1,000 ops`,
        `${redisResult.calls} calls (one process: ${zipfCalls})`,
        '= one process',
        `${redisResult.failures}`,
      ]
    : ['(g) same workload, two processes sharing Redis', 'skipped', 'no Redis on 127.0.0.1:6379', '', ''],
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
- Rounds: ${settings.rounds} × ${settings.roundMs} ms per throughput scenario, closed loop with ${settings.concurrency} keep-alive connections
- The sandbox upstream runs in a process of its own (on CPU 1 with the load generator); sandbox latency: ${settings.sandboxLatencyMs} ms; uncached latency: ${settings.latencySamples} sequential requests per round
- (i): ${settings.deferSamples} pages with @defer (multipart/mixed) and ${settings.deferSamples} without, one at a time, each on inputs nobody asked for before; a sandbox of its own with only the transcript slowed to ${settings.deferSlowMs} ms
- Zipf workload: ${settings.zipfOperations} operations over ${settings.zipfInputs} domains, exponent ${settings.zipfExponent}, 16 concurrent (two processes × 8 for (g))
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
Uncached overhead per round (ms): ${overheads.map((v) => v.toFixed(3)).join(', ')}.
Mean response bytes: (b) ${bytes.b!.toFixed(0)}, (c) ${bytes.c!.toFixed(0)}, (e) ${bytes.e!.toFixed(0)}.

## Reading the numbers
- Bare Yoga with its defaults pipes every POST body through a size-limiting stream; the gateway enforces
  its body limit on Content-Length and on the bytes read instead (src/security/body-limit.ts), which is
  why a cached lookup can outrun the default baseline. The unguarded baseline is the stricter comparison.
- (c) runs through graphql-jit (@envelop/graphql-jit); an earlier run of this benchmark without it measured 37% of (a).
- (d) is the time a frontend waits beyond a direct REST call for an uncached lookup: one more loopback hop
  (client to gateway) plus parsing, limits, cost, cache, resilience layers and the envelope parse. Documents
  are sent once with variables, as frontends do; unique query texts would add parse and validation.
- (h) is the gateway with OTEL_EXPORTER_OTLP_ENDPOINT set (a sink in the bench process); the rows without (h)
  run with tracing off, where no OpenTelemetry SDK is loaded and no span hook is installed.
- The machine is a shared 2-core VM: rounds move a lot (see the per-round numbers), the medians and ratios less.
`;
writeFileSync(fileURLToPath(new URL('./results.md', import.meta.url)), markdown);
console.log('\nwrote bench/results.md');
