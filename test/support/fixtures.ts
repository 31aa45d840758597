import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, test as base, beforeAll } from 'vitest';
import { startFaultUpstream, upstreamEnv, type FaultUpstream } from './fault-upstream.js';
import { startGateway, type RunningGateway } from './gateway.js';
import { REDIS_HOST, REDIS_PORT } from './redis.js';

type Env = Record<string, string>;

export interface RigFixtures {
  /** A gateway over the built-in sandbox with default settings, shared by the file's tests. */
  sandbox: RunningGateway;
  /** A fault upstream shared by the file's tests (each test sets its own `handle`). */
  upstream: FaultUpstream;
  /**
   * A gateway over `upstream` with these settings (and no cache unless asked), started once per
   * file and settings, closed after the file's last test.
   */
  gatewayOver: (env?: Env) => Promise<RunningGateway>;
  /** Starts a gateway of its own for this test (the sandbox unless `env` names an upstream); closed after the test. */
  startGateway: (env?: Env) => Promise<RunningGateway>;
  /**
   * The shared Redis with a key prefix of this file's own: `env` points a gateway's cache and rate
   * limit at it, `client` reads it; the prefix's keys are deleted after the file. Use it inside
   * `describe.skipIf(!(await requireRedisInCi()))`.
   */
  redis: { url: string; prefix: string; env: Env; client: Redis };
}

/** The test function with the gateway, upstream and Redis fixtures; each is set up only for the tests that use it. */
export const test = base.extend<RigFixtures>({
  sandbox: [
    async ({}, use) => {
      const gw = await startGateway();
      await use(gw);
      await gw.close();
    },
    { scope: 'file' },
  ],
  upstream: [
    async ({}, use) => {
      const up = await startFaultUpstream();
      await use(up);
      await up.close();
    },
    { scope: 'file' },
  ],
  gatewayOver: [
    async ({ upstream }, use) => {
      const started = new Map<string, Promise<RunningGateway>>();
      await use((env = {}) => {
        const key = JSON.stringify(env);
        let gw = started.get(key);
        if (!gw) {
          gw = startGateway(upstreamEnv(upstream, env));
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
    await use(async (env = {}) => {
      const gw = await startGateway(env);
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
      await use({ url, prefix, client, env: { REDIS_URL: url, RATE_LIMIT_REDIS_PREFIX: `${prefix}rate:`, CACHE_KEY_SECRET: prefix } });
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    },
    { scope: 'file' },
  ],
});

export const it = test;

/**
 * A fault upstream and a gateway over it with these settings, for a suite's beforeAll; `close`
 * closes both. (The `upstream` and `gatewayOver` fixtures do the same for single tests.)
 */
export async function startUpstreamGateway(env: Env = {}): Promise<{ up: FaultUpstream; gw: RunningGateway; close(): Promise<void> }> {
  const up = await startFaultUpstream();
  const gw = await startGateway(upstreamEnv(up, env));
  return {
    up,
    gw,
    async close() {
      await gw.close();
      await up.close();
    },
  };
}

/**
 * A fault upstream and a gateway over it for the enclosing describe block (or file): started in its
 * beforeAll, closed in its afterAll. Read `up` and `gw` inside hooks and tests.
 */
export function upstreamGatewayFor(env: Env = {}): { readonly up: FaultUpstream; readonly gw: RunningGateway } {
  let rig: Awaited<ReturnType<typeof startUpstreamGateway>> | undefined;
  beforeAll(async () => {
    rig = await startUpstreamGateway(env);
  });
  afterAll(() => rig?.close());
  return {
    get up() {
      return rig!.up;
    },
    get gw() {
      return rig!.gw;
    },
  };
}
