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
  /** SIGKILL: gone at once, its data with it (no persistence). */
  kill(): Promise<void>;
  /** A new redis-server on the same port, empty, once it answers. */
  restart(): Promise<void>;
  /** Whether it runs now (not killed or closed). */
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

interface Running {
  pid: number;
  exited: Promise<void>;
}

interface Options {
  /** The path of a Sentinel config file (Sentinel rewrites it): runs `redis-server <file> --sentinel`. */
  sentinel?: string;
}

async function launch(port: number, args: string[], options: Options): Promise<Running> {
  const mode = options.sentinel ? [options.sentinel, '--sentinel'] : [];
  // Its own directory: a replica writes the snapshot it receives there.
  const dir = mkdtempSync(join(tmpdir(), 'lg-redis-'));
  // A master sends a new replica its data at once (Redis waits 5 s by default for more replicas to join
  // the same transfer): each replica of a cluster or Sentinel set is in sync seconds sooner.
  const persistence = options.sentinel
    ? []
    : ['--save', '', '--appendonly', 'no', '--dir', dir, '--repl-diskless-sync-delay', '0'];
  const child: ChildProcess = spawn(
    'redis-server',
    [...mode, '--port', String(port), '--bind', '127.0.0.1', ...persistence, '--protected-mode', 'no', ...args],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const pid = child.pid!;
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
  });
  let exitedYet = false;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exitedYet = true;
      rmSync(dir, { recursive: true, force: true });
      resolve();
    }),
  );
  const until = Date.now() + 5000;
  while (!(await redisAnswersAt('127.0.0.1', port, 200))) {
    if (Date.now() > until || exitedYet) {
      if (!exitedYet) process.kill(pid, 'SIGKILL');
      throw new Error(`redis-server ${args.join(' ')} did not start on port ${port}; its output:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pid, exited };
}

/**
 * A private redis-server on a free loopback port, no persistence, ended by its pid. `args` are more
 * redis-server options (cluster mode, replication).
 */
export async function startOwnRedis(args: string[] = [], options: Options = {}): Promise<OwnRedis> {
  const port = await freePort();
  let running: Running | null = await launch(port, args, options);
  let frozen = false;
  const signal = (name: NodeJS.Signals) => {
    if (running) process.kill(running.pid, name);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    get pid() {
      return running?.pid ?? 0;
    },
    freeze: () => {
      signal('SIGSTOP');
      frozen = true;
    },
    thaw: () => {
      signal('SIGCONT');
      frozen = false;
    },
    async kill() {
      if (!running) return;
      signal('SIGKILL');
      await running.exited;
      running = null;
      frozen = false;
    },
    async restart() {
      if (running) throw new Error('redis-server is still running');
      running = await launch(port, args, options);
    },
    alive: () => running !== null,
    async close() {
      if (!running) return;
      const { pid, exited } = running;
      if (frozen) process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(pid, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
      running = null;
    },
  };
}
