import { describe, expect, it } from 'vitest';
import { abortableQuery, codeOf, domain, domainQuery, healthz, json, ok, rig, sleep, timed, until } from './support.js';

describe('concurrency bound', () => {
  it('a burst: at most UPSTREAM_MAX_IN_FLIGHT at the upstream, the queue waits, the excess is shed at once', async () => {
    // One client here: its share is the whole bound (the fair shares have tests of their own).
    // The upstream holds its answers until the excess has failed (10 s at most): had the excess waited
    // for a slot instead of failing fast, it would fail only after answers (no race with the clock).
    const answeredWhenFailed: number[] = [];
    const r = await rig(
      { UPSTREAM_MAX_IN_FLIGHT: '2', UPSTREAM_TIMEOUT_MS: '20000' },
      async (call, _req, res) => {
        await until(() => answeredWhenFailed.length >= 4, 10_000).catch(() => undefined);
        ok(call, res);
      },
      { maxInFlightPerClient: 2, maxQueued: 2 },
    );
    const burst = Array.from({ length: 8 }, () =>
      timed(() => r.gw.query(domainQuery())).then((res) => {
        if (res.body.errors) answeredWhenFailed.push(r.load.answered);
        return res;
      }),
    );
    await until(() => r.load.now === 2 && r.gw.gateway.upstreamStatus().queued === 2);
    expect(r.gw.gateway.upstreamStatus()).toMatchObject({ inFlight: 2, queued: 2 });
    const results = await Promise.all(burst);
    const failed = results.filter((res) => res.body.errors);
    const succeeded = results.filter((res) => !res.body.errors);
    expect(succeeded).toHaveLength(4); // two in flight, then the two queued
    expect(failed).toHaveLength(4);
    for (const res of failed) {
      // Shed by the gateway, not an upstream failure: 503 with Retry-After, and a code that says so.
      expect(codeOf(res)).toMatchObject({ code: 'OVERLOADED', action: 'domain_info', retryAfter: 1 });
      expect(res.body.errors![0]!.message).toMatch(
        /queue is full \(2 upstream calls in flight, 2 waiting, at most 2 and 2\)/,
      );
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
    }
    // The excess failed while the first calls were still at the upstream: it did not wait.
    expect(answeredWhenFailed.every((answered) => answered === 0)).toBe(true);
    expect(r.load.peak).toBe(2);
    expect(r.domainCalls()).toBe(4);
    expect(r.gw.gateway.upstreamStatus()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  it('a request that goes away while queued leaves the queue without an upstream call', async () => {
    const r = await rig(
      { UPSTREAM_MAX_IN_FLIGHT: '1', UPSTREAM_TIMEOUT_MS: '3000' },
      (call, _req, res) => {
        setTimeout(() => ok(call, res), 400);
      },
      { maxQueued: 5 },
    );
    const first = r.gw.query(domainQuery());
    await until(() => r.load.now === 1);
    const second = abortableQuery(r.gw);
    await until(() => r.gw.gateway.upstreamStatus().queued === 1);
    second.abort();
    await second.response;
    await until(() => r.gw.gateway.upstreamStatus().queued === 0, 1000);
    expect((await first).body.errors).toBeUndefined();
    await sleep(50);
    expect(r.domainCalls()).toBe(1);
  });
});

const fail500 = (_call: unknown, _req: unknown, res: Parameters<typeof json>[0]) =>
  json(res, 500, { status: 500, response: null, error: 'down' });

describe('circuit breaker per action', () => {
  const env = { UPSTREAM_BREAKER_FAILURES: '3' };
  const quick = { breakerCooldownMs: 400, maxRetries: 0 };

  it('opens after N failures: then calls fail fast without the upstream, other actions unaffected', async () => {
    const r = await rig(
      env,
      (call, req, res) => (call.action === 'domain_info' ? fail500(call, req, res) : ok(call, res)),
      quick,
    );
    for (let i = 0; i < 3; i += 1)
      expect(codeOf(await r.gw.query(domainQuery()))).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(3);
    const open = await timed(() =>
      r.gw.query(`{ domainInfo(domain: "${domain()}") { domainName } crmOwners(portal: "9") { id: ownerId } }`),
    );
    expect(open.body.data).toEqual({ domainInfo: null, crmOwners: [{ id: '7' }] });
    expect(codeOf(open)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', action: 'domain_info' });
    expect(open.body.errors![0]!.message).toMatch(/not calling it for now/);
    expect(r.domainCalls()).toBe(3);
    console.info(`[timing] breaker open: failed fast in ${open.ms.toFixed(1)} ms (with a sibling lookup resolving)`);
    const breakers = (await healthz(r.gw)).upstream.breakers;
    expect(breakers.domain_info).toMatchObject({ state: 'open', consecutiveFailures: 3 });
    expect(breakers.get_crm_owners).toMatchObject({ state: 'closed' });
  });

  it('half-open after the cool-down: exactly one probe; its success closes the breaker', async () => {
    const r = await rig({ ...env, UPSTREAM_TIMEOUT_MS: '3000' }, fail500, quick);
    for (let i = 0; i < 3; i += 1) await r.gw.query(domainQuery());
    expect((await healthz(r.gw)).upstream.breakers.domain_info.state).toBe('open');
    await sleep(450);
    expect((await healthz(r.gw)).upstream.breakers.domain_info.state).toBe('half-open');
    // The probe is held long enough that the other two surely arrive while it is in flight.
    r.handle((call, _req, res) => setTimeout(() => ok(call, res), 1000));
    const before = r.domainCalls();
    const started = performance.now();
    const probes = await Promise.all([0, 1, 2].map(() => r.gw.query(domainQuery())));
    expect(r.domainCalls() - before).toBe(1); // one probe only
    expect(probes.filter((res) => !res.body.errors)).toHaveLength(1);
    expect(probes.filter((res) => codeOf(res)?.code === 'UPSTREAM_UNAVAILABLE')).toHaveLength(2);
    console.info(
      `[timing] half-open probe round: ${(performance.now() - started).toFixed(0)} ms (probe held 1000 ms by the upstream)`,
    );
    expect((await healthz(r.gw)).upstream.breakers.domain_info).toMatchObject({
      state: 'closed',
      consecutiveFailures: 0,
    });
    const closed = await Promise.all([0, 1].map(() => r.gw.query(domainQuery())));
    expect(closed.every((res) => !res.body.errors)).toBe(true);
    expect(r.domainCalls() - before).toBe(3);
  });

  it('a failed probe opens it again for another cool-down', async () => {
    const r = await rig(env, fail500, quick);
    for (let i = 0; i < 3; i += 1) await r.gw.query(domainQuery());
    await sleep(450);
    expect(codeOf(await r.gw.query(domainQuery()))).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(4);
    const again = await timed(() => r.gw.query(domainQuery()));
    expect(codeOf(again)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(4);
    expect((await healthz(r.gw)).upstream.breakers.domain_info.state).toBe('open');
  });

  it('timeouts open it too', async () => {
    const r = await rig({ ...env, UPSTREAM_TIMEOUT_MS: '100' }, () => undefined, quick);
    for (let i = 0; i < 3; i += 1)
      expect(codeOf(await r.gw.query(domainQuery()))).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    const fast = await timed(() => r.gw.query(domainQuery()));
    expect(codeOf(fast)).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(r.domainCalls()).toBe(3); // failed fast: no call was made (a wait would have ended in UPSTREAM_TIMEOUT)
  });

  it.each([
    ['400 bad input', 400, 'Invalid domain parameter.', 'BAD_USER_INPUT'],
    ['400 not found', 400, "The requested page doesn't exist", 'NOT_FOUND'],
    ['404', 404, 'Not found', 'NOT_FOUND'],
    ['401', 401, 'Unauthorized', 'UNAUTHENTICATED'],
    ['403', 403, 'Invalid token', 'UNAUTHENTICATED'],
  ])('%s does not open it', async (_name, status, error, code) => {
    const r = await rig(env, (_call, _req, res) => json(res, status, { status, response: null, error }), quick);
    for (let i = 0; i < 6; i += 1) expect(codeOf(await r.gw.query(domainQuery()))).toMatchObject({ code });
    expect(r.domainCalls()).toBe(6);
    expect((await healthz(r.gw)).upstream.breakers.domain_info).toMatchObject({
      state: 'closed',
      consecutiveFailures: 0,
    });
  });

  it('time spent queueing for a slot is no upstream timeout: a healthy but slow upstream never opens it', async () => {
    // Two slots, an upstream that answers in 500 ms, a 1200 ms deadline and a long queue: the third pair
    // of lookups gets its slots at 1000 ms and runs out of time 200 ms later, the upstream never late.
    const r = await rig(
      {
        ...env,
        UPSTREAM_BREAKER_FAILURES: '2',
        UPSTREAM_TIMEOUT_MS: '1200',
        UPSTREAM_MAX_IN_FLIGHT: '2',
      },
      (call, _req, res) => setTimeout(() => ok(call, res), 500),
      { ...quick, maxInFlightPerClient: 2, queueTimeoutMs: 5000 },
    );
    const results = await Promise.all(Array.from({ length: 6 }, () => r.gw.query(domainQuery())));
    const timedOut = results.filter((res) => codeOf(res)?.code === 'UPSTREAM_TIMEOUT');
    expect(timedOut.length).toBeGreaterThanOrEqual(2);
    expect((await healthz(r.gw)).upstream.breakers.domain_info).toMatchObject({
      state: 'closed',
      consecutiveFailures: 0,
    });
    for (const res of timedOut)
      expect(res.body.errors![0]!.message).toMatch(/ms went waiting for a free upstream slot/);
    // Still calling: the next lookup goes up and is answered.
    const before = r.domainCalls();
    expect((await r.gw.query(domainQuery())).body.errors).toBeUndefined();
    expect(r.domainCalls()).toBe(before + 1);
  });

  it('an answer that shows the upstream alive resets the run of failures', async () => {
    let n = 0;
    const r = await rig(
      env,
      (call, req, res) => (++n % 3 === 0 ? json(res, 404, { status: 404, response: null }) : fail500(call, req, res)),
      quick,
    );
    for (let i = 0; i < 9; i += 1) await r.gw.query(domainQuery());
    expect(r.domainCalls()).toBe(9); // never three failures in a row
    expect((await healthz(r.gw)).upstream.breakers.domain_info.state).toBe('closed');
  });
});
