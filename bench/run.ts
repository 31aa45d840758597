/**
 * `npm run bench`: the sandbox upstream, the gateway (as the image starts it) and the baselines, each in
 * its own process, and a load generator, all on 127.0.0.1. Everything is measured in ONE run, as medians
 * over interleaved rounds, and compared with the baselines measured in the same run. Writes
 * bench/results.md (docs/performance.md explains each row).
 *
 * To add a throughput row, add a scenario to `scenarios`; other measurements add a Row to `otherRows`.
 */
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { request as httpRequest } from 'undici';
import { SANDBOX_TOKEN } from '../src/sandbox/server.js';
import { redisAnswers } from '../test/support/redis.js';
import { builtFloor, measurePromotion, measureStartUp, type Promotion, type StartUp } from './footprint.js';
import { measureDefer, type DeferTimings } from './incremental.js';
import { median, openLoop, percentile, runAll, sequentialLatency, throughput, type Request } from './load.js';
import {
  CAN_PIN,
  measuredRound,
  pinSelf,
  residentMb,
  sizingOf,
  startGateway,
  startServer,
  type ServerProcess,
} from './processes.js';
import { guardRailTable, table, type GuardRail, type Row, type Target } from './report.js';
import {
  DOMAIN_DOCUMENT,
  ENTITIES_DOCUMENT,
  FIVE_FIELD_PROFILE,
  FRESH_PROFILE_DOCUMENT,
  PHOTOSOCIAL_TOOL_DOCUMENT,
  TEN_REPRESENTATIONS,
  TEN_SYMBOL_QUERY,
  fullProfileQuery,
  gatewayEnvOver,
  gql,
  graphql,
  mcpToolCall,
  modernMcpToolCall,
  repeat,
} from './workloads.js';
import { seeded, zipf } from '../test/support/load.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  /** The container memory the gateways are sized for, as MEMORY_LIMIT_MB of deploy/entrypoint.sh. */
  memoryLimitMb: num('BENCH_MEMORY_LIMIT_MB', 256),
  /** The guard rail on each gateway's resident memory after the load. */
  residentLimitMb: 256,
  sandboxLatencyMs: num('BENCH_SANDBOX_LATENCY_MS', 0),
  rounds: num('BENCH_ROUNDS', 5),
  roundMs: num('BENCH_ROUND_MS', 2000),
  /** Unmeasured load on the same server before each measured round, so no round starts on an idle process. */
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
  /** (gcu, gcyl): how long each runs its load under `--trace-gc-nvp`, after a second unmeasured. */
  gcMs: num('BENCH_GC_MS', 5 * num('BENCH_ROUND_MS', 2000)),
  /** (start, start-yl): when, after the process started, its heap is collected and read. */
  startUpHeapAfterMs: 4000,
};

// The gateway runs as the image runs it: the built JavaScript on plain Node, started through deploy/entrypoint.sh.
// BENCH_GATEWAY_ROOT: the gateway of another checkout (its dist/ and bench/servers/gateway.mjs), measured by this bench.
const gatewayRoot = process.env.BENCH_GATEWAY_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
execSync('npm run build', { cwd: gatewayRoot, stdio: ['ignore', 'ignore', 'inherit'] });
const GATEWAY = join(gatewayRoot, 'bench/servers/gateway.mjs');
const gatewayCommit = `${execSync('git rev-parse --short HEAD', { cwd: gatewayRoot }).toString().trim()}${process.env.BENCH_GATEWAY_ROOT ? ' (BENCH_GATEWAY_ROOT)' : ''}${
  execSync('git status --porcelain -- src', { cwd: gatewayRoot }).length > 0 ? ' with uncommitted changes in src/' : ''
}`;

pinSelf(1);
const sandbox = await startServer(
  'bench/servers/sandbox.ts',
  { SANDBOX_LATENCY: String(settings.sandboxLatencyMs) },
  1,
);
const gatewayEnv = gatewayEnvOver(sandbox.origin);

/** Each gateway's resident memory just before it stopped, after its share of the load. */
const gatewayMemory: Array<{ name: string; now: number; peak: number }> = [];
const gateways = new Map<ServerProcess, string>();
async function gateway(
  name: string,
  env: Record<string, string> = {},
  entry = GATEWAY,
  cpu: number | string = 0,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const server = await startGateway(entry, { ...gatewayEnv, ...env }, settings.memoryLimitMb, cpu, nodeArgs);
  gateways.set(server, name);
  return server;
}
async function stopGateway(server: ServerProcess): Promise<void> {
  gatewayMemory.push({ name: gateways.get(server)!, ...residentMb(server.pid) });
  await server.stop();
}

/** A server's own Prometheus metrics, as text. */
async function metricsOf(server: ServerProcess): Promise<string> {
  return (await fetch(`${server.origin}/metrics`)).text();
}

/** The values of the samples of `series` (its name without the lookup_graph_ prefix, then `{` or a space), those carrying `label` when given. */
function samples(text: string, series: string, label?: string): number[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`lookup_graph_${series}`) && (!label || line.includes(label)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
}

/** Upstream calls a gateway made, from its own /metrics. */
async function upstreamCalls(server: ServerProcess, action?: string): Promise<number> {
  return samples(await metricsOf(server), 'upstream_calls_total{', action && `action="${action}"`).reduce(
    (sum, value) => sum + value,
    0,
  );
}

