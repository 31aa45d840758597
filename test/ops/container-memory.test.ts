/**
 * The image's entry point (deploy/entrypoint.sh) sizes V8's heap and the caches from the container's memory.
 * This runs it as the image does, with the figure a 256 MiB pod gives it, over a real upstream on loopback,
 * under a bounded uncached and then cached load, and checks the process never held more than the pod's limit
 * while its cache filled and answered.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxLikeUpstream } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { ENTRYPOINT, entryEnv, freePort, ROOT, waitFor } from '../support/processes.js';
import { sleep } from '../support/wait.js';

const MiB = 1024 * 1024;
const KEY = 'container-memory-test-key';

/** What node sees when started through the entry point: its heap limits and the cache settings it was given. */
function sizedBy(env: Record<string, string>) {
  const probe =
    'const v8=require("node:v8");const s=v8.getHeapSpaceStatistics().find((x)=>x.space_name==="new_space");' +
    'console.log(JSON.stringify({heapLimitMb:v8.getHeapStatistics().heap_size_limit/2**20,execArgv:process.execArgv.filter((a)=>/^--m(ax|in)-/.test(a)),' +
    'cache:process.env.CACHE_MAX_MB??null,results:process.env.CACHE_RESULTS_MB??null,documents:process.env.DOCUMENT_CACHE_MB??null,newSpace:s&&s.space_size}))';
  const run = spawnSync('sh', [ENTRYPOINT, '-e', probe], { env: entryEnv(env), encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr, out: run.status === 0 ? JSON.parse(run.stdout) : null };
}

describe('deploy/entrypoint.sh sizes memory from the container', () => {
  let cgroups: string;
  beforeAll(() => {
    cgroups = mkdtempSync(join(tmpdir(), 'cgroup-'));
  });
  afterAll(() => rmSync(cgroups, { recursive: true, force: true }));

  const cgroup = (name: string, files: Record<string, string>) => {
    const dir = join(cgroups, name);
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), content);
    }
    return dir;
  };

  it('reads a cgroup v2 limit: half of it for the old generation, a sixteenth for the cache, a 64th for remembered results, a 32nd for documents', () => {
    const { status, out } = sizedBy({ CGROUP_ROOT: cgroup('v2', { 'memory.max': `${256 * MiB}\n` }) });
    expect(status).toBe(0);
    expect(out.execArgv).toEqual(['--max-old-space-size=128', '--min-semi-space-size=16', '--max-semi-space-size=16']);
    expect(out).toMatchObject({ cache: '16', results: '4', documents: '8' });
    // V8's own limit covers the old generation and the young one (two semispaces and their large objects).
    expect(out.heapLimitMb).toBeGreaterThanOrEqual(128);
    expect(out.heapLimitMb).toBeLessThanOrEqual(128 + 3 * 16);
    // The young generation starts at its full size instead of growing from 1 MiB.
    expect(out.newSpace).toBeGreaterThanOrEqual(16 * MiB);
  });

  it('reads a cgroup v1 limit, and caps the semispaces at 16 MiB for large pods', () => {
    const { out } = sizedBy({ CGROUP_ROOT: cgroup('v1', { 'memory/memory.limit_in_bytes': `${2048 * MiB}\n` }) });
    expect(out).toMatchObject({
      execArgv: ['--max-old-space-size=1024', '--min-semi-space-size=16', '--max-semi-space-size=16'],
      cache: '128',
      results: '32',
    });
  });

  it('sizes nothing without a limit (v2 "max", v1 near 2^63, no cgroup files)', () => {
    for (const dir of [
      cgroup('v2-max', { 'memory.max': 'max\n' }),
      cgroup('v1-unlimited', { 'memory/memory.limit_in_bytes': '9223372036854771712\n' }),
      cgroup('none', {}),
    ]) {
      expect(sizedBy({ CGROUP_ROOT: dir }).out).toMatchObject({ execArgv: [], cache: null, results: null });
    }
  });

  it('MEMORY_LIMIT_MB wins over the cgroup; cache settings already set and a heap bound in NODE_OPTIONS are kept', () => {
    const dir = cgroup('v2-big', { 'memory.max': `${4096 * MiB}` });
    expect(sizedBy({ CGROUP_ROOT: dir, MEMORY_LIMIT_MB: '512' }).out).toMatchObject({
      execArgv: ['--max-old-space-size=256', '--min-semi-space-size=16', '--max-semi-space-size=16'],
      cache: '32',
      results: '8',
    });
    expect(sizedBy({ MEMORY_LIMIT_MB: '512', CACHE_MAX_MB: '20' }).out).toMatchObject({ cache: '20', results: '8' });
    const own = sizedBy({ MEMORY_LIMIT_MB: '512', NODE_OPTIONS: '--max-old-space-size=300' }).out;
    expect(own).toMatchObject({ execArgv: [], cache: '32' });
    expect(own.heapLimitMb).toBeGreaterThanOrEqual(300);
  });

  it('refuses a bad MEMORY_LIMIT_MB and a pod too small, with a message naming the setting (exit 78, as the gateway)', () => {
    const bad = sizedBy({ MEMORY_LIMIT_MB: '256Mi' });
    expect(bad.status).toBe(78);
    expect(bad.stderr).toContain('MEMORY_LIMIT_MB must be a whole number of MiB, got "256Mi"');
    const small = sizedBy({ CGROUP_ROOT: cgroup('tiny', { 'memory.max': `${128 * MiB}` }) });
    expect(small.status).toBe(78);
    expect(small.stderr).toContain('needs at least 192 MiB of memory, got 128 MiB (from cgroup-v2)');
  });
});

