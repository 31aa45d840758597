import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { sandboxCalls } from '../support/assertions.js';
import { startSandboxLikeUpstream, upstreamEnv } from '../support/fault-upstream.js';
import { inProcessGateway, startGateway, type TestGateway } from '../support/gateway.js';
import { incrementalQuery, type IncrementalOptions, type Payload } from '../support/incremental.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';
import { sleep, until } from '../support/wait.js';

/**
 * @live queries end to end: over the sandbox (first result at once, a change pushed within an interval, no push
 * without a change), the refusals (no stream accepted, the bounds), a reader that does not read, the end of a
 * replica, a quota running out mid-stream, and 500 watchers across two replicas sharing Redis against a counting
 * upstream: one call per interval between them, none once they leave.
 */

const FINANCIAL = 'company_financial_profile';
const PRICE = 'query Price @live { financialProfiles(symbols: ["AAPL"]) { symbol price } }';
const EVERY_SECOND = { LIVE_REFRESH_SECONDS: `${FINANCIAL}=1` };

const closers: TestGateway[] = [];
afterEach(async () => {
  for (const gw of closers.splice(0)) await gw.close();
});
async function opened<T extends TestGateway>(gw: Promise<T>): Promise<T> {
  const made = await gw;
  closers.push(made);
  return made;
}

/** A live query through `gw` in this process (yoga.fetch), over SSE unless said otherwise. */
function watch(gw: TestGateway, query: string, options: IncrementalOptions = {}) {
  return incrementalQuery('http://gateway', query, {
    transport: 'sse',
    fetch: (url, init) => gw.gateway.yoga.fetch(url, init as Parameters<typeof gw.gateway.yoga.fetch>[1]),
    ...options,
  });
}

const prices = (payloads: Payload[]) => payloads.map((p) => p.body.data?.financialProfiles?.[0]?.price);

