import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../support/gateway.js';
import {
  codeOf,
  domainQuery,
  expectNoSecrets,
  FAULT_TOKEN,
  healthz,
  json,
  ok,
  resettingFront,
  rig,
  sleep,
  type Rig,
} from './support.js';

const retryLines = (rig: Rig) => rig.gw.logs.filter((line) => line.includes('"msg":"retrying upstream call"'));

describe('retries: only where the request provably never ran, or the upstream asked for it', () => {
  it('503 then 200: retried once, one success', async () => {
    let n = 0;
    const r = await rig({}, (call, _req, res) =>
      ++n === 1 ? res.writeHead(503, { 'retry-after': '0' }).end() : ok(call, res),
    );
    const res = await r.gw.query(domainQuery('retry.example.com'));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'retry.example.com' } });
    expect(r.domainCalls()).toBe(2);
    expect(retryLines(r)).toHaveLength(1);
  });

  it('503 whose retry-after does not fit in the deadline: not retried', async () => {
    const r = await rig({}, (_call, _req, res) =>
      json(res, 503, { status: 503, response: null, error: 'Maintenance' }, { 'retry-after': '5' }),
    );
    const res = await r.gw.query(domainQuery());
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', action: 'domain_info' });
    expect(r.domainCalls()).toBe(1);
    expect(retryLines(r)).toHaveLength(0); // no wait for a retry that could not be made in time
  });

  it('503 without retry-after: not retried (no sign of when the upstream is back)', async () => {
    const r = await rig({}, (_call, _req, res) => res.writeHead(503).end());
    const res = await r.gw.query(domainQuery());
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(1);
  });

  it('503 with retry-after every time: at most MAX_RETRIES (2) retries', async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '2000' }, (_call, _req, res) =>
      res.writeHead(503, { 'retry-after': '0' }).end(),
    );
    const res = await r.gw.query(domainQuery());
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(3);
    expect(retryLines(r)).toHaveLength(2);
  });

  it('a connection reset before the request was written is retried, and the retry succeeds', async () => {
    const up = await import('../support/fault-upstream.js').then((m) => m.startFaultUpstream());
    up.handle((call, _req, res) => ok(call, res));
    const front = await resettingFront(up.url, 1);
    const gw = await startGateway(
      { ACTION_BASE_URL: front.url, ACTION_TOKEN: up.token, UPSTREAM_TIMEOUT_MS: '1000' },
      0,
      {
        resilience: { retryBackoffMs: 20 },
      },
    );
    try {
      const res = await gw.query(domainQuery('reset.example.com'));
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data).toEqual({ domainInfo: { domainName: 'reset.example.com' } });
      expect(front.connections).toBe(2); // the reset one, then the retry
      expect(up.calls).toHaveLength(1); // the reset request never reached the upstream
      expect(gw.logs.filter((line) => line.includes('retrying upstream call'))).toHaveLength(1);
      expectNoSecrets(gw, res.text);
    } finally {
      await gw.close();
      await front.close();
      await up.close();
    }
  });

  it('connection refused is retried (bounded), then UPSTREAM_UNAVAILABLE', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gw = await startGateway(
      { ACTION_BASE_URL: `http://127.0.0.1:${port}`, ACTION_TOKEN: FAULT_TOKEN, UPSTREAM_TIMEOUT_MS: '1000' },
      0,
      {
        resilience: { retryBackoffMs: 20, maxRetries: 2 },
      },
    );
    try {
      const res = await gw.query(domainQuery());
      expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', action: 'domain_info' });
      expect(gw.logs.filter((line) => line.includes('"msg":"upstream call failed"'))).toHaveLength(3);
      expect(gw.logs.filter((line) => line.includes('retrying upstream call'))).toHaveLength(2);
      expectNoSecrets(gw, res.text);
    } finally {
      await gw.close();
    }
  });

  it('a connection reset after the request was written is NOT retried: one call, UPSTREAM_UNAVAILABLE', async () => {
    const r = await rig({}, (_call, req) => req.socket.destroy());
    const res = await r.gw.query(domainQuery());
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', action: 'domain_info' });
    expect(r.domainCalls()).toBe(1);
    expect(retryLines(r)).toHaveLength(0);
  });

  it('a 500 is NOT retried (the request ran upstream and may have been charged)', async () => {
    const r = await rig({}, (_call, _req, res) => json(res, 500, { status: 500, response: null, error: 'boom' }));
    const res = await r.gw.query(domainQuery());
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(1);
  });

  it('the retry budget: many failing calls retry at most the configured fraction', async () => {
    const r = await rig(
      { UPSTREAM_BREAKER_FAILURES: '1000' },
      (_call, _req, res) => res.writeHead(503, { 'retry-after': '0' }).end(),
      {
        retryBudgetPercent: 10,
        retryBudgetMin: 0,
        maxRetries: 3,
      },
    );
    const queries = 40;
    for (let i = 0; i < queries; i += 1) {
      const res = await r.gw.query(domainQuery());
      expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    }
    const retries = r.domainCalls() - queries;
    expect(retries).toBeGreaterThan(0); // the budget does allow some
    expect(retries).toBeLessThanOrEqual(queries * 0.1);
    expect(retryLines(r)).toHaveLength(retries);
    expect(r.gw.logs.some((line) => line.includes('retry budget spent'))).toBe(true);
    expect((await healthz(r.gw)).upstream.retries).toMatchObject({ calls: queries, retries });
  });
});

