import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Request, throughput, type ThroughputResult } from './load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
export const CAN_PIN = existsSync('/usr/bin/taskset');

export interface ServerProcess {
  origin: string;
  /** The process started (taskset execs in place); a tsx-run server's Node is its child. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a bench server in its own process, pinned to `cpu` (0 by default) when taskset exists.
 * `.mjs` entries (the built gateway) run on plain Node; `.ts` ones through tsx.
 */
export function startServer(entry: string, env: Record<string, string>, cpu = 0, nodeFlags: string[] = []): Promise<ServerProcess> {
  const run = entry.endsWith('.mjs') ? [process.execPath, ...nodeFlags, entry] : [TSX, entry];
  const [command, args] = CAN_PIN ? ['/usr/bin/taskset', ['-c', String(cpu), ...run]] : [run[0]!, run.slice(1)];
  const child: ChildProcess = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /READY (\d+)/.exec(output);
      if (match) {
        resolve({
          origin: `http://127.0.0.1:${match[1]}`,
          pid: child.pid!,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
}

export function pinSelf(cpu: number): void {
  if (!CAN_PIN) return;
  spawn('/usr/bin/taskset', ['-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

/** Fields of a /proc stat file (a process's or one thread's): [ppid, utime + stime in clock ticks]. */
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
export function cpuSeconds(pid: number): number {
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

/**
 * CPU seconds of one Node process (no children), split into its main thread (JavaScript, and the collector's
 * pauses) and the rest: V8's helper threads (concurrent marking and sweeping, parallel scavenges) and libuv's.
 */
export function threadCpuSeconds(pid: number): { main: number; helpers: number } {
  const split = { main: 0, helpers: 0 };
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const ticks = stat(`/proc/${pid}/task/${task}/stat`)?.[1] ?? 0;
      if (Number(task) === pid) split.main += ticks / 100;
      else split.helpers += ticks / 100;
    }
  } catch {
    // no /proc, or the process is gone: zeros
  }
  return split;
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

/** Resident memory of `pid` and its descendants' largest member (the Node process), in MB; null without /proc. */
export function residentMb(pid: number): number | null {
  const read = (p: number) => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      return match ? Number(match[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  if (!existsSync(`/proc/${pid}/status`)) return null;
  let largest = read(pid);
  for (const name of readdirSync('/proc')) {
    if (/^\d+$/.test(name) && stat(`/proc/${name}/stat`)?.[0] === pid) largest = Math.max(largest, read(Number(name)));
  }
  return largest;
}
