import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/cache/redis-store.js';
import { createLogger } from '../../src/kernel/logger.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway } from '../support/gateway.js';
import { freePort, startBuilt, statusOf, waitFor, type Child } from '../support/processes.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';
import { sleep } from '../support/wait.js';

/**
 * Coalescing leases across processes on the machine's Redis: a live holder renews its lease for as long as
 * its call is in flight, so a call longer than the lease's life in Redis (3 s) is still one call; a holder
 * that dies stops renewing, its lease runs out within that life, and a waiter calls itself.
 */

const redisUp = await requireRedisInCi();
const REDIS_URL = `redis://${REDIS_HOST}:${REDIS_PORT}`;
/** The lease's life in Redis between renewals (src/cache/settings.ts): the calls below outlast it. */
const LEASE_TTL_MS = 3_000;

describe.skipIf(!redisUp)('coalescing leases across processes', () => {
  let up: FaultUpstream;
  /** Calls for domains starting `slow-` answer after this long; those starting `hang-` answer when released. */
  const slowMs = LEASE_TTL_MS + 1_500;
  let release: () => void = () => undefined;
  const hung = new Promise<void>((resolve) => (release = resolve));
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const env = (extra: Record<string, string> = {}) =>
    upstreamEnv(up, {
      CACHE_ENABLED: 'true',
      REDIS_URL,
      // This run's own cache keys: they carry the HMAC of the token under this secret.
      CACHE_KEY_SECRET: `leases-${runId}`,
      REDIS_KEY_PREFIX: `lg-test:leases:${runId}:`,
      REDIS_COMMAND_TIMEOUT_MS: '1000',
      ...extra,
    });
  const query = (domain: string) => `{ domainInfo(domain: "${domain}") { domainName } }`;

  beforeAll(async () => {
    up = await startFaultUpstream();
    up.handle(async (call, _req, res) => {
      const domain = String(call.body.domain);
      if (domain.startsWith('slow-')) await sleep(slowMs);
      if (domain.startsWith('hang-') && up.calls.filter((c) => c.body.domain === domain).length === 1) await hung;
      json(res, 200, { status: 200, response: { domain_name: domain, domain_registered: 'yes' } });
    });
  });
  afterAll(async () => {
    release();
    await up?.close();
  });

  it("a live holder's call longer than the lease's life in Redis is still one call: the other process waits for it", {
    timeout: 30_000,
  }, async () => {
    const a = await startGateway(env());
    const b = await startGateway(env());
    try {
      const domain = `slow-${runId}.example`;
      const first = a.query(query(domain));
      await waitFor(() => up.calls.some((call) => call.body.domain === domain), 10_000, 'the holder to call');
      const second = await b.query(query(domain));
      const answers = [await first, second];
      for (const answer of answers) {
        expect(answer.body.errors).toBeUndefined();
        expect(answer.body.data).toEqual({ domainInfo: { domainName: domain } });
      }
      expect(up.calls.filter((call) => call.body.domain === domain)).toHaveLength(1);
      expect(answers.map((answer) => answer.body.extensions!.gateway.lookups[0].source).sort()).toEqual([
        'coalesced',
        'upstream',
      ]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a holder killed during its call frees the key within the lease's life: the waiter in another process calls itself and answers within its deadline", {
    timeout: 60_000,
  }, async () => {
    const domain = `hang-${runId}.example`;
    const port = await freePort();
    const holder: Child = startBuilt({ ...env({ LOG_LEVEL: 'warn' }), PORT: String(port) });
    // Its deadline shorter than CACHE_LEASE_MS (15 s): waiting out the dead holder's lease would time it out.
    const waiter = await startGateway(env({ OPERATION_TIMEOUT_MS: '12000' }));
    try {
      await waitFor(async () => (await statusOf(`http://127.0.0.1:${port}/readyz`)) === 200, 20_000, 'the holder');
      const held = fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: query(domain) }),
      }).catch(() => null);
      await waitFor(() => up.calls.some((call) => call.body.domain === domain), 10_000, 'the holder to call');
      const asked = waiter.query(query(domain));
      // The holder lives on past its lease's life in Redis: the waiter keeps waiting, it makes no call.
      await sleep(LEASE_TTL_MS + 1_500);
      expect(up.calls.filter((call) => call.body.domain === domain)).toHaveLength(1);
      holder.child.kill('SIGKILL');
      const killedAt = Date.now();
      await holder.exited;
      const answer = await asked;
      console.log(`lease of a killed holder: the waiter answered ${Date.now() - killedAt} ms after the kill`);
      await held;
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data).toEqual({ domainInfo: { domainName: domain } });
      expect(answer.body.extensions!.gateway.lookups[0].source).toBe('upstream');
      // The dead holder's call, and the waiter's own: no more.
      expect(up.calls.filter((call) => call.body.domain === domain)).toHaveLength(2);
    } finally {
      holder.child.kill('SIGKILL');
      await waiter.close();
    }
  });

  it("renews only this process's own leases, and never a lease another process took over", async () => {
    const mine = new RedisStore(REDIS_URL, createLogger('silent'));
    const theirs = new RedisStore(REDIS_URL, createLogger('silent'));
    const admin = new Redis(REDIS_PORT, REDIS_HOST);
    const [key, other] = [`lg-test:leases:${runId}:renew-a`, `lg-test:leases:${runId}:renew-b`];
    try {
      await Promise.all([mine.ready(3000), theirs.ready(3000)]);
      expect(await mine.acquireLease(key, 1_000)).toBe(true);
      expect(await theirs.acquireLease(other, 1_000)).toBe(true);
      await mine.renewLeases([key, other], 60_000);
      expect(await admin.pttl(`${key}:lease`)).toBeGreaterThan(1_000);
      expect(await admin.pttl(`${other}:lease`)).toBeLessThanOrEqual(1_000);
      // Released: nothing left to renew, and no lease made from nothing.
      await mine.releaseLease(key);
      await mine.renewLeases([key], 60_000);
      expect(await admin.exists(`${key}:lease`)).toBe(0);
    } finally {
      await admin.del(`${key}:lease`, `${other}:lease`);
      admin.disconnect();
      await mine.close();
      await theirs.close();
    }
  });
});
