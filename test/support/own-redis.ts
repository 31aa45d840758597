import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { redisAnswersAt } from './redis.js';

export interface OwnRedis {
  url: string;
  pid: number;
  /** SIGSTOP: the process keeps its sockets open and answers nothing, as a stuck primary does. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  /** SIGKILL: gone at once, its data with it (no persistence). */
  kill(): Promise<void>;
  /** A new redis-server on the same port, empty, once it answers. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
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

async function launch(port: number): Promise<Running> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const pid = child.pid!;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const until = Date.now() + 5000;
  while (!(await redisAnswersAt('127.0.0.1', port, 200))) {
    if (Date.now() > until) {
      process.kill(pid, 'SIGKILL');
      throw new Error('redis-server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pid, exited };
}

/** A private redis-server on a free port, no persistence, ended by its pid. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let running: Running | null = await launch(port);
  let frozen = false;
  const signal = (name: NodeJS.Signals) => {
    if (running) process.kill(running.pid, name);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
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
      running = await launch(port);
    },
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