describe('rate limits: the upstream budget is respected without touching it', () => {
  it('429 with a short retry-after: retried once, within the deadline', async () => {
    const arrivals: number[] = [];
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '3000' }, (call, _req, res) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1)
        json(res, 429, { status: 429, response: null, error: 'Too many requests' }, { 'retry-after': '1' });
      else ok(call, res);
    });
    const res = await r.gw.query(domainQuery('later.example.com'));
    expect(res.body.errors).toBeUndefined(); // answered, so within the 3 s deadline
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'later.example.com' } });
    expect(r.domainCalls()).toBe(2);
    // The wait is the behaviour: the retry came no sooner than retry-after said (a lower bound cannot flake).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('429 with a long retry-after: RATE_LIMITED with retryAfter, and the next call fails at once without an upstream call', async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '1000' }, (_call, _req, res) =>
      json(res, 429, { status: 429, response: null, error: 'Too many requests' }, { 'retry-after': '30' }),
    );
    const first = await r.gw.query(domainQuery());
    expect(codeOf(first)).toMatchObject({ code: 'RATE_LIMITED', action: 'domain_info', retryAfter: 30 });
    expect(r.domainCalls()).toBe(1);
    const next = await r.gw.query(
      `{ domainInfo(domain: "a.example.com") { domainName } crmOwners(portal: "1") { id: ownerId } }`,
    );
    expect(next.body.data).toEqual({ domainInfo: null, crmOwners: null });
    expect(codeOf(next)).toMatchObject({ code: 'RATE_LIMITED', action: 'domain_info' });
    expect(codeOf(next, 'crmOwners')).toMatchObject({ code: 'RATE_LIMITED', action: 'get_crm_owners' });
    expect(codeOf(next)!.retryAfter).toBeGreaterThanOrEqual(28);
    expect(codeOf(next)!.retryAfter).toBeLessThanOrEqual(30);
    expect(r.up.calls).toHaveLength(1); // refused without a call (a wait for the 30 s would end in UPSTREAM_TIMEOUT)
    expect(r.gw.logs.some((line) => line.includes('upstream rate limit spent'))).toBe(true);
    expect((await healthz(r.gw)).upstream.rateLimit).toMatchObject({ level: 'out', holding: true });
  });

  it('ratelimit-remaining: 0 with ratelimit-reset: holds calls until the reset, then lets them through', async () => {
    let n = 0;
    const r = await rig({}, (call, _req, res) =>
      ok(
        call,
        res,
        ++n === 1
          ? { 'ratelimit-limit': '20', 'ratelimit-remaining': '0', 'ratelimit-reset': '3' }
          : { 'ratelimit-limit': '20', 'ratelimit-remaining': '19', 'ratelimit-reset': '60' },
      ),
    );
    const first = await r.gw.query(domainQuery());
    expect(first.body.errors).toBeUndefined();
    const held = await r.gw.query(domainQuery());
    expect(codeOf(held)).toMatchObject({ code: 'RATE_LIMITED', action: 'domain_info' });
    expect(codeOf(held)!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(codeOf(held)!.retryAfter).toBeLessThanOrEqual(3);
    expect(r.domainCalls()).toBe(1); // refused without a call (FAST's 300 ms call deadline is far below the 3 s reset)
    const status = (await healthz(r.gw)).upstream.rateLimit;
    expect(status).toMatchObject({ limit: 20, remaining: 0, holding: true, level: 'out' });
    expect(Date.parse(status.resetAt)).toBeGreaterThan(Date.now());
    await sleep(3100);
    const after = await r.gw.query(domainQuery());
    expect(after.body.errors).toBeUndefined();
    expect(r.domainCalls()).toBe(2);
    expect((await healthz(r.gw)).upstream.rateLimit).toMatchObject({ remaining: 19, holding: false, level: 'ok' });
    expect(r.gw.logs.some((line) => line.includes('upstream rate limit recovered'))).toBe(true);
  });

  it('a budget running low is logged and shown in /healthz', async () => {
    const r = await rig({}, (call, _req, res) =>
      ok(call, res, { 'ratelimit-limit': '20', 'ratelimit-remaining': '2', 'ratelimit-reset': '40' }),
    );
    const res = await r.gw.query(domainQuery());
    expect(res.body.errors).toBeUndefined();
    const low = r.gw.logs.filter((line) => line.includes('upstream rate limit running low'));
    expect(low).toHaveLength(1);
    expect(JSON.parse(low[0]!).upstreamRateLimit).toMatchObject({ limit: 20, remaining: 2, budget: 'ACTION_TOKEN' });
    expect((await healthz(r.gw)).upstream.rateLimit).toMatchObject({
      limit: 20,
      remaining: 2,
      level: 'low',
      holding: false,
    });
    // A low budget still lets calls through.
    expect((await r.gw.query(domainQuery())).body.errors).toBeUndefined();
    expect(r.domainCalls()).toBe(2);
  });
});
