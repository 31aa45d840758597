import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';
import { redisAnswersAt } from './redis.js';

export interface OwnRedis {
  url: string;
  host: string;
  port: number;
  pid: number;
  /** SIGSTOP: the process keeps its sockets open and answers nothing, as a stuck primary does. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  /** SIGKILL, as a crashed host: resolves once the process is gone. */
  kill(): Promise<void>;
  /** Whether it still runs (not killed or closed). */
  alive(): boolean;
  close(): Promise<void>;
}

/** Whether `redis-server` can be started here (it is a Debian package on CI). */
export function hasRedisServer(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('redis-server', ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/**
 * A private redis-server on a free loopback port, no persistence, ended by its pid. `args` are more
 * redis-server options (cluster mode, replication); `sentinel`: the path of a Sentinel config file
 * (Sentinel rewrites it) to run `redis-server <file> --sentinel` instead; `port`: this one (a restart).
 */
export async function startOwnRedis(args: string[] = [], options: { sentinel?: string; port?: number } = {}): Promise<OwnRedis> {
  const port = options.port ?? (await freePort());
  const mode = options.sentinel ? [options.sentinel, '--sentinel'] : [];
  // Its own directory: a replica writes the snapshot it receives there.
  const dir = mkdtempSync(join(tmpdir(), 'lg-redis-'));
  const persistence = options.sentinel ? [] : ['--save', '', '--appendonly', 'no', '--dir', dir];
  const child: ChildProcess = spawn(
    'redis-server',
    [...mode, '--port', String(port), '--bind', '127.0.0.1', ...persistence, '--protected-mode', 'no', ...args],
    { stdio: 'ignore' },
  );
  const pid = child.pid!;
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      running = false;
      rmSync(dir, { recursive: true, force: true });
      resolve();
    }),
  );
  const until = Date.now() + 5000;
  while (!(await redisAnswersAt('127.0.0.1', port, 200))) {
    if (Date.now() > until || !running) {
      if (running) process.kill(pid, 'SIGKILL');
      throw new Error(`redis-server ${args.join(' ')} did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let frozen = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    pid,
    freeze: () => {
      process.kill(pid, 'SIGSTOP');
      frozen = true;
    },
    thaw: () => {
      process.kill(pid, 'SIGCONT');
      frozen = false;
    },
    async kill() {
      if (!running) return;
      process.kill(pid, 'SIGKILL');
      await exited;
    },
    alive: () => running,
    async close() {
      if (!running) return;
      if (frozen) process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => running && process.kill(pid, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
