/**
 * `npm run bench:ab -- <git ref>`: a paired A/B of the gateway's CPU per request, the build of <ref>
 * (A) against this working tree's (B). Both run at once, pinned to the same core, and take turns:
 * each round loads A, then B (the order alternating by round), so a machine whose speed drifts moves
 * both alike. Prints, per workload, each build's median CPU per request and the median of the per-round
 * ratios B/A (below 1: this tree is cheaper). The whole bench (`npm run bench`) is for the committed
 * figures; this is for deciding whether one change on the request path pays.
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type Request } from './load.js';
import { measuredRound, pinSelf, residentMb, startServer, type ServerProcess } from './processes.js';
import { DOMAIN_DOCUMENT, FIVE_FIELD_PROFILE, FRESH_PROFILE_DOCUMENT, fullProfileQuery, gatewayEnvOver, graphql, repeat } from './workloads.js';

const ref = process.argv[2];
if (!ref) {
  console.error('usage: npm run bench:ab -- <git ref to compare this tree against>');
  process.exit(2);
}
const rounds = Number(process.env.AB_ROUNDS ?? 10);
const roundMs = Number(process.env.AB_MS ?? 3000);
/** AB_B_ENV (JSON): settings for B only, to compare one setting on the same code (`npm run bench:ab -- HEAD`). */
const onlyB = JSON.parse(process.env.AB_B_ENV ?? '{}') as Record<string, string>;
/** AB_WORKLOADS: which workloads, by id (u, p, y, f, b, c; default u,p,y). */
const chosen = (process.env.AB_WORKLOADS ?? 'u,p,y').split(',');
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** CPU µs per request of `server` over one round of closed-loop load. */
async function round(server: ServerProcess, next: () => Request, ms: number): Promise<number> {
  const result = await measuredRound(server, next, 32, ms);
  if (result.errors > 0) throw new Error(`${result.errors} failed requests against ${server.origin}`);
  return result.cpuUs;
}

// A: the ref, in a worktree of its own that shares this tree's node_modules; removed however the run ends.
const before = mkdtempSync(join(tmpdir(), 'lookup-graph-ab-'));
execFileSync('git', ['worktree', 'add', '--detach', before, ref], { cwd: ROOT, stdio: 'ignore' });
/** Servers still running: each is stopped once, when its workload ends or however the run ends. */
const servers = new Set<ServerProcess>();
const start = async (entry: string, env: Record<string, string>, cpu?: number) => {
  const server = await startServer(entry, env, cpu);
  servers.add(server);
  return server;
};
const stop = (server: ServerProcess) => {
  servers.delete(server);
  return server.stop();
};
try {
  symlinkSync(join(ROOT, 'node_modules'), join(before, 'node_modules'));
  for (const dir of [before, ROOT]) execSync('npm run build', { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });

  pinSelf(1);
  const sandbox = await start('bench/servers/sandbox.ts', { SANDBOX_LATENCY_MS: '0' }, 1);
  const env = gatewayEnvOver(sandbox.origin);
  // Each workload gets a new pair: a pair that ran another workload first carries its state into the next
  // (the cheaper build served more requests in the same rounds, so its cache and heap differ), which once read
  // as 1.03 for a change that measured 0.94 on a new pair.
  const gateways = async (extra: Record<string, string>) => ({
    a: await start(join(before, 'bench/servers/gateway.mjs'), { ...env, ...extra }),
    b: await start('bench/servers/gateway.mjs', { ...env, ...extra, ...onlyB }),
  });
  const RESULTS_OFF = { CACHE_RESULTS_MB: '0' };
  let unique = 0;
  const fullProfile = repeat(graphql(fullProfileQuery()));
  const all: Array<{ id: string; name: string; settings: Record<string, string>; next: () => Request }> = [
    { id: 'u', name: 'uncached lookup (a new domain every request)', settings: {}, next: () => graphql(DOMAIN_DOCUMENT, { domain: `ab-${unique++}.example` }) },
    { id: 'p', name: 'photo-social profile, 5 fields, @fresh', settings: {}, next: () => graphql(FRESH_PROFILE_DOCUMENT, { username: `ab${unique++}` }) },
    { id: 'y', name: 'cached 5-field profile through Yoga (results off)', settings: RESULTS_OFF, next: repeat(graphql(FIVE_FIELD_PROFILE)) },
    { id: 'f', name: 'cached full profile through Yoga (results off)', settings: RESULTS_OFF, next: fullProfile },
    { id: 'b', name: 'cached 5-field profile, remembered (before Yoga)', settings: {}, next: repeat(graphql(FIVE_FIELD_PROFILE)) },
    { id: 'c', name: 'cached full profile, remembered (before Yoga)', settings: {}, next: fullProfile },
  ];
  const workloads = all.filter((workload) => chosen.includes(workload.id));

  console.log(
    `A: ${ref} (${execFileSync('git', ['rev-parse', '--short', ref], { cwd: ROOT }).toString().trim()}), B: this tree; ${rounds} rounds of ${roundMs} ms each`,
  );
  const rss = (server: ServerProcess) => `${residentMb(server.pid)?.toFixed(0) ?? '?'} MB`;
  for (const { name, settings, next } of workloads) {
    const pair = await gateways(settings);
    await round(pair.a, next, 3000);
    await round(pair.b, next, 3000);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const aFirst = i % 2 === 0;
      if (aFirst) a.push(await round(pair.a, next, roundMs));
      b.push(await round(pair.b, next, roundMs));
      if (!aFirst) a.push(await round(pair.a, next, roundMs));
    }
    const ratios = a.map((value, i) => b[i]! / value);
    console.log(
      `${name}: A ${median(a).toFixed(0)} µs, B ${median(b).toFixed(0)} µs per request; B/A ${median(ratios).toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}); resident at the end: A ${rss(pair.a)}, B ${rss(pair.b)}`,
    );
    await Promise.all([stop(pair.a), stop(pair.b)]);
  }
} finally {
  for (const server of servers) await stop(server);
  execFileSync('git', ['worktree', 'remove', '--force', before], { cwd: ROOT, stdio: 'ignore' });
  rmSync(before, { recursive: true, force: true });
}
