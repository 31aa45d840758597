import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it, onTestFinished, type TestContext } from 'vitest';
import { RedisQuotaCounter } from '../../src/quota/redis-counter.js';
import { windowAt } from '../../src/quota/window.js';
import { hashApiKey } from '../../src/security/api-keys.js';
import { sandboxCalls } from '../support/assertions.js';
import { inProcessGateway } from '../support/gateway.js';
import { hasRedisServer, startOwnRedis } from '../support/own-redis.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';

const silent = pino({ level: 'silent' });
const GUARD = { commandTimeoutMs: 1000, unhealthyAfter: 1, probeIntervalMs: 100 };
const keyOf = (id: string) => ({ id, ...windowAt('day', Date.now()) });
const KEY = 'team-e-key-0123456789';

/**
 * `count` quota counters (replicas) on a Redis of this test's own, all ready, closed with that Redis after
 * the test; the test is skipped where redis-server is not installed.
 */
async function countersOnOwnRedis(ctx: TestContext, count: number) {
  if (!(await hasRedisServer())) ctx.skip();
  const redis = await startOwnRedis();
  const replicas = Array.from({ length: count }, () => new RedisQuotaCounter(redis.url, 'q:', count, silent, GUARD));
  onTestFinished(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await redis.close();
  });
  await Promise.all(replicas.map((replica) => replica.ready()));
  return { redis, replicas };
}

