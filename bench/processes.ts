import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Request, throughput, type ThroughputResult } from './load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const ENTRYPOINT = fileURLToPath(new URL('../deploy/entrypoint.sh', import.meta.url));
export const CAN_PIN = existsSync('/usr/bin/taskset');

export interface ServerProcess {
  origin: string;
  /** The process started (taskset and the entry point exec in place); a tsx-run server's Node is its child. */
  pid: number;
  /** Everything it has printed on stdout so far (with `--trace-gc-nvp`, its collections too). */
  output(): string;
  stop(): Promise<void>;
}

/** Runs `command` pinned to `cpu` (a CPU, or a taskset list such as `0,1`) when taskset exists, and resolves once it prints `READY <port>`. */
function spawnServer(
  command: string[],
  env: Record<string, string | undefined>,
  cpu: number | string,
): Promise<ServerProcess> {
  const child = spawnPinned(command, env, cpu);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /READY (\d+)/.exec(output);
      if (match) {
        resolve({
          origin: `http://127.0.0.1:${match[1]}`,
          pid: child.pid!,
          output: () => output,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code} before it was ready`)));
  });
}

/** Starts a TypeScript bench server (bench/servers/*.ts) through tsx in its own process, pinned to `cpu`. */
export function startServer(entry: string, env: Record<string, string>, cpu = 0): Promise<ServerProcess> {
  return spawnServer([TSX, entry], { ...process.env, ...env }, cpu);
}

/**
 * The command and environment that start `args` (node's arguments: flags, then the script) as the image
 * starts the gateway: through deploy/entrypoint.sh, which sizes V8's heap and the caches from
 * MEMORY_LIMIT_MB. Memory settings of the calling shell are left out so the entry point alone sizes it;
 * `env` may still set a cache bound. `inherit: false` passes `env` and PATH alone.
 */
export function throughEntrypoint(
  args: string[],
  env: Record<string, string>,
  memoryLimitMb: number,
  inherit = true,
): { command: string[]; env: Record<string, string | undefined> } {
  const { NODE_OPTIONS: _o, CACHE_MAX_MB: _c, CACHE_RESULTS_MB: _r, MEMORY_LIMIT_MB: _m, ...inherited } = process.env;
  return {
    command: ['/bin/sh', ENTRYPOINT, ...args],
    env: {
      ...(inherit ? inherited : {}),
      // The entry point runs `node`: this one, first on PATH.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      MEMORY_LIMIT_MB: String(memoryLimitMb),
      ...env,
    },
  };
}

/** Runs `command` pinned to `cpu` when taskset exists, its stdout and stderr to the caller. */
export function spawnPinned(
  command: string[],
  env: Record<string, string | undefined>,
  cpu: number | string,
): ChildProcess {
  const [file, args] = CAN_PIN
    ? ['/usr/bin/taskset', ['-c', String(cpu), ...command]]
    : [command[0]!, command.slice(1)];
  return spawn(file, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
}

/**
 * Starts the built gateway (`entry`, a bench/servers/gateway.mjs) as the image starts it, through
 * deploy/entrypoint.sh (see throughEntrypoint). `nodeArgs` go to node before the entry (e.g. `--trace-gc-nvp`).
 */
export function startGateway(
  entry: string,
  env: Record<string, string>,
  memoryLimitMb: number,
  cpu: number | string = 0,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const started = throughEntrypoint([...nodeArgs, entry], env, memoryLimitMb);
  return spawnServer(started.command, started.env, cpu);
}

/** What the entry point gave a running gateway: node's memory flags and the cache bounds, from /proc. */
export function sizingOf(pid: number): string {
  try {
    const flags = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => /^--m(ax|in)-/.test(arg));
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((entry) => /^(CACHE_MAX_MB|CACHE_RESULTS_MB)=/.test(entry));
    return [...flags, ...env].join(' ');
  } catch {
    return 'unknown (no /proc)';
  }
}

/** Pins this process (the load generator) to `cpu` when taskset exists. */
export function pinSelf(cpu: number): void {
  if (!CAN_PIN) return;
  spawn('/usr/bin/taskset', ['-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

/** Fields of a /proc stat file: [ppid, utime + stime in clock ticks]. */
function stat(path: string): [number, number] | null {
  try {
    const text = readFileSync(path, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[1]), Number(fields[11]) + Number(fields[12])];
  } catch {
    return null;
  }
}

/** CPU seconds used so far by `pid` and every process below it (a tsx-run server is a child of tsx). 0 where /proc is missing. */
function cpuSeconds(pid: number): number {
  if (!existsSync('/proc/self/stat')) return 0;
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = stat(`/proc/${name}/stat`);
    if (entry) children.set(entry[0], [...(children.get(entry[0]) ?? []), Number(name)]);
  }
  let ticks = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const current = stack.pop()!;
    ticks += stat(`/proc/${current}/stat`)?.[1] ?? 0;
    stack.push(...(children.get(current) ?? []));
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** One round of closed-loop load on `server`, with the CPU µs per request it used meanwhile (all its processes). */
export async function measuredRound(
  server: ServerProcess,
  next: (i: number) => Request,
  concurrency: number,
  ms: number,
): Promise<ThroughputResult & { cpuUs: number }> {
  const before = cpuSeconds(server.pid);
  const result = await throughput(server.origin, next, concurrency, ms);
  return { ...result, cpuUs: ((cpuSeconds(server.pid) - before) * 1e6) / result.requests };
}

/** Resident memory of process `pid` now and at its peak (VmRSS, VmHWM), in MB; NaN without /proc. */
export function residentMb(pid: number): { now: number; peak: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // no /proc, or the process is gone
  }
  const read = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
  return { now: read('VmRSS'), peak: read('VmHWM') };
}
