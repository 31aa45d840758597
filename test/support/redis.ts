import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { splice } from './tcp.js';

export const REDIS_HOST = '127.0.0.1';
export const REDIS_PORT = 6379;

/** Whether a Redis answers PING on 127.0.0.1:6379. */
export function redisAnswers(timeoutMs = 500): Promise<boolean> {
  return redisAnswersAt(REDIS_HOST, REDIS_PORT, timeoutMs);
}

/** Whether a Redis answers PING at host:port. */
export function redisAnswersAt(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * The Redis tests must run in CI: there a missing Redis is a failure, elsewhere a skip.
 * Returns whether to run them.
 */
export async function requireRedisInCi(): Promise<boolean> {
  const up = await redisAnswers();
  if (!up && process.env.CI === 'true') {
    throw new Error('CI=true but no Redis answers on 127.0.0.1:6379: the Redis tests cannot run');
  }
  return up;
}

/** A TCP proxy to the real Redis that a test can cut and restore, to see the gateway live through an outage. */
export async function startRedisProxy(): Promise<{
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  let port = 0;
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: REDIS_HOST, port: REDIS_PORT });
        sockets.add(client).add(upstream);
        splice(client, upstream);
      });
      server.listen(port, REDIS_HOST, () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const cut = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  };
  await listen();
  return { url: `redis://${REDIS_HOST}:${port}`, cut, restore: listen, close: cut };
}
