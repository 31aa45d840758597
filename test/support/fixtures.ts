import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, test as base, beforeAll } from 'vitest';
import { startFaultUpstream, upstreamEnv, type FaultUpstream } from './fault-upstream.js';
import { inProcessGateway, startGateway, type RunningGateway, type TestGateway, type Tuning } from './gateway.js';
import { REDIS_HOST, REDIS_PORT } from './redis.js';

type Env = Record<string, string>;
type Closable = { close(): Promise<void> };

export interface RigFixtures {
  /** A gateway over the built-in sandbox with default settings, in process, shared by the file's tests. */
  sandbox: TestGateway;
  /** The same behind the real HTTP server, for what crosses the wire (compression, streams). */
  servedSandbox: RunningGateway;
  /** A fault upstream shared by the file's tests (each test sets its own `handle`). */
  upstream: FaultUpstream;
  /**
   * A gateway in process over `upstream` with these settings (and no cache unless asked), started once
   * per file and settings, closed after the file's last test.
   */
  gatewayOver: (env?: Env, tuning?: Tuning) => Promise<TestGateway>;
  /** Starts a gateway of its own over HTTP for this test (the sandbox unless `env` names an upstream); closed after the test. */
  startGateway: (env?: Env, tuning?: Tuning) => Promise<RunningGateway>;
  /**
   * The shared Redis with a key prefix of this file's own: `env` points a gateway's cache and rate
   * limit at it, `client` reads it; the prefix's keys are deleted after the file. Use it inside
   * `describe.skipIf(!(await requireRedisInCi()))`.
   */
  redis: { url: string; prefix: string; env: Env; client: Redis };
}

/** A fixture shared by the file's tests: started by the first test that uses it, closed after the last. */
function perFile<T extends Closable>(
  start: () => Promise<T>,
): [(context: object, use: (value: T) => Promise<void>) => Promise<void>, { scope: 'file' }] {
  return [
    async ({}, use: (value: T) => Promise<void>) => {
      const value = await start();
      await use(value);
      await value.close();
    },
    { scope: 'file' },
  ];
}

/** The test function with the gateway, upstream and Redis fixtures; each is set up only for the tests that use it. */
export const test = base.extend<RigFixtures>({
  sandbox: perFile(() => inProcessGateway()),
  servedSandbox: perFile(() => startGateway()),
  upstream: perFile(startFaultUpstream),
  gatewayOver: [
    async ({ upstream }, use) => {
      const started = new Map<string, Promise<TestGateway>>();
      await use((env = {}, tuning = {}) => {
        const key = JSON.stringify([env, tuning]);
        let gw = started.get(key);
        if (!gw) {
          gw = inProcessGateway(upstreamEnv(upstream, env), tuning);
          started.set(key, gw);
        }
        return gw;
      });
      for (const gw of started.values()) await (await gw).close();
    },
    { scope: 'file' },
  ],
  startGateway: async ({}, use) => {
    const started: RunningGateway[] = [];
    await use(async (env = {}, tuning = {}) => {
      const gw = await startGateway(env, 0, tuning);
      started.push(gw);
      return gw;
    });
    for (const gw of started) await gw.close();
  },
  redis: [
    async ({}, use) => {
      const url = `redis://${REDIS_HOST}:${REDIS_PORT}`;
      const prefix = `lookup-graph:test:${process.pid}:${randomBytes(4).toString('hex')}:`;
      const client = new Redis(url, { lazyConnect: true });
      await use({ url, prefix, client, env: { REDIS_URL: url, REDIS_KEY_PREFIX: prefix, CACHE_KEY_SECRET: prefix } });
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    },
    { scope: 'file' },
  ],
});

/** @alias */
export const it = test;

/**
 * Something the enclosing describe block (or file) shares: `start` runs in its beforeAll and the result
 * is closed in its afterAll. The returned object stands for the result (a proxy), so it is read inside
 * hooks and tests like the value itself: `const gw = forSuite(() => inProcessGateway({ ... }))`.
 */
export function forSuite<T extends Closable>(start: () => Promise<T>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  });
  afterAll(() => value?.close());
  return new Proxy({} as T, {
    get(_target, property) {
      if (!value) throw new Error(`forSuite: ${String(property)} was read before the suite's beforeAll`);
      const member = Reflect.get(value, property, value);
      return typeof member === 'function' ? member.bind(value) : member;
    },
  });
}

/**
 * A fault upstream and a gateway in process over it with these settings, for the enclosing describe
 * block (or file): started in its beforeAll, closed in its afterAll (see forSuite).
 */
export function upstreamGatewayFor(env: Env = {}, tuning: Tuning = {}): { up: FaultUpstream; gw: TestGateway } {
  const up = forSuite(startFaultUpstream);
  const gw = forSuite(() => inProcessGateway(upstreamEnv(up, env), tuning));
  return { up, gw };
}
