/**
 * `npm run bench:profile [label]`: CPU profiles of the built gateway (node --cpu-prof) under three
 * workloads (an uncached lookup, a cached 5-field profile, a cached full profile), each summarised as
 * the top functions by self time and the time by package, in bench/profiles/<label>/<workload>.md.
 * BENCH_PROFILE_ROOT profiles the build of another checkout (its dist/ and bench/servers/gateway.mjs),
 * e.g. an older commit, for a before/after pair.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { throughput, type Request } from './load.js';
import { pinSelf, startServer } from './processes.js';
import { DOMAIN_DOCUMENT, FIVE_FIELD_PROFILE, fullProfileQuery, gatewayEnvOver, graphql, repeat } from './workloads.js';

const label = process.argv[2] ?? 'after';
const root = process.env.BENCH_PROFILE_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 6);
const out = fileURLToPath(new URL(`./profiles/${label}/`, import.meta.url));
if (!process.env.BENCH_PROFILE_ROOT) execSync('npm run build', { stdio: ['ignore', 'ignore', 'inherit'] });

let unique = 0;
const workloads: Array<{ name: string; title: string; request: () => Request }> = [
  {
    name: 'uncached-lookup',
    title: 'uncached domain lookup (a new domain every request)',
    request: () => graphql(DOMAIN_DOCUMENT, { domain: `p-${unique++}.example.com` }),
  },
  { name: 'cached-5-field', title: 'cached 5-field photo-social profile', request: repeat(graphql(FIVE_FIELD_PROFILE)) },
  {
    name: 'cached-full-profile',
    title: 'cached full photo-social profile (every field)',
    request: repeat(graphql(fullProfileQuery())),
  },
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/**
 * Self time by function and by package, as shares of the busy (non-idle) samples taken after `fromMicros`
 * (the profile's clock is the monotonic clock, the same in every process: start-up and warm-up are left out).
 */
function summarise(
  profile: { nodes: ProfileNode[]; samples: number[]; startTime: number; timeDeltas: number[] },
  title: string,
  rps: number,
  fromMicros: number,
): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // Each node's function as the tables name it, made once per node, not once per sample it is on the stack of.
  const frameNames = new Map(
    profile.nodes.map(({ id, callFrame: { functionName, url, lineNumber } }) => {
      const where = url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
      return [id, `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`];
    }),
  );
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const packages = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (const [index, sample] of profile.samples.entries()) {
    at += profile.timeDeltas[index] ?? 0;
    if (at < fromMicros) continue;
    const { functionName, url } = byId.get(sample)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += 1;
    const fn = frameNames.get(sample)!;
    functions.set(fn, (functions.get(fn) ?? 0) + 1);
    const onStack = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) onStack.add(frameNames.get(id)!);
    for (const frame of onStack) inclusive.set(frame, (inclusive.get(frame) ?? 0) + 1);
    const pkg =
      /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (url.includes('/dist/') ? 'gateway (dist/)' : url.startsWith('node:') ? 'node core' : url ? 'other' : functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + 1);
  }
  const table = (entries: Map<string, number>, count: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, n]) => `| ${((100 * n) / busy).toFixed(1)}% | \`${name.replaceAll('|', '\\|')}\` |`)
      .join('\n');
  return `# ${title} (${label})

${busy} busy samples of the measured ${seconds} s (start-up and a 1 s warm-up left out); ${rps.toFixed(0)} req/s while profiled (the profiler slows the process; read the shares, not the rate).

## By package (self time)
| share | package |
|---|---|
${table(packages, 15)}

## Top functions (self time)
| share | function |
|---|---|
${table(functions, 25)}

## Top functions (inclusive: the share of samples with the function anywhere on the stack)
| share | function |
|---|---|
${table(inclusive, 60)}
`;
}

pinSelf(1);
const sandbox = await startServer('bench/servers/sandbox.ts', {}, 1);
mkdirSync(out, { recursive: true });
for (const workload of workloads) {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-graph-profile-'));
  const gateway = await startServer(join(root, 'bench/servers/gateway.mjs'), gatewayEnvOver(sandbox.origin), 0, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await throughput(gateway.origin, workload.request, 32, 1000);
  const measuredFrom = Number(process.hrtime.bigint() / 1000n);
  const result = await throughput(gateway.origin, workload.request, 32, seconds * 1000);
  await gateway.stop();
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
  writeFileSync(
    join(out, `${workload.name}.md`),
    summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')), workload.title, result.requestsPerSecond, measuredFrom),
  );
  rmSync(dir, { recursive: true, force: true });
  console.log(`wrote bench/profiles/${label}/${workload.name}.md`);
}
await sandbox.stop();