console.log(
  `Lookup Graph benchmark: ${settings.rounds} rounds of ${settings.roundMs} ms, concurrency ${settings.concurrency}, sandbox latency ${settings.sandboxLatencyMs} ms, gateways sized for ${settings.memoryLimitMb} MB${CAN_PIN ? ', servers on CPU 0, load on CPU 1' : ''}`,
);
const bare = await startServer('bench/servers/bare-yoga.ts', {});
const bareUnguarded = await startServer('bench/servers/bare-yoga.ts', { BARE_YOGA_BODY_GUARD: 'off' });
const passthrough = await startServer('bench/servers/passthrough.ts', { UPSTREAM_ORIGIN: sandbox.origin });
const yogaLookup = await startServer('bench/servers/yoga-lookup.ts', {
  UPSTREAM_ORIGIN: sandbox.origin,
  UPSTREAM_TOKEN: SANDBOX_TOKEN,
});
const restRequest = (domain: string): Request => ({
  path: '/v1/action/domain_info',
  body: JSON.stringify({ domain }),
  headers: { authorization: `Bearer ${SANDBOX_TOKEN}` },
});
const main = await gateway('main (b, bz, c, cz, e, u, p, s, d, o, mg, m, mu)');
const mainAtStartMb = residentMb(main.pid).now;
const sizing = sizingOf(main.pid);
const unremembered = await gateway('(b0, c0)', { CACHE_RESULTS_MB: '0' });
// (m26) on a gateway of its own: its server per request keeps objects alive long enough that V8 starts
// allocating shared code sites straight into the old generation, and a 2025-era tool call measured on the
// same process after it costs about 1.8x (mg) instead of 1.3x.
const modernMcp = await gateway('(m26)');
// (h) tracing on: every request sampled, spans exported over OTLP/HTTP (protobuf) to a sink in this process that reads and drops them.
let otlpExports = 0;
const otlpSink = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    otlpExports += 1;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise<void>((done) => otlpSink.listen(0, '127.0.0.1', done));
const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(otlpSink.address() as AddressInfo).port}`,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
};
const traced = await gateway('(h, hd)', tracingEnv);
// (hu) on a traced gateway of its own, so that (h)'s gateway serves mostly cached reads, as (b)'s does: with (hu)
// beside it, half of its requests were new lookups, and (h) measured their collections.
const tracedUncached = await gateway('(hu)', tracingEnv);

// (x, x0) the gateway as a Federation subgraph (FEDERATION=true: the subgraph schema, federated traces on request).
// (x0) has 6 calls in flight per request, all from one client (the router): room for them all, as for (u)'s one,
// and time for them to wait their turn, so a slow round measures the calls rather than shed ones.
const subgraph = await gateway('(x, x0)', {
  FEDERATION: 'true',
  BENCH_RESILIENCE: JSON.stringify({
    maxPerClient: 1000,
    maxQueued: 1000,
    maxInFlightPerClient: 16,
    queueTimeoutMs: 30_000,
  }),
});

// (w1u, w1c, w2u, w2c) `node dist/main.js` with one worker and with WORKERS=2, each allowed both cores (every
// other server is on CPU 0): what a second worker buys on this machine, whose second core also runs the load.
const WORKERS_ENTRY = join(gatewayRoot, 'bench/servers/workers.mjs');
const oneWorker = await gateway('(w1u, w1c)', { WORKERS: '1' }, WORKERS_ENTRY, '0,1');
const twoWorkers = await gateway('(w2u, w2c)', { WORKERS: '2' }, WORKERS_ENTRY, '0,1');

const fullProfile = fullProfileQuery();
// The floor of (b) and (c): a bare node:http server reading the same requests and sending the gateway's own bytes back.
const recorded = async (query: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'lookup-graph-bench-')), 'answer.json');
  const res = await fetch(`${main.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: gql(query),
  });
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
};
const fixedAnswer = await startServer('bench/servers/fixed-answer.ts', {
  FIXED_SMALL_FILE: await recorded(FIVE_FIELD_PROFILE),
  FIXED_LARGE_FILE: await recorded(fullProfile),
});
// (r) the cache in Redis (a key secret of its own), when a Redis answers on 127.0.0.1:6379.
const redisUp = await redisAnswers();
const redisClient = redisUp ? new Redis('redis://127.0.0.1:6379') : null;
const viaRedis = redisUp
  ? await gateway('(r)', { REDIS_URL: 'redis://127.0.0.1:6379', CACHE_KEY_SECRET: `bench-r-${Date.now()}` })
  : null;
const redisCommands = async () =>
  Number(/total_commands_processed:(\d+)/.exec((await redisClient?.info('stats')) ?? '')?.[1] ?? 0);

// The figures of the throughput rounds, by scenario id, one entry per round.
const rps: Record<string, number[]> = {};
const cpuUs: Record<string, number[]> = {};
const failures: Record<string, number> = {};
const redisCommandsPerRequest: number[] = [];
const rate = (id: string) => median(rps[id] ?? [Number.NaN]);
const cpu = (id: string) => median(cpuUs[id] ?? [Number.NaN]);
/** `id`'s CPU per request over `baseline`'s: the median of the rounds' ratios (each round measures both minutes apart). */
const cpuRatio = (id: string, baseline: string) =>
  median((cpuUs[id] ?? []).map((value, round) => value / cpuUs[baseline]![round]!));
const cpuAtMost = (factor: number) => (id: string, baseline: string) => ({
  text: `≤ ${factor}× (${baseline})`,
  met: cpuRatio(id, baseline) <= factor,
});

