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

/** A private redis-server on a free port, no persistence, ended by its pid. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
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
  let frozen = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    pid,
    freeze: () => {
      process.kill(pid, 'SIGSTOP');
      frozen = true;
    },
    thaw: () => {
      process.kill(pid, 'SIGCONT');
      frozen = false;
    },
    async close() {
      if (frozen) process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(pid, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