describe('@live over the sandbox', () => {
  it('answers the first result at once, then pushes a moved price within one interval, over real HTTP (SSE and multipart)', {
    timeout: 20_000,
  }, async () => {
    const gw = await opened(startGateway({ SANDBOX_MARKET: 'moving', ...EVERY_SECOND }));
    for (const transport of ['sse', 'multipart'] as const) {
      let received = 0;
      const res = await incrementalQuery(gw.url, PRICE, {
        transport,
        onPayload: () => {
          received += 1;
          return received >= 2;
        },
        hangUpAfterMs: 5_000,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(transport === 'sse' ? 'text/event-stream' : 'multipart/mixed');
      const [first, second] = res.payloads;
      expect(first!.body.data).toEqual({ financialProfiles: [{ symbol: 'AAPL', price: expect.any(Number) }] });
      // At once: before the first interval's poll could have been made.
      expect(first!.at).toBeLessThan(1_000);
      expect(first!.body.extensions?.gateway?.live?.next).toEqual([
        { action: FINANCIAL, key: 'AAPL', refreshAt: expect.any(String) },
      ]);
      expect(second, 'a second result').toBeDefined();
      expect(prices([second!])[0]).not.toBe(prices([first!])[0]);
      // Within one interval of the first poll (1 s), with room for a busy machine.
      expect(second!.at - first!.at).toBeLessThan(2_500);
      expect(second!.body.extensions?.gateway?.live?.changed).toEqual([{ action: FINANCIAL, key: 'AAPL' }]);
    }
  });

  it('pushes nothing while the value stands still, though the lookup is polled every interval', {
    timeout: 20_000,
  }, async () => {
    const gw = await opened(inProcessGateway({ ...EVERY_SECOND }));
    const before = sandboxCalls(gw, FINANCIAL);
    const res = await watch(gw, PRICE, { hangUpAfterMs: 3_300 });
    expect(res.payloads).toHaveLength(1);
    expect(prices(res.payloads)).toEqual([228.52]);
    // The first result's call and at least two polls.
    expect(sandboxCalls(gw, FINANCIAL) - before).toBeGreaterThanOrEqual(3);
    // One log line for the live operation at its end.
    await until(() => gw.logs.some((line) => line.includes('live operation ended')));
    const line = JSON.parse(gw.logs.find((l) => l.includes('live operation ended'))!);
    expect(line.live).toMatchObject({ operation: 'Price', pushes: 1, end: 'client-closed' });
    expect(line.live.upstreamCalls).toBeGreaterThanOrEqual(3);
  });
});

describe('@live refusals and ends', () => {
  it('refuses a live query whose client accepts no stream, before any call', async () => {
    const gw = await opened(inProcessGateway({ ...EVERY_SECOND }));
    const before = sandboxCalls(gw);
    const res = await gw.query(PRICE);
    expect(res.status).toBe(406);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('LIVE_DELIVERY_NOT_ACCEPTED');
    expect(sandboxCalls(gw)).toBe(before);
  });

  it('refuses a live query over the per-client bound with LIVE_LIMIT_EXCEEDED, before any call; a leaving one frees its place', {
    timeout: 15_000,
  }, async () => {
    const gw = await opened(inProcessGateway({ ...EVERY_SECOND, LIVE_MAX_PER_CLIENT: '1' }));
    const first = watch(gw, PRICE, { hangUpAfterMs: 1_500 });
    await until(() => gw.gateway.live.open === 1);
    const before = sandboxCalls(gw);
    const other = 'query Other @live { financialProfiles(symbols: ["NKE"]) { price } }';
    const refused = await watch(gw, other);
    expect(refused.status).toBe(429);
    expect(refused.payloads[0]!.body.errors?.[0]?.extensions).toMatchObject({
      code: 'LIVE_LIMIT_EXCEEDED',
      scope: 'client',
      limit: 1,
    });
    expect(sandboxCalls(gw)).toBe(before);
    await first;
    await until(() => gw.gateway.live.open === 0);
    const admitted = await watch(gw, other, { onPayload: () => true });
    expect(admitted.status).toBe(200);
    expect(admitted.payloads[0]!.body.data?.financialProfiles).toHaveLength(1);
  });

  it('ends the stream of a reader that does not read with LIVE_READER_TOO_SLOW once its buffer is full', {
    timeout: 20_000,
  }, async () => {
    const gw = await opened(inProcessGateway({ SANDBOX_MARKET: 'moving', ...EVERY_SECOND }, { live: { buffer: 2 } }));
    const res = await gw.gateway.yoga.fetch('http://gateway/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: PRICE }),
    });
    expect(res.status).toBe(200);
    // Not read: the stream is ended once two results wait for it, and its lookups are released.
    await until(() => gw.gateway.live.open === 0, 10_000);
    const text = await res.text();
    expect(text).toContain('LIVE_READER_TOO_SLOW');
    expect(text).toContain('event: complete');
    expect(gw.logs.some((line) => line.includes('"end":"slow-reader"'))).toBe(true);
  });

  it('ends every stream with a final SHUTTING_DOWN result when the replica shuts down, and refuses new ones', {
    timeout: 15_000,
  }, async () => {
    const gw = await opened(inProcessGateway({ ...EVERY_SECOND }));
    // Shut down once the first result is in: the stream's last result then keeps its data.
    const pending = watch(gw, PRICE, {
      onPayload: (p) => {
        if (p.body.errors === undefined) gw.gateway.live.endAll();
        return undefined;
      },
      hangUpAfterMs: 10_000,
    });
    const res = await pending;
    const last = res.payloads.at(-1)!;
    expect(last.body.errors?.[0]?.extensions?.code).toBe('SHUTTING_DOWN');
    // The last data is kept beside the error.
    expect(prices([last])).toEqual([228.52]);
    const again = await watch(gw, PRICE);
    expect(again.status).toBe(503);
    expect(again.payloads[0]!.body.errors?.[0]?.extensions?.code).toBe('SHUTTING_DOWN');
  });

  it('a watcher whose quota runs out mid-stream gets QUOTA_EXCEEDED and keeps its last data', {
    timeout: 20_000,
  }, async () => {
    const key = 'live-team-key-0123456789';
    const file = join(mkdtempSync(join(tmpdir(), 'lg-live-')), 'keys');
    writeFileSync(file, `${hashApiKey(key)} name=live-team quota=3/day\n`);
    const gw = await opened(
      inProcessGateway({
        SANDBOX_MARKET: 'moving',
        ...EVERY_SECOND,
        GATEWAY_API_KEYS_FILE: file,
        CLIENT_RATE_LIMIT_PER_MINUTE: '0',
        SHED_EVENT_LOOP_DELAY_MS: '0',
      }),
    );
    const res = await watch(gw, PRICE, {
      headers: { 'x-api-key': key },
      onPayload: (p) => p.body.errors !== undefined,
      hangUpAfterMs: 8_000,
    });
    const refusedAt = res.payloads.findIndex((p) => p.body.errors !== undefined);
    expect(refusedAt).toBeGreaterThan(0);
    const refused = res.payloads[refusedAt]!;
    expect(refused.body.errors![0]!.extensions?.code).toBe('QUOTA_EXCEEDED');
    expect(refused.body.data).toEqual(res.payloads[refusedAt - 1]!.body.data);
    // Three calls paid: the first result and two polls; the next poll was refused before it went out.
    expect(sandboxCalls(gw, FINANCIAL)).toBe(3);
  });
});

const redisUp = await requireRedisInCi();

describe.skipIf(!redisUp)('@live across replicas', () => {
  it('500 watchers of one symbol on two replicas sharing Redis: one upstream call per interval; none once all leave', {
    timeout: 60_000,
  }, async () => {
    const up = await startSandboxLikeUpstream();
    try {
      const run = `${process.pid}-${Date.now().toString(36)}`;
      const env = upstreamEnv(up, {
        CACHE_ENABLED: 'true',
        REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}`,
        CACHE_KEY_SECRET: `live-${run}`,
        REDIS_KEY_PREFIX: `lg-test:live:${run}:`,
        REDIS_COMMAND_TIMEOUT_MS: '1000',
        LIVE_MAX_PER_CLIENT: '1000',
        CLIENT_RATE_LIMIT_PER_MINUTE: '0',
        SHED_EVENT_LOOP_DELAY_MS: '0',
        ...EVERY_SECOND,
      });
      const replicas = [await opened(inProcessGateway(env)), await opened(inProcessGateway(env))];
      const controllers: AbortController[] = [];
      let firstResults = 0;
      const streams = Array.from({ length: 500 }, (_, i) => {
        const gw = replicas[i % 2]!;
        const controller = new AbortController();
        controllers.push(controller);
        return Promise.resolve(
          gw.gateway.yoga.fetch('http://gateway/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
            body: JSON.stringify({ query: PRICE }),
            signal: controller.signal,
          }),
        ).then(async (res) => {
          const reader = res.body!.getReader();
          let text = '';
          for (;;) {
            const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
            if (done) return;
            if (!text.includes('event: next')) {
              text += new TextDecoder().decode(value);
              if (text.includes('event: next')) firstResults += 1;
            }
          }
        });
      });
      // Every watcher has its first result (one call for all of them, through the cache and its lease).
      await until(() => firstResults === 500, 20_000);
      expect(replicas.map((gw) => gw.gateway.live.open)).toEqual([250, 250]);
      const financial = () => up.calls.filter((call) => call.action === FINANCIAL).length;
      const start = financial();
      const intervals = 6;
      await sleep(intervals * 1_000);
      const made = financial() - start;
      console.log(`live: ${made} upstream calls in ${intervals} intervals for 500 watchers on 2 replicas`);
      // One call per interval, give or take the call of the interval that began just before the window, and
      // one more on a machine so busy that a replica's lease round trip to Redis missed its deadline (it then
      // polls alone rather than leave its watchers without a value). Unshared, the two replicas would make 12;
      // a poll per watcher, 3,000.
      expect(made).toBeGreaterThanOrEqual(intervals - 1);
      expect(made).toBeLessThanOrEqual(intervals + 2);
      for (const controller of controllers) controller.abort();
      await until(() => replicas.every((gw) => gw.gateway.live.open === 0), 10_000);
      await Promise.allSettled(streams);
      const after = financial();
      await sleep(2_500);
      expect(financial()).toBe(after);
    } finally {
      await up.close();
    }
  });
});