interface Scenario {
  id: string;
  title: string;
  server: ServerProcess;
  request: () => Request;
  /** The row whose CPU per request this one's is compared with. */
  against?: string;
  /** A target on the CPU ratio against `against`; `guardRail` lists it at the top of the results. */
  target?: (id: string, against: string) => Target;
  guardRail?: string;
  detail?: () => string;
}
const ACCEPT_COMPRESSED = { 'accept-encoding': 'br, gzip' };
let unique = 0;
const compressed = { full: { bytes: 0, encoding: '' }, fullBr: { bytes: 0, encoding: '' } };
let coldSymbolCalls = 0;
/** The throughput rows, in the order measured in each round and printed. */
const scenarios: Scenario[] = [
  {
    id: 'a',
    title: 'bare Yoga `{ hello }` with its defaults',
    server: bare,
    request: repeat(graphql('{ hello }')),
    against: 'a2',
  },
  {
    id: 'a2',
    title: 'bare Yoga `{ hello }` without its body guard (`maxRequestBodySize: false`): the baseline of cached rows',
    server: bareUnguarded,
    request: repeat(graphql('{ hello }')),
  },
  {
    id: 'b',
    title: 'cached 5-field photo-social profile',
    server: main,
    request: repeat(graphql(FIVE_FIELD_PROFILE)),
    against: 'a2',
    target: cpuAtMost(2),
    guardRail: 'a cached 5-field profile costs at most 2× bare Yoga `{ hello }` without its body guard',
  },
  {
    id: 'bz',
    title: '(b) from a client that accepts br/gzip (a 0.4 KB answer stays uncompressed)',
    server: main,
    request: repeat({ ...graphql(FIVE_FIELD_PROFILE), headers: ACCEPT_COMPRESSED }),
    against: 'b',
  },
  {
    id: 'c',
    title: 'cached full photo-social profile, every field',
    server: main,
    request: repeat(graphql(fullProfile)),
    against: 'b',
    target: cpuAtMost(1.25),
    guardRail: 'every field of the profile costs at most 1.25× its 5 fields, both cached',
  },
  {
    id: 'cz',
    title: '(c) from a client that accepts br',
    server: main,
    request: repeat({ ...graphql(fullProfile), headers: ACCEPT_COMPRESSED }),
    against: 'c',
    detail: () => `${compressed.full.bytes} B → ${compressed.fullBr.bytes} B (${compressed.fullBr.encoding})`,
  },
  {
    id: 'fb',
    title: 'floor of (b): bare node:http reading the same request and sending the same bytes',
    server: fixedAnswer,
    request: repeat(graphql(FIVE_FIELD_PROFILE)),
    against: 'a2',
  },
  {
    id: 'fc',
    title: 'floor of (c): the same for the full profile',
    server: fixedAnswer,
    request: repeat(graphql(fullProfile)),
    against: 'fb',
    detail: () => `the gateway: ${cpuRatio('c', 'b').toFixed(2)}× for (c) against (b)`,
  },
  {
    id: 'b0',
    title: '(b) with remembered results off (`CACHE_RESULTS_MB=0`): resolvers and serialisation every time',
    server: unremembered,
    request: repeat(graphql(FIVE_FIELD_PROFILE)),
    against: 'b',
  },
  {
    id: 'c0',
    title: '(c) with remembered results off',
    server: unremembered,
    request: repeat(graphql(fullProfile)),
    against: 'b0',
  },
  {
    id: 'e',
    title: 'ten stock symbols in one operation, cached',
    server: main,
    request: repeat(graphql(TEN_SYMBOL_QUERY)),
    against: 'b',
    detail: () => `cold: ${coldSymbolCalls} upstream call`,
  },
  ...(viaRedis
    ? [
        {
          id: 'r',
          title: '(b) with the cache in Redis',
          server: viaRedis,
          request: repeat(graphql(FIVE_FIELD_PROFILE)),
          against: 'b',
          detail: () => `${median(redisCommandsPerRequest).toFixed(2)} Redis commands per request`,
        },
      ]
    : []),
  {
    id: 'h',
    title: '(b) with tracing on (OTLP http/protobuf, every request sampled)',
    server: traced,
    request: repeat(graphql(FIVE_FIELD_PROFILE)),
    against: 'b',
    target: cpuAtMost(1.5),
    guardRail: 'a cached request traced, every request sampled, costs at most 1.5× untraced',
  },
  {
    id: 'pt',
    title: 'a bare node:http pass-through proxy making the upstream call of (u), no GraphQL',
    server: passthrough,
    request: () => restRequest(`pt-${unique++}.example.com`),
  },
  {
    id: 'yl',
    title: 'floor of (u): bare Yoga without its body guard whose one field makes the same upstream call',
    server: yogaLookup,
    request: () => graphql(DOMAIN_DOCUMENT, { domain: `yl-${unique++}.example.com` }),
    against: 'a2',
  },
  {
    id: 'u',
    title: 'uncached domain lookup (a new domain every request)',
    server: main,
    request: () => graphql(DOMAIN_DOCUMENT, { domain: `u-${unique++}.example.com` }),
    against: 'yl',
    target: cpuAtMost(2.5),
    guardRail: 'an uncached lookup costs at most 2.5× bare Yoga making the same upstream call',
  },
  {
    id: 'hu',
    title: '(u) with tracing on, every request sampled: three spans per lookup',
    server: tracedUncached,
    request: () => graphql(DOMAIN_DOCUMENT, { domain: `hu-${unique++}.example.com` }),
    against: 'u',
    target: cpuAtMost(1.2),
    guardRail: 'an uncached lookup traced, every request sampled, costs at most 1.2× untraced',
  },
  {
    id: 'p',
    title: 'photo-social 5-field profile, uncached (`@fresh`)',
    server: main,
    request: () => graphql(FRESH_PROFILE_DOCUMENT, { username: `bench_${unique++}` }),
    against: 'u',
  },
  {
    id: 's',
    title: 'ten stock symbols, uncached (`@fresh`: one upstream call for all ten)',
    server: main,
    request: repeat(graphql(TEN_SYMBOL_QUERY.replace(') {', ') @fresh {'))),
    against: 'u',
  },
  {
    id: 'mg',
    title: "the `photosocial_profile` MCP tool's operation (schema/mcp/) as a GraphQL request, cached",
    server: main,
    request: repeat(graphql(PHOTOSOCIAL_TOOL_DOCUMENT, { username: 'bench' })),
    against: 'b',
  },
  {
    id: 'm',
    title:
      '(mg) as an MCP `tools/call` at /mcp from a 2025-era client (`MCP-Protocol-Version: 2025-06-18`), cached: one JSON-RPC exchange, the operation of the tool run as that request',
    server: main,
    request: repeat(mcpToolCall('photosocial_profile', { username: 'bench' })),
    against: 'mg',
    target: cpuAtMost(1.5),
    guardRail: 'a cached MCP tool call costs at most 1.5× the same cached GraphQL request',
  },
  {
    id: 'm26',
    title:
      "(m) from a 2026-07-28 client (the `_meta` envelope; served by the SDK's handler, a server per request), on a gateway of its own",
    server: modernMcp,
    request: repeat(modernMcpToolCall('photosocial_profile', { username: 'bench' })),
    against: 'mg',
  },
  {
    id: 'mu',
    title: 'an MCP `tools/call` of `domain_info`, uncached (a new domain every request)',
    server: main,
    request: () => mcpToolCall('domain_info', { domain: `mu-${unique++}.example.com` }),
    against: 'u',
  },
  {
    id: 'w1u',
    title: '(u) against `node dist/main.js` with one worker, allowed both cores',
    server: oneWorker,
    request: () => graphql(DOMAIN_DOCUMENT, { domain: `w1-${unique++}.example.com` }),
  },
  {
    id: 'w2u',
    title: '(w1u) with WORKERS=2',
    server: twoWorkers,
    request: () => graphql(DOMAIN_DOCUMENT, { domain: `w2-${unique++}.example.com` }),
    detail: () => `${(rate('w2u') / rate('w1u')).toFixed(2)}× the req/s of (w1u)`,
  },
  {
    id: 'w1c',
    title: '(b) against `node dist/main.js` with one worker, allowed both cores',
    server: oneWorker,
    request: repeat(graphql(FIVE_FIELD_PROFILE)),
  },
  {
    id: 'w2c',
    title: '(w1c) with WORKERS=2 (each worker has a cache of its own: no Redis here)',
    server: twoWorkers,
    request: repeat(graphql(FIVE_FIELD_PROFILE)),
    detail: () => `${(rate('w2c') / rate('w1c')).toFixed(2)}× the req/s of (w1c)`,
  },
  {
    id: 'x',
    title: "a router's `_entities` for 10 mixed representations (5 types) on the subgraph endpoint, cached",
    server: subgraph,
    request: repeat(graphql(ENTITIES_DOCUMENT, { representations: TEN_REPRESENTATIONS })),
    against: 'b',
  },
  {
    id: 'x0',
    title: '(x) uncached (`@fresh`: 6 upstream calls, the 4 symbols in one)',
    server: subgraph,
    request: repeat(
      graphql(ENTITIES_DOCUMENT.replace('$representations) {', '$representations) @fresh {'), {
        representations: TEN_REPRESENTATIONS,
      }),
    ),
    against: 'u',
  },
];

