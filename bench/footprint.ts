/**
 * What a process carries before its first request (heap after a full collection, modules and packages
 * loaded) and what its requests leave behind under load (bytes promoted per scavenge, from V8's
 * `--trace-gc-nvp`). V8 flags and the preloads are given here, on the bench's own command lines, never in src/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { freePort } from '../test/support/processes.js';
import { type Request, throughput } from './load.js';
import { type ServerProcess, spawnPinned, throughEntrypoint } from './processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HEAP_PRELOAD = pathToFileURL(join(ROOT, 'bench/servers/heap-after-start.mjs')).href;
const RECORDER = pathToFileURL(join(ROOT, 'test/support/module-recorder.mjs')).href;
const NODE_MODULES = pathToFileURL(join(ROOT, 'node_modules')).href;

/**
 * The npm packages module URLs belong to (the innermost node_modules folder of each), as
 * test/support/module-record.ts names them; that module registers vitest hooks, which a script cannot load.
 */
function packagesOf(urls: string[]): Set<string> {
  const packages = new Set<string>();
  for (const url of urls) {
    // Not node_modules/.cache, where builtFloor writes the floor.
    const match = url.startsWith(NODE_MODULES) ? /.*node_modules\/((?:@[^/]+\/)?[^/.][^/]*)\//.exec(url) : null;
    if (match) packages.add(match[1]!);
  }
  return packages;
}

/**
 * bench/servers/yoga-lookup.ts (the floor, (yl)) as plain JavaScript for plain Node, as the gateway runs:
 * through tsx its start would carry tsx's own loader and modules. Written below node_modules/ so that
 * its packages resolve as the source's do; returns the file.
 */
export function builtFloor(): string {
  const dir = join(ROOT, 'node_modules/.cache/lookup-graph-bench');
  mkdirSync(dir, { recursive: true });
  const source = readFileSync(join(ROOT, 'bench/servers/yoga-lookup.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const file = join(dir, 'yoga-lookup.mjs');
  writeFileSync(file, outputText);
  return file;
}

export interface StartUp {
  /** V8's used heap after a full collection, `afterMs` after the process started, in bytes. */
  heapBytes: number;
  /** Every module URL loaded by then, each once (ESM and CommonJS, node: built-ins included, as test/ops/lean-start.test.ts counts). */
  modules: number;
  /** The npm packages those modules belong to. */
  packages: string[];
}

/** Starts `entry` through the entry point once, runs to the heap file, stops it; `record` adds the module recorder. */
async function oneStart(
  entry: string,
  env: Record<string, string>,
  memoryLimitMb: number,
  dir: string,
  name: string,
  afterMs: number,
  record: boolean,
): Promise<{ heapBytes: number; modules: string[] }> {
  const heapFile = join(dir, `${name}.heap.json`);
  const recordFile = join(dir, `${name}.modules`);
  // The heap preload first, so that the recorder, registered after it, records only what the server loads.
  const args = ['--expose-gc', `--import=${HEAP_PRELOAD}`, ...(record ? [`--import=${RECORDER}`] : []), entry];
  const started = throughEntrypoint(
    args,
    {
      ...env,
      PORT: String(await freePort()),
      BENCH_HEAP_FILE: heapFile,
      BENCH_HEAP_AFTER_MS: String(afterMs),
      ...(record ? { MODULE_RECORD: recordFile } : {}),
    },
    memoryLimitMb,
    false,
  );
  const child = spawnPinned(started.command, started.env, 0);
  child.stdout!.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const until = Date.now() + afterMs + 30_000;
    while (!existsSync(heapFile)) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${name}: exited with ${child.exitCode} before its heap was measured`);
      if (Date.now() > until) throw new Error(`${name}: no heap measurement ${afterMs + 30_000} ms after start`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Written in one call, but perhaps seen before it is whole: read again until it parses.
    let heap: { usedHeapBytes: number } | undefined;
    while (!heap) {
      try {
        heap = JSON.parse(readFileSync(heapFile, 'utf8')) as { usedHeapBytes: number };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    const modules = record ? [...new Set(readFileSync(recordFile, 'utf8').split('\n').filter(Boolean))] : [];
    if (record && !modules.includes(pathToFileURL(entry).href))
      throw new Error(`${name}: the module recorder did not record ${entry} itself`);
    return { heapBytes: heap.usedHeapBytes, modules };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
}

/**
 * The start-up of `entry` (node's script) through deploy/entrypoint.sh with exactly `env` (nothing
 * inherited from the bench's shell) and a free PORT. Two starts side by side: one for the heap alone, one with the
 * module recorder (its hooks and records would otherwise count in the heap).
 */
export async function measureStartUp(
  entry: string,
  env: Record<string, string>,
  memoryLimitMb: number,
  afterMs = 4000,
): Promise<StartUp> {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-graph-start-'));
  try {
    const [heap, recorded] = await Promise.all([
      oneStart(entry, env, memoryLimitMb, dir, 'heap', afterMs, false),
      oneStart(entry, env, memoryLimitMb, dir, 'modules', afterMs, true),
    ]);
    return {
      heapBytes: heap.heapBytes,
      modules: recorded.modules.length,
      packages: [...packagesOf(recorded.modules)].sort(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Promotion {
  requests: number;
  scavenges: number;
  /** Bytes promoted to the old generation by all those scavenges. */
  promotedBytes: number;
  /** Full (mark-compact) collections in the same time. */
  markCompacts: number;
}

/** Scavenges (`gc=s`) and mark-compacts (`gc=ms`) in `--trace-gc-nvp` output, with the bytes the scavenges promoted. */
function collectionsIn(output: string): Omit<Promotion, 'requests'> {
  let scavenges = 0;
  let promotedBytes = 0;
  let markCompacts = 0;
  for (const line of output.split('\n')) {
    if (line.includes(' gc=s ')) {
      const promoted = /\bpromoted=(\d+)/.exec(line);
      if (!promoted) continue;
      scavenges += 1;
      promotedBytes += Number(promoted[1]);
    } else if (line.includes(' gc=ms ')) {
      markCompacts += 1;
    }
  }
  return { scavenges, promotedBytes, markCompacts };
}

/**
 * Closed-loop load on `server` (started with `--trace-gc-nvp`) for `ms`, after `warmupMs` unmeasured: the
 * collections it printed meanwhile, whole lines only, and the requests it answered.
 */
export async function measurePromotion(
  server: ServerProcess,
  next: (i: number) => Request,
  concurrency: number,
  ms: number,
  warmupMs: number,
): Promise<Promotion & { errors: number }> {
  await throughput(server.origin, next, concurrency, warmupMs);
  const from = server.output().length;
  const result = await throughput(server.origin, next, concurrency, ms);
  const printed = server.output();
  // Whole lines only: one cut at `from` is finished by the next newline, and the last may still be printing.
  const start = from === 0 || printed[from - 1] === '\n' ? from : printed.indexOf('\n', from) + 1;
  const window = printed.slice(start, printed.lastIndexOf('\n'));
  return { ...collectionsIn(window), requests: result.requests, errors: result.errors };
}
