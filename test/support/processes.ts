import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
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

/**
 * `command` run from the repository root as a real child process, its output collected. The upstream and
 * NODE_ENV of this environment are not inherited, nor is REDIS_URL unless `keepRedis`.
 */
export function startChild(command: string[], env: Record<string, string>, keepRedis = false): Child {
  const { ACTION_BASE_URL: _a, ACTION_TOKEN: _t, NODE_ENV: _n, REDIS_URL, ...inherited } = process.env;
  const redis = keepRedis && REDIS_URL !== undefined ? { REDIS_URL } : {};
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...inherited, ...redis, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** `node dist/main.js` (the production entry point) as a real child process, with a clean environment. */
export function startBuilt(env: Record<string, string>, script = 'dist/main.js'): Child {
  return startChild([process.execPath, script], env);
}

/** A built gateway started by `startBuiltOnPorts`, with the ports it was given. */
export interface BuiltOnPorts extends Child {
  port: number;
  metricsPort: number;
}

/**
 * `startBuilt` on a free PORT and METRICS_PORT of its own, pointed at `upstream` when one is given
 * (ACTION_BASE_URL and ACTION_TOKEN); `env` adds to or overrides those.
 */
export async function startBuiltOnPorts(
  env: Record<string, string>,
  upstream?: { url: string; token: string },
): Promise<BuiltOnPorts> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const upstreamSettings: Record<string, string> = upstream
    ? { ACTION_BASE_URL: upstream.url, ACTION_TOKEN: upstream.token }
    : {};
  const child = startBuilt({ PORT: String(port), METRICS_PORT: String(metricsPort), ...upstreamSettings, ...env });
  return { ...child, port, metricsPort };
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

/** The pids whose parent is `pid`, read from /proc (the workers of a WORKERS > 1 gateway). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // the process ended while it was read
    }
  }
  return children.sort();
}

/** One query on a connection of its own (so each can land on another worker of a WORKERS > 1 gateway). */
export function queryOnce(
  port: number,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', connection: 'close', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query }));
  });
}

/** The image's entry point, which sizes V8's heap and the caches from the container's memory. */
export const ENTRYPOINT = `${ROOT}deploy/entrypoint.sh`;

/** The entry point's environment: this test's node first on PATH (the script runs `node`), nothing inherited that sizes memory. */
export function entryEnv(env: Record<string, string>): Record<string, string> {
  const {
    ACTION_BASE_URL: _a,
    ACTION_TOKEN: _t,
    NODE_ENV: _n,
    REDIS_URL: _r,
    NODE_OPTIONS: _o,
    CACHE_MAX_MB: _c,
    CACHE_RESULTS_MB: _m,
    DOCUMENT_CACHE_MB: _d,
    MEMORY_LIMIT_MB: _l,
    ...inherited
  } = process.env as Record<string, string>;
  return { ...inherited, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...env };
}