// Warm-up: fills the gateway's cache and the JIT of every process, the uncached path included.
for (const scenario of scenarios)
  await throughput(scenario.server.origin, scenario.request, settings.concurrency, 1000);
await sequentialLatency(
  main.origin,
  () => graphql(DOMAIN_DOCUMENT, { domain: `warm-${unique++}.example.com` }),
  settings.latencySamples,
);
await sequentialLatency(sandbox.origin, () => restRequest(`warm-${unique++}.example.com`), settings.latencySamples);
await sequentialLatency(passthrough.origin, () => restRequest(`warm-${unique++}.example.com`), settings.latencySamples);
await sequentialLatency(
  traced.origin,
  () => graphql(DOMAIN_DOCUMENT, { domain: `warm-${unique++}.example.com` }),
  settings.latencySamples,
);

// Sequential latency of an uncached lookup, per round: straight REST, through the pass-through, through the gateway, traced.
const latency = { rest: [] as number[], hop: [] as number[], gateway: [] as number[], traced: [] as number[] };
for (let round = 0; round < settings.rounds; round++) {
  for (const scenario of scenarios) {
    if (settings.roundWarmupMs > 0)
      await throughput(scenario.server.origin, scenario.request, settings.concurrency, settings.roundWarmupMs);
    const commandsBefore = scenario.id === 'r' ? await redisCommands() : 0;
    const result = await measuredRound(scenario.server, scenario.request, settings.concurrency, settings.roundMs);
    // Less the INFO command that reads the count.
    if (scenario.id === 'r')
      redisCommandsPerRequest.push(((await redisCommands()) - commandsBefore - 1) / result.requests);
    rps[scenario.id] = [...(rps[scenario.id] ?? []), result.requestsPerSecond];
    cpuUs[scenario.id] = [...(cpuUs[scenario.id] ?? []), result.cpuUs];
    failures[scenario.id] = (failures[scenario.id] ?? 0) + result.errors;
  }
  const sequential = async (
    key: keyof typeof latency,
    failureKey: string,
    server: ServerProcess,
    next: () => Request,
  ) => {
    const result = await sequentialLatency(server.origin, next, settings.latencySamples);
    latency[key].push(result.medianMs);
    failures[failureKey] = (failures[failureKey] ?? 0) + result.errors;
  };
  await sequential('rest', 'rest', sandbox, () => restRequest(`rest-${unique++}.example.com`));
  await sequential('hop', 'hop', passthrough, () => restRequest(`hop-${unique++}.example.com`));
  await sequential('gateway', 'd', main, () => graphql(DOMAIN_DOCUMENT, { domain: `gw-${unique++}.example.com` }));
  await sequential('traced', 'hd', traced, () => graphql(DOMAIN_DOCUMENT, { domain: `tr-${unique++}.example.com` }));
}

// (o25, o50) the tail: p50/p99/p99.9 added over the pass-through proxy of (pt) making the same upstream call,
// both in an open loop at 25% and at 50% of the gateway's uncached saturation rate (u).
const openLoops = async (share: number) => {
  const openRate = Math.max(1, Math.round(rate('u') * share));
  const proxy = await openLoop(
    passthrough.origin,
    () => restRequest(`open-pt-${unique++}.example.com`),
    openRate,
    settings.openLoopMs,
  );
  const through = await openLoop(
    main.origin,
    () => graphql(DOMAIN_DOCUMENT, { domain: `open-gw-${unique++}.example.com` }),
    openRate,
    settings.openLoopMs,
  );
  return { share, openRate, proxy: proxy.latencies, gateway: through.latencies, errors: proxy.errors + through.errors };
};
const tails = [await openLoops(0.25), await openLoops(0.5)];
await twoWorkers.stop();
await oneWorker.stop();