describe('the built gateway in a 256 MiB pod', () => {
  const upstream = forSuite(startSandboxLikeUpstream);

  it('stays under its limit through an uncached and a cached load, with the cache filled and answering', {
    timeout: 90_000,
  }, async () => {
    const limitMb = 256;
    const [port, metricsPort] = [await freePort(), await freePort()];
    const env = entryEnv({
      MEMORY_LIMIT_MB: String(limitMb),
      NODE_ENV: 'production',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      ACTION_BASE_URL: upstream.url,
      ACTION_TOKEN: upstream.token,
      GATEWAY_API_KEY_HASHES: createHash('sha256').update(KEY).digest('hex'),
      CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    });
    const gateway = spawn('sh', [ENTRYPOINT, 'dist/main.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    gateway.stdout.on('data', (chunk) => (output += chunk));
    gateway.stderr.on('data', (chunk) => (output += chunk));
    const status = () => readFileSync(`/proc/${gateway.pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status())![1]) * 1024;
    const metric = async (series: string) => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(series));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    try {
      await waitFor(
        async () =>
          (await fetch(`http://127.0.0.1:${port}/readyz`)
            .then((r) => r.status)
            .catch(() => 0)) === 200,
        20_000,
        'ready',
      );
      // exec: the entry point's shell became node, with the heap flags it computed.
      const cmdline = readFileSync(`/proc/${gateway.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(cmdline.slice(1)).toEqual([
        '--max-old-space-size=128',
        '--min-semi-space-size=16',
        '--max-semi-space-size=16',
        'dist/main.js',
      ]);
      const atStart = kib('VmRSS');

      // One document, eight profiles a request (about 12 KB of upstream JSON each): the cache fills in seconds.
      const PER_REQUEST = 8;
      const CLIENTS = 6;
      const names = Array.from({ length: PER_REQUEST }, (_, i) => i);
      const query = `query Cards(${names.map((i) => `$u${i}: String!`).join(', ')}) { ${names
        .map((i) => `p${i}: photosocialProfile(username: $u${i}) { username fullName followerCount }`)
        .join(' ')} }`;
      // A lookup refused for load (RATE_LIMITED or OVERLOADED: the upstream's queue would start it too late on a
      // busy machine) is not a failure here, and the whole request is tried again after a pause: this test
      // judges memory, not the machine's speed. Returns the profiles answered (each one upstream call or hit).
      const LOAD_CODES = new Set(['RATE_LIMITED', 'OVERLOADED']);
      let answered = 0;
      const send = async (first: number): Promise<boolean> => {
        const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': KEY },
          body: JSON.stringify({
            query,
            variables: Object.fromEntries(names.map((i) => [`u${i}`, `user${first + i}`])),
          }),
        });
        const body = (await res.json()) as {
          data?: Record<string, unknown> | null;
          errors?: Array<{ extensions?: { code?: string } }>;
        };
        answered += Object.values(body.data ?? {}).filter((profile) => profile !== null).length;
        const errors = body.errors ?? [];
        if (errors.length > 0 && errors.every((error) => LOAD_CODES.has(error.extensions?.code ?? ''))) {
          await sleep(100);
          return false;
        }
        if (res.status !== 200 || errors.length > 0)
          throw new Error(`request failed: ${res.status} ${JSON.stringify(body.errors ?? body).slice(0, 600)}`);
        return true;
      };
      // Six clients (48 calls at once, within one client's share of 64) until the time is up or `enough()` (checked twice a second); each request starts at the key `next()` gives.
      const load = async (ms: number, next: () => number, enough?: () => Promise<boolean>) => {
        const until = Date.now() + ms;
        let sent = 0;
        let stop = false;
        const watch = (async () => {
          while (enough && !stop && Date.now() < until) {
            await sleep(500);
            if (await enough()) stop = true;
          }
        })();
        // Every client settles before the load returns: a failure stops the others, none is left running.
        const clients = await Promise.allSettled(
          Array.from({ length: CLIENTS }, async () => {
            try {
              while (!stop && Date.now() < until) if (await send(next())) sent++;
            } catch (error) {
              stop = true;
              throw error;
            }
          }),
        );
        const failed = clients.find((client) => client.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
        stop = true;
        await watch;
        return sent;
      };

      // Uncached: new profiles until the cache is near its bound (16 MiB at 256), at most 25 s.
      let fresh = 0;
      const uncached = await load(
        25_000,
        () => {
          fresh += PER_REQUEST;
          return fresh - PER_REQUEST;
        },
        async () => (await metric('lookup_graph_cache_bytes{part="entries"}')) > 15 * MiB,
      );
      const callsAfterUncached = upstream.calls.length;
      const answeredUncached = answered;
      const cacheBytes = await metric('lookup_graph_cache_bytes{part="entries"}');
      // Cached: the most recent profiles (least recently used first out) again and again, for 5 s.
      let turn = 0;
      const cached = await load(5_000, () => fresh - PER_REQUEST * (1 + (turn++ % 25)));
      const hits = await metric('lookup_graph_cache_lookups_total{action="get_photosocial_profile",source="cache"}');
      const afterLoad = kib('VmRSS');
      const peak = kib('VmHWM');
      const heapUsed = await metric('lookup_graph_nodejs_heap_size_used_bytes');

      console.log(
        `container memory: limit ${limitMb} MiB; heap bound --max-old-space-size=128 --min-semi-space-size=16 --max-semi-space-size=16; ` +
          `resident at start ${(atStart / MiB).toFixed(0)} MiB, after ${uncached} uncached and ${cached} cached requests ` +
          `${(afterLoad / MiB).toFixed(0)} MiB (peak ${(peak / MiB).toFixed(0)} MiB); heap used ${(heapUsed / MiB).toFixed(0)} MiB; ` +
          `cache entries ${(cacheBytes / MiB).toFixed(1)} MiB of 16; upstream calls ${callsAfterUncached} uncached, ${upstream.calls.length - callsAfterUncached} during the cached load`,
      );

      // Every profile answered in the uncached load was one call; the cached load made none: the cache answered.
      expect(callsAfterUncached).toBe(answeredUncached);
      expect(answeredUncached).toBeGreaterThanOrEqual(PER_REQUEST * uncached);
      expect(upstream.calls.length).toBe(callsAfterUncached);
      expect(hits).toBeGreaterThanOrEqual(PER_REQUEST * cached);
      // The cache filled towards its bound without passing it.
      expect(cacheBytes).toBeGreaterThan(8 * MiB);
      expect(cacheBytes).toBeLessThanOrEqual(16 * MiB);
      expect(peak).toBeLessThan(limitMb * MiB);
      expect(output).not.toMatch(/heap out of memory|FATAL/i);
    } finally {
      gateway.kill('SIGKILL');
    }
  });
});