describe('quota counters in Redis', () => {
  it('three replicas reserving at once never grant more than the quota', async (ctx) => {
    if (!(await requireRedisInCi())) return ctx.skip();
    const prefix = `lg-test:quota-counter:${process.pid}-${Date.now().toString(36)}:`;
    const replicas = Array.from(
      { length: 3 },
      () => new RedisQuotaCounter(`redis://${REDIS_HOST}:${REDIS_PORT}`, prefix, 3, silent, GUARD),
    );
    try {
      await Promise.all(replicas.map((replica) => replica.ready()));
      const key = keyOf('team-a');
      const results = await Promise.all(Array.from({ length: 300 }, (_, i) => replicas[i % 3]!.reserve(key, 50)));
      expect(results.filter((result) => result.granted)).toHaveLength(50);
      expect(Math.max(...results.map((result) => result.used))).toBe(50);
      // A call never sent is given back: room for exactly one more.
      await results.find((result) => result.granted)!.refund!();
      expect(await replicas[1]!.used(key)).toBe(49);
      expect((await replicas[2]!.reserve(key, 50)).granted).toBe(true);
      expect((await replicas[0]!.reserve(key, 50)).granted).toBe(false);
      await replicas[0]!.reset(key);
      expect(await replicas[2]!.used(key)).toBe(0);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('while Redis is out, each replica spends alone its share of what it last saw left, and adds it once Redis is back', async (ctx) => {
    const { redis, replicas } = await countersOnOwnRedis(ctx, 3);
    const key = keyOf('team-b');
    // 40 of 100 spent, every replica having seen it.
    for (let i = 0; i < 40; i += 1) expect((await replicas[i % 3]!.reserve(key, 100)).granted).toBe(true);
    for (const replica of replicas) await replica.used(key);
    await redis.kill();
    // floor((100 - 40) / 3) = 20 each, no more.
    const alone = await Promise.all(
      replicas.map(async (replica) => {
        let granted = 0;
        for (let i = 0; i < 30; i += 1) if ((await replica.reserve(key, 100)).granted) granted += 1;
        return granted;
      }),
    );
    expect(alone).toEqual([20, 20, 20]);
    // Back, empty (its data died with it): the 40 counted before are written back from what the
    // replicas saw, and what each spent alone is added: the quota is spent, and stays so.
    await redis.restart();
    for (const replica of replicas) await replica.ready(3000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await replicas[0]!.reserve(key, 100)).granted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await replicas[1]!.used(key)).toBe(100);
  });

  it('a Redis restarted empty, or flushed, does not hand a client its spent quota again: replicas write back what they saw', async (ctx) => {
    const { redis, replicas } = await countersOnOwnRedis(ctx, 2);
    const admin = new Redis(redis.port, redis.host, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const grantedOf = async (calls: number, from: (i: number) => RedisQuotaCounter) => {
      let granted = 0;
      for (let i = 0; i < calls; i += 1) if ((await from(i).reserve(key, 50)).granted) granted += 1;
      return granted;
    };
    const key = keyOf('team-c');
    try {
      // 30 of a 50/day quota, spent through both replicas.
      expect(await grantedOf(30, (i) => replicas[i % 2]!)).toBe(30);
      // Flushed: the next reservation, on the replica that counted last, finds the counter missing.
      await admin.flushall();
      expect(await replicas[1]!.used(key)).toBe(30);
      expect(await grantedOf(10, () => replicas[1]!)).toBe(10);
      expect(Number(await admin.get(`q:${key.id}:${key.start}`))).toBe(40);
      // Restarted without persistence: gone again. The replica that counted last writes back the 40 it
      // saw with its next reservation; the other (it last saw 29) then finds the counter there.
      admin.disconnect();
      await redis.kill();
      await redis.restart();
      for (const replica of replicas) await replica.ready(3000);
      // 50 calls asked of a quota with 10 left (all 50 were granted before replicas wrote back).
      expect(await grantedOf(50, (i) => replicas[1 - (i % 2)]!)).toBe(10);
      expect(await replicas[0]!.used(key)).toBe(50);
      expect(await replicas[1]!.used(key)).toBe(50);
    } finally {
      admin.disconnect();
    }
  });

  it('a reset counter starts again from zero, on every replica, though each saw it spent', async (ctx) => {
    const { replicas } = await countersOnOwnRedis(ctx, 2);
    const key = keyOf('team-d');
    for (let i = 0; i < 5; i += 1) expect((await replicas[i % 2]!.reserve(key, 5)).granted).toBe(true);
    for (const replica of replicas) expect((await replica.reserve(key, 5)).granted).toBe(false);
    await replicas[0]!.reset(key);
    const granted = [];
    for (let i = 0; i < 6; i += 1) granted.push((await replicas[i % 2]!.reserve(key, 5)).granted);
    expect(granted).toEqual([true, true, true, true, true, false]);
  });

  it('two gateways on a Redis flushed part-way: a 50/day key gets its 50 calls (one more at most), not 50 more', async (ctx) => {
    if (!(await hasRedisServer())) return ctx.skip();
    const redis = await startOwnRedis();
    const dir = mkdtempSync(join(tmpdir(), 'lg-quota-flush-'));
    const keys = join(dir, 'keys');
    writeFileSync(keys, `${hashApiKey(KEY)} name=team-e quota=50/day\n`);
    const env = {
      REDIS_URL: redis.url,
      GATEWAY_API_KEYS_FILE: keys,
      QUOTA_REPLICAS: '2',
      CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      REDIS_COMMAND_TIMEOUT_MS: '1000',
      // The quota is under test, not load shedding: a busy shared machine must not shed these requests.
      SHED_EVENT_LOOP_DELAY_MS: '0',
    };
    const gateways = [await inProcessGateway(env), await inProcessGateway(env)];
    const admin = new Redis(redis.port, redis.host);
    const ask = async (i: number) => {
      const res = await gateways[i % 2]!.query(
        `{ domainInfo(domain: "flush-${i}.example") { domainName } }`,
        undefined,
        {
          'x-api-key': KEY,
        },
      );
      return res.body.data?.domainInfo?.domainName === `flush-${i}.example`;
    };
    const calls = () => gateways.reduce((sum, gw) => sum + sandboxCalls(gw), 0);
    try {
      let answered = 0;
      for (let i = 0; i < 30; i += 1) if (await ask(i)) answered += 1;
      expect(answered).toBe(30);
      await admin.flushall();
      for (let i = 30; i < 100; i += 1) if (await ask(i)) answered += 1;
      // The first to count after the flush is the gateway that last saw 29 (the other counted the 30th): it
      // writes back 29, so at most that one call more than the quota; without write-back 80 were answered.
      expect(answered).toBeGreaterThanOrEqual(50);
      expect(answered).toBeLessThanOrEqual(51);
      expect(calls()).toBe(answered);
    } finally {
      admin.disconnect();
      for (const gw of gateways) await gw.close();
      await redis.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