// (gcu, gcyl) what uncached requests leave to the old generation: (u)'s load on a gateway of its own and (yl)'s on
// the floor, both as plain JavaScript through deploy/entrypoint.sh (the same heap flags) with --trace-gc-nvp.
const floorEntry = builtFloor();
const floorEnv = { UPSTREAM_ORIGIN: sandbox.origin, UPSTREAM_TOKEN: SANDBOX_TOKEN };
const promotion: Record<'u' | 'yl', Promotion & { errors: number }> = {
  u: await (async () => {
    const traced = await gateway('(gcu)', {}, GATEWAY, 0, ['--trace-gc-nvp']);
    const next = () => graphql(DOMAIN_DOCUMENT, { domain: `gcu-${unique++}.example.com` });
    const measured = await measurePromotion(traced, next, settings.concurrency, settings.gcMs, 1000);
    await stopGateway(traced);
    return measured;
  })(),
  yl: await (async () => {
    const traced = await startGateway(floorEntry, floorEnv, settings.memoryLimitMb, 0, ['--trace-gc-nvp']);
    const next = () => graphql(DOMAIN_DOCUMENT, { domain: `gcyl-${unique++}.example.com` });
    const measured = await measurePromotion(traced, next, settings.concurrency, settings.gcMs, 1000);
    await traced.stop();
    return measured;
  })(),
};

