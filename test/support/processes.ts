import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The lowest port the kernel hands to outgoing connections (Linux's default when it cannot be read). */
function lowestEphemeralPort(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const FIRST_PORT = 20000;
const LAST_PORT = lowestEphemeralPort() - 1;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Ports this process has handed out: two processes started side by side never get the same one. */
const handedOut = new Set<number>();

/**
 * A loopback port nothing listens on, for a process started next. It is picked below the kernel's range
 * for outgoing connections: a port from that range (what listening on port 0 gives) can be taken by any
 * test's outgoing connection before the process binds it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
}

export interface Child {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node dist/main.js` (the production entry point) as a real child process, with a clean environment. */
export function startBuilt(env: Record<string, string>, script = 'dist/main.js'): Child {
  const { ACTION_BASE_URL: _a, ACTION_TOKEN: _t, NODE_ENV: _n, REDIS_URL: _r, ...inherited } = process.env;
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition') {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function statusOf(url: string): Promise<number> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}