// (cz), (z): what comes back for the full profile and for the GraphiQL page with and without Accept-Encoding.
const bodyBytes = async (
  path: string,
  headers: Record<string, string>,
  body?: string,
  server: ServerProcess = main,
) => {
  const res = await httpRequest(`${server.origin}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body,
  });
  return {
    bytes: (await res.body.arrayBuffer()).byteLength,
    encoding: String(res.headers['content-encoding'] ?? 'identity'),
  };
};
compressed.full = await bodyBytes('/graphql', {}, gql(fullProfile));
compressed.fullBr = await bodyBytes('/graphql', ACCEPT_COMPRESSED, gql(fullProfile));
// GraphiQL on a gateway of its own, as a developer opens it: the page module costs about 40 MB of heap when
// first loaded, which a gateway at the end of the load above, in a 256 MiB pod, does not have to spare.
const explorer = await gateway('(z)');
const graphiql = await bodyBytes('/graphql', { accept: 'text/html' }, undefined, explorer);
const graphiqlBr = await bodyBytes('/graphql', { accept: 'text/html', ...ACCEPT_COMPRESSED }, undefined, explorer);
await stopGateway(explorer);

// (rss) the main gateway's heap and caches by its own count, after all the load above.
const mainMetrics = await metricsOf(main);
const metricMb = (series: string) => samples(mainMetrics, series).reduce((sum, bytes) => sum + bytes, 0) / 2 ** 20;
const mainHeapMb = metricMb('nodejs_heap_size_used_bytes ');
const mainCachesMb = metricMb('cache_bytes{');

await stopGateway(main);
await stopGateway(unremembered);
await stopGateway(modernMcp);
await stopGateway(traced);
await stopGateway(tracedUncached);
await stopGateway(subgraph);
if (viaRedis) await stopGateway(viaRedis);
redisClient?.disconnect();
await new Promise((done) => otlpSink.close(done));

// (f) a Zipf workload over 1,000 domains, on a new gateway (empty cache); before it, (e) cold: the ten symbols on that empty cache.
const pick = zipf(settings.zipfInputs, seeded(42), settings.zipfExponent);
const workload = Array.from({ length: settings.zipfOperations }, () => `zipf-${pick()}.example.com`);
const distinct = new Set(workload).size;
const zipfRequests = workload.map((domain) => graphql(DOMAIN_DOCUMENT, { domain }));
const zipfGateway = await gateway('(f)');
failures.e = (failures.e ?? 0) + (await runAll(zipfGateway.origin, [graphql(TEN_SYMBOL_QUERY)], 1));
coldSymbolCalls = await upstreamCalls(zipfGateway, 'company_financial_profile');
const callsBefore = await upstreamCalls(zipfGateway);
failures.f = await runAll(zipfGateway.origin, zipfRequests, 16);
const zipfCalls = (await upstreamCalls(zipfGateway)) - callsBefore;
await stopGateway(zipfGateway);

// (g) the same workload split between two gateway processes sharing a Redis cache.
let redisResult: { calls: number; failures: number } | null = null;
if (redisUp) {
  const shared = { REDIS_URL: 'redis://127.0.0.1:6379', CACHE_KEY_SECRET: `bench-${Date.now()}` };
  const one = await gateway('(g) first', shared);
  const two = await gateway('(g) second', shared);
  const halves = [zipfRequests.filter((_, i) => i % 2 === 0), zipfRequests.filter((_, i) => i % 2 === 1)];
  const errors = await Promise.all([runAll(one.origin, halves[0]!, 8), runAll(two.origin, halves[1]!, 8)]);
  redisResult = { calls: (await upstreamCalls(one)) + (await upstreamCalls(two)), failures: errors[0]! + errors[1]! };
  await Promise.all([stopGateway(one), stopGateway(two)]);
}

// (i) a page with one slow lookup: time to the first payload with @defer, against the whole result without it.
// A sandbox of its own, where only the transcript is slow; the rows above are not affected.
let deferResult: DeferTimings | null = null;
if (settings.deferSamples > 0) {
  const slowSandbox = await startServer(
    'bench/servers/sandbox.ts',
    { SANDBOX_LATENCY: `transcript:${settings.deferSlowMs}` },
    1,
  );
  const deferGateway = await gateway('(i)', { ACTION_BASE_URL: slowSandbox.origin });
  await measureDefer(deferGateway.origin, 1, 'warm'); // the JIT and the connections
  deferResult = await measureDefer(deferGateway.origin, settings.deferSamples, 'h');
  await stopGateway(deferGateway);
  await slowSandbox.stop();
}
// (start, start-yl) `node dist/main.js` with production settings and nothing optional configured, and the floor,
// each started twice side by side (heap; modules), on a machine the load above has left.
const startUp: Record<'gateway' | 'floor', StartUp> = {
  gateway: await measureStartUp(
    join(gatewayRoot, 'dist/main.js'),
    {
      NODE_ENV: 'production',
      ACTION_BASE_URL: sandbox.origin,
      ACTION_TOKEN: SANDBOX_TOKEN,
      GATEWAY_API_KEY_HASHES: createHash('sha256').update('bench-start-up').digest('hex'),
    },
    settings.memoryLimitMb,
    settings.startUpHeapAfterMs,
  ),
  floor: await measureStartUp(floorEntry, floorEnv, settings.memoryLimitMb, settings.startUpHeapAfterMs),
};
for (const server of [bare, bareUnguarded, passthrough, yogaLookup, fixedAnswer, sandbox]) await server.stop();

// Report.
const pct = (value: number) => `${(value * 100).toFixed(0)}%`;
const ms = (value: number) => `${value.toFixed(3)} ms`;
const scenarioRows: Row[] = scenarios.map((scenario) => ({
  id: scenario.id,
  scenario: scenario.title,
  cells: [
    rate(scenario.id).toFixed(0),
    `${cpu(scenario.id).toFixed(0)} µs`,
    [
      scenario.against ? `${cpuRatio(scenario.id, scenario.against).toFixed(2)}× (${scenario.against})` : '',
      scenario.detail?.() ?? '',
    ]
      .filter(Boolean)
      .join('; '),
  ],
  target: scenario.target && scenario.against ? scenario.target(scenario.id, scenario.against) : undefined,
  failures: failures[scenario.id] ?? 0,
}));

/** The open-loop rows, each against its guard rail on the added p99 (and p50 ≤ +1 ms). */
const TAIL_P99_RAIL_MS: Record<number, number> = { 0.25: 5, 0.5: 15 };
const tailRows: Row[] = tails.map((tail) => {
  const added = (p: number) => percentile(tail.gateway, p) - percentile(tail.proxy, p);
  const at = (latencies: number[]) => [50, 99, 99.9].map((p) => percentile(latencies, p).toFixed(2)).join(' / ');
  const rail = TAIL_P99_RAIL_MS[tail.share]!;
  return {
    id: `o${tail.share * 100}`,
    scenario: `uncached lookups in an open loop at ${tail.share * 100}% of the rate of (u) (${tail.openRate} req/s), against the same through the pass-through proxy (pt)`,
    cells: [
      `p50 +${added(50).toFixed(2)} ms, p99 +${added(99).toFixed(2)} ms, p99.9 +${added(99.9).toFixed(2)} ms`,
      `p50 / p99 / p99.9: gateway ${at(tail.gateway)} ms; proxy ${at(tail.proxy)} ms`,
    ],
    target: { text: `≤ +1 ms p50, ≤ +${rail} ms p99`, met: added(50) <= 1 && added(99) <= rail },
    failures: tail.errors,
  };
});
const overheadMs = median(latency.gateway) - median(latency.rest);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const startCells = (measured: StartUp) =>
  `${mib(measured.heapBytes)} heap, ${measured.modules.toLocaleString('en')} modules, ${measured.packages.length} packages`;
const beyondFloor = startUp.gateway.packages.filter((name) => !startUp.floor.packages.includes(name));
const perScavengeKb = (measured: Promotion) => measured.promotedBytes / Math.max(1, measured.scavenges) / 1024;
const promotionCells = (measured: Promotion) => [
  `${perScavengeKb(measured).toFixed(0)} KB per scavenge`,
  `${((measured.scavenges / measured.requests) * 1000).toFixed(2)} scavenges per 1,000 requests; ${(measured.promotedBytes / measured.requests / 1024).toFixed(2)} KB promoted per request; ${measured.scavenges} scavenges and ${measured.markCompacts} mark-compacts over ${measured.requests} requests`,
];
const footprintRows: Row[] = [
  {
    id: 'start',
    scenario:
      '`node dist/main.js` at start: production settings (NODE_ENV=production, an API key), no agent, router, Redis or tracing configured',
    cells: [
      startCells(startUp.gateway),
      `used heap after a full collection ${settings.startUpHeapAfterMs / 1000} s after start; ${(startUp.gateway.heapBytes / startUp.floor.heapBytes).toFixed(2)}× the heap of (start-yl); packages the floor does not load: ${beyondFloor.join(', ') || 'none'}`,
    ],
    target: {
      text: '≤ 20 MB heap, ≤ 1,000 modules',
      met: startUp.gateway.heapBytes <= 20 * 2 ** 20 && startUp.gateway.modules <= 1000,
    },
    failures: null,
  },
  {
    id: 'start-yl',
    scenario: 'the floor at start: bare Yoga making the same upstream call (yl), as plain JavaScript',
    cells: [startCells(startUp.floor), 'the same measurement'],
    failures: null,
  },
  {
    id: 'gcu',
    scenario: "(u)'s load (a new domain every request, the cache on) on a gateway of its own run with `--trace-gc-nvp`",
    cells: promotionCells(promotion.u),
    target: {
      text: '≤ 2× (gcyl) per scavenge',
      met: perScavengeKb(promotion.u) <= 2 * perScavengeKb(promotion.yl),
    },
    failures: promotion.u.errors,
  },
  {
    id: 'gcyl',
    scenario: "(yl)'s load on the floor, as plain JavaScript with the gateway's heap flags and `--trace-gc-nvp`",
    cells: promotionCells(promotion.yl),
    failures: promotion.yl.errors,
  },
];
const largest = gatewayMemory.reduce((top, entry) => (entry.now > top.now ? entry : top));
const otherRows: Row[] = [
  {
    id: 'rest',
    scenario: 'a direct REST call to the sandbox, one at a time (a new domain every request)',
    cells: [ms(median(latency.rest)), 'the baseline of latency rows'],
    failures: failures.rest ?? 0,
  },
  {
    id: 'hop',
    scenario: 'the same call through the pass-through proxy of (pt)',
    cells: [
      ms(median(latency.hop)),
      `+${ms(median(latency.hop) - median(latency.rest))} over (rest): the extra hop alone`,
    ],
    failures: failures.hop ?? 0,
  },
  {
    id: 'd',
    scenario: 'an uncached lookup through the gateway, one at a time',
    cells: [
      ms(median(latency.gateway)),
      `+${ms(overheadMs)} over (rest), +${ms(median(latency.gateway) - median(latency.hop))} over (hop)`,
    ],
    target: { text: '≤ +1 ms over (rest)', met: overheadMs <= 1 },
    failures: failures.d ?? 0,
  },
  ...tailRows,
  {
    id: 'hd',
    scenario: '(d) with tracing on',
    cells: [
      ms(median(latency.traced)),
      `+${ms(median(latency.traced) - median(latency.gateway))} over (d); ${otlpExports} OTLP exports received`,
    ],
    failures: failures.hd ?? 0,
  },
  {
    id: 'f',
    scenario: `Zipf over ${settings.zipfInputs.toLocaleString('en')} domains, one gateway`,
    cells: [
      `${((zipfCalls / settings.zipfOperations) * 1000).toFixed(0)} calls / 1,000 ops`,
      `${zipfCalls} upstream calls for ${distinct} distinct inputs`,
    ],
    target: { text: '≤ one call per distinct input', met: zipfCalls <= distinct },
    failures: failures.f,
  },
  redisResult
    ? {
        id: 'g',
        scenario: 'the same workload over two gateways sharing Redis',
        cells: [
          `${((redisResult.calls / settings.zipfOperations) * 1000).toFixed(0)} calls / 1,000 ops`,
          `${redisResult.calls} calls (one gateway: ${zipfCalls})`,
        ],
        target: { text: '= one gateway', met: redisResult.calls <= zipfCalls },
        failures: redisResult.failures,
      }
    : {
        id: 'g',
        scenario: 'the same workload over two gateways sharing Redis',
        cells: ['skipped', 'no Redis on 127.0.0.1:6379'],
        failures: null,
      },
  {
    id: 'rss',
    scenario: 'resident memory of each gateway after its load',
    cells: [
      `${largest.now.toFixed(0)} MB at most`,
      `${gatewayMemory.map((entry) => `${entry.name}: ${entry.now.toFixed(0)} MB (peak ${entry.peak.toFixed(0)})`).join('; ')}. The main gateway at start: ${mainAtStartMb.toFixed(0)} MB; after the load its heap held ${mainHeapMb.toFixed(0)} MB and its caches ${mainCachesMb.toFixed(0)} MB by their own count`,
    ],
    target: { text: `≤ ${settings.residentLimitMb} MB each`, met: largest.now <= settings.residentLimitMb },
    failures: null,
  },
  ...footprintRows,
  {
    id: 'z',
    scenario: 'the GraphiQL page',
    cells: [
      `${graphiql.bytes} B → ${graphiqlBr.bytes} B`,
      `${graphiqlBr.encoding}, ${pct(graphiqlBr.bytes / graphiql.bytes)} of identity`,
    ],
    target: { text: 'compressed', met: graphiqlBr.bytes < graphiql.bytes },
    failures: null,
  },
  deferResult
    ? {
        id: 'i',
        scenario: `a page with one slow lookup (${settings.deferSlowMs} ms): the first payload with @defer`,
        cells: [
          `${deferResult.firstPayloadMs.toFixed(0)} ms`,
          `the whole page without @defer: ${deferResult.wholeResponseMs.toFixed(0)} ms; the last payload: ${deferResult.lastPayloadMs.toFixed(0)} ms`,
        ],
        target: { text: 'before the slow lookup answers', met: deferResult.firstPayloadMs < settings.deferSlowMs },
        failures: deferResult.failures,
      }
    : {
        id: 'i',
        scenario: 'a page with one slow lookup: the first payload with @defer',
        cells: ['skipped', 'BENCH_DEFER_SAMPLES=0'],
        failures: null,
      },
];

const guardRails: GuardRail[] = [
  ...scenarios
    .filter((scenario) => scenario.guardRail && scenario.against && scenario.target)
    .map((scenario) => ({
      id: scenario.id,
      what: scenario.guardRail!,
      measured: `${cpuRatio(scenario.id, scenario.against!).toFixed(2)}× (${scenario.against}) CPU/request`,
      target: scenario.target!(scenario.id, scenario.against!),
    })),
  ...tailRows.map((row) => ({
    id: row.id,
    what: 'the tail an uncached lookup adds over the pass-through proxy (pt)',
    measured: row.cells[0]!,
    target: row.target!,
  })),
  {
    id: 'rss',
    what: "each gateway's resident memory after the bench load",
    measured: `${largest.now.toFixed(0)} MB at most (${largest.name})`,
    target: { text: `≤ ${settings.residentLimitMb} MB`, met: largest.now <= settings.residentLimitMb },
  },
];

const perRound = (figures: Record<string, number[]>) =>
  Object.entries(figures)
    .map(([id, values]) => `(${id}) ${values.map((v) => v.toFixed(0)).join(', ')}`)
    .join('; ');

const markdown = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); what each row measures: [docs/performance.md](../docs/performance.md).
All figures come from one run, ${new Date().toISOString().slice(0, 10)}, of the gateway at commit ${gatewayCommit}.

## Guard rails
${guardRailTable(guardRails)}

## Throughput and server CPU per request
Medians over ${settings.rounds} interleaved round${settings.rounds === 1 ? '' : 's'} of ${settings.roundMs} ms; "against" is the median of the rounds' ratios of CPU per request.

${table(['req/s', 'CPU/request', 'against / detail'], scenarioRows)}

## Latency, upstream calls, memory, payloads
${table(['result', 'detail'], otherRows)}

Per round, req/s: ${perRound(rps)}.

Per round, CPU/request (µs): ${perRound(cpuUs)}.

## How this run was made
- CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}; memory ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}
- ${CAN_PIN ? 'Each server process pinned to CPU 0; the load generator and the sandbox upstream to CPU 1 (taskset)' : 'No CPU pinning (taskset not found)'}; everything on 127.0.0.1
- The gateways: the built JavaScript (\`npm run build\`) started through deploy/entrypoint.sh with MEMORY_LIMIT_MB=${settings.memoryLimitMb}, as the image starts it, which gave node ${sizing}
- Gateway settings: ${Object.entries(gatewayEnv)
  .filter(([k]) => !k.startsWith('ACTION_'))
  .map(([k, v]) => `${k}=${v}`)
  .join(', ')}; the cache in memory unless the row says Redis; tracing off unless the row says on
- Bare Yoga, the pass-through, the fixed-answer server and the sandbox run through tsx
- Throughput: a closed loop with ${settings.concurrency} keep-alive connections, each round after ${settings.roundWarmupMs} ms of unmeasured load on the same server
- Latency: ${settings.latencySamples} sequential requests per round; the open loop runs ${settings.openLoopMs} ms per target; the sandbox answers after ${settings.sandboxLatencyMs} ms
- Zipf: ${settings.zipfOperations} operations over ${settings.zipfInputs} domains, exponent ${settings.zipfExponent}, 16 at a time (8 per gateway in (g))
- Start-up ((start), (start-yl)): each started through deploy/entrypoint.sh with \`--expose-gc\` and a bench preload (bench/servers/heap-after-start.mjs) that collects ${settings.startUpHeapAfterMs / 1000} s after start and reads V8's used heap; a second start beside it loads test/support/module-recorder.mjs and counts every module URL (ESM and CommonJS, node: built-ins included) and their npm packages; the floor is bench/servers/yoga-lookup.ts compiled to JavaScript
- Promotion ((gcu), (gcyl)): ${settings.gcMs} ms of closed-loop load at concurrency ${settings.concurrency} after 1,000 ms unmeasured, on processes started for it with \`--trace-gc-nvp\` through the entry point (${sizing}); the \`promoted=\` field of each scavenge (\`gc=s\`) line printed meanwhile
- @defer: ${settings.deferSamples} page(s) with @defer and as many without, on a sandbox of its own where only the transcript is slow

## Reading the numbers
- CPU/request is the user and system time of a server's processes (from /proc) over a round, divided by the
  requests it answered. It is the server's own cost and what the guard rails compare; req/s also depends on the
  load generator, which shares its core with the sandbox.
- (a) and (a2) differ only in Yoga's request-body guard, which pipes every POST body through a size-limiting
  stream. The gateway enforces its body limit on Content-Length and on the bytes read instead
  (src/security/body-limit.ts), so (a2) is the baseline of the cached rows.
- (b), (c), (e) and (r) repeat one operation: after its second request the gateway answers it from a remembered
  result (src/cache/result-memo.ts, a Yoga plugin: no resolver runs and the data's JSON is kept) for as long as
  the cache entries it was built from stand. (b0) and (c0) turn remembered results off and run the resolvers
  (on graphql-jit) and serialise every time, as for an operation nobody repeated. With tracing on (h) a
  remembered result is used too, and its trace is the request's span and one operation span that says so.
- (c) sends a 5.4 KB query and gets 12.6 KB back, (b) 0.1 KB and 0.4 KB. (fb) and (fc) read the same requests
  and send the same bytes with no GraphQL at all: what the bytes alone cost.
- (u) asks for a domain nobody asked for before on every request, so every request goes upstream and the cache
  grows; (p) and (s) use \`@fresh\`, which skips the cache read and still stores the answer.
- (yl) is bare Yoga without its body guard whose one field makes the gateway's upstream call over an undici Pool
  and answers the same five fields with plain resolvers: no cache, coalescing, input checks, limits, deadlines,
  metrics or logs. What separates (u) from it is the gateway's own work. (pt) makes the same call with no GraphQL.
- (d) is the time a frontend waits beyond a direct REST call for an uncached lookup: one more loopback hop plus the
  gateway's work. (o25) and (o50) are the tail of the same in an open loop, against the pass-through proxy (pt), so
  the hop is on both sides. Documents are sent once with variables, as frontends send them.
- (w1u) to (w2c) run \`node dist/main.js\` (the primary and its workers with WORKERS=2) allowed both cores, which
  the load generator and the sandbox share on this 2-core machine: req/s is what a second worker buys here, and
  CPU/request includes the primary's.
- (f) and (g) count upstream calls from the gateways' own /metrics. A gateway whose Redis misses its deadline
  (REDIS_COMMAND_TIMEOUT_MS) calls the upstream itself, so on a busy machine (g) counts more calls than (f).
- (rss) is each gateway process's resident memory (VmRSS; its peak is VmHWM) from /proc just before it stops, after
  every row that ran against it; the main gateway's heap and caches come from its /metrics. The gateways are sized
  by deploy/entrypoint.sh for ${settings.memoryLimitMb} MB (docs/operations.md, "Sizing memory").
- (start) is what every request of the gateway carries before the first: the heap a collection cannot free and
  the code loaded, beside the floor's (start-yl). (gcu) and (gcyl) are what uncached requests leave to the old
  generation: with the same semi-space on both sides, more promoted per scavenge means the old generation fills
  and is marked more often, which is where the tail's stalls come from.
- The machine is shared: rounds move (see the per-round figures); medians and ratios move less.
`;
const out = resolve(process.env.BENCH_OUT ?? 'bench/results.md');
writeFileSync(out, markdown);
console.log(`\n${markdown}\nwrote ${out}`);
