import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { responseFacts } from '../../src/upstream/client.js';
import { ActionError, parseRetryAfter } from '../../src/kernel/errors.js';
import { CircuitBreaker, verdictFor } from '../../src/upstream/resilience/breaker.js';
import { ConcurrencyLimiter } from '../../src/upstream/resilience/concurrency.js';
import { type OverloadEpisode, OverloadState } from '../../src/upstream/resilience/overload.js';
import { callDeadline } from '../../src/upstream/resilience/deadline.js';
import { RateLimitGate, RateLimitGates } from '../../src/upstream/resilience/rate-limit-gate.js';
import { backoffDelay, RetryBudget, retryDelay, SlidingCount } from '../../src/upstream/resilience/retry.js';

/** Fake timers for each test of the enclosing block, the clock starting at 1,000,000 ms. */
function useFakeClock() {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

const clock = (start = 1_000_000) => {
  const c = { t: start, now: () => c.t };
  return c;
};
const silent = { warn: () => undefined, info: () => undefined };

describe('breaker state machine', () => {
  it('closed → open at the threshold → half-open with one probe → closed on success', () => {
    const c = clock();
    const b = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1000, now: c.now });
    for (let i = 0; i < 2; i += 1) b.record(b.tryAcquire()!, 'failure');
    expect(b.snapshot().state).toBe('closed');
    b.record(b.tryAcquire()!, 'failure');
    expect(b.snapshot()).toEqual({ state: 'open', consecutiveFailures: 3, probeInMs: 1000 });
    expect(b.tryAcquire()).toBeNull();
    c.t += 999;
    expect(b.tryAcquire()).toBeNull();
    c.t += 1;
    const probe = b.tryAcquire();
    expect(probe).toEqual({ probe: true });
    expect(b.tryAcquire()).toBeNull(); // only one probe at a time
    b.record(probe!, 'success');
    expect(b.snapshot()).toEqual({ state: 'closed', consecutiveFailures: 0 });
    expect(b.tryAcquire()).toEqual({ probe: false });
  });

  it('a failed probe re-opens for a full cool-down; a neutral probe frees the slot', () => {
    const c = clock();
    const b = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 100, now: c.now });
    b.record(b.tryAcquire()!, 'failure');
    c.t += 100;
    b.record(b.tryAcquire()!, 'neutral');
    const probe = b.tryAcquire();
    expect(probe?.probe).toBe(true);
    b.record(probe!, 'failure');
    expect(b.snapshot()).toMatchObject({ state: 'open', probeInMs: 100 });
  });

  it('verdicts: outages fail, live answers succeed, rate limits and cancellations are neutral', () => {
    const e = (code: ConstructorParameters<typeof ActionError>[0]) => new ActionError(code, 'x');
    expect(verdictFor(e('UPSTREAM_TIMEOUT'), false)).toBe('failure');
    expect(verdictFor(e('UPSTREAM_UNAVAILABLE'), false)).toBe('failure');
    expect(verdictFor(e('UPSTREAM_UNAVAILABLE'), true)).toBe('neutral');
    expect(verdictFor(e('OVERLOADED'), false)).toBe('neutral'); // shed by the gateway: nothing about the upstream
    for (const code of ['BAD_USER_INPUT', 'NOT_FOUND', 'UNAUTHENTICATED'] as const)
      expect(verdictFor(e(code), false)).toBe('success');
    expect(verdictFor(e('RATE_LIMITED'), false)).toBe('neutral');
    expect(verdictFor(e('UPSTREAM_BAD_RESPONSE'), false)).toBe('neutral');
  });
});

describe('backoff and retry decisions', () => {
  it('backoff doubles per retry and stays within [ceiling/2, ceiling]', () => {
    expect(backoffDelay(1, 100, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, () => 0)).toBe(200);
    expect(backoffDelay(3, 100, () => 1)).toBe(400);
    for (let i = 0; i < 200; i += 1) {
      const d = backoffDelay(2, 100);
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(200);
    }
  });

  it('retries only never-sent requests, 503 and a 429 with retry-after', () => {
    const policy = { maxRetries: 2, baseDelayMs: 100 };
    const half = () => 0.5;
    const unavailable = new ActionError('UPSTREAM_UNAVAILABLE', 'x');
    expect(
      retryDelay(new ActionError('UPSTREAM_UNAVAILABLE', 'x', { neverSent: true }), undefined, 1, policy, half),
    ).toBe(75);
    expect(retryDelay(unavailable, undefined, 1, policy, half)).toBeNull(); // reset after sending
    expect(retryDelay(unavailable, { action: 'a', status: 503 }, 1, policy, half)).toBeNull(); // no sign of when
    expect(retryDelay(unavailable, { action: 'a', status: 503, retryAfter: 0 }, 1, policy, half)).toBe(75);
    expect(retryDelay(unavailable, { action: 'a', status: 503, retryAfter: 2 }, 1, policy, half)).toBe(2000);
    expect(retryDelay(unavailable, { action: 'a', status: 500 }, 1, policy, half)).toBeNull();
    const limited = new ActionError('RATE_LIMITED', 'x', { retryAfter: 1 });
    expect(retryDelay(limited, { action: 'a', status: 429, retryAfter: 1 }, 1, policy, half)).toBe(1055);
    expect(retryDelay(new ActionError('RATE_LIMITED', 'x'), { action: 'a', status: 429 }, 1, policy, half)).toBeNull();
    expect(retryDelay(new ActionError('UPSTREAM_TIMEOUT', 'x'), undefined, 1, policy, half)).toBeNull();
    expect(retryDelay(new Error('x'), undefined, 1, policy, half)).toBeNull();
  });

  it('the retry budget allows max(floor, ratio × calls) retries per sliding window', () => {
    const c = clock();
    const budget = new RetryBudget({ ratio: 0.1, windowMs: 10_000, minPerWindow: 1, now: c.now });
    budget.recordCall();
    expect(budget.tryRetry()).toBe(true); // the floor
    expect(budget.tryRetry()).toBe(false);
    for (let i = 0; i < 29; i += 1) budget.recordCall();
    expect(budget.tryRetry()).toBe(true);
    expect(budget.tryRetry()).toBe(true);
    expect(budget.tryRetry()).toBe(false); // 3 of 30
    c.t += 11_000;
    expect(budget.snapshot()).toMatchObject({ calls: 0, retries: 0 });
  });

  it('a sliding count forgets events older than its window', () => {
    const c = clock(0);
    const count = new SlidingCount(1000, 10, c.now);
    count.add(5);
    c.t = 500;
    count.add(2);
    expect(count.total()).toBe(7);
    c.t = 1050;
    expect(count.total()).toBe(2);
    c.t = 5000;
    expect(count.total()).toBe(0);
  });
});

describe('headers and deadlines', () => {
  it('retry-after: seconds or an HTTP date; anything else ignored', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });

  it('rate-limit headers: reset as seconds from now, as an epoch, or as a date', () => {
    const now = 1_700_000_000_000;
    expect(
      responseFacts('a', 200, { 'ratelimit-limit': '20', 'ratelimit-remaining': '3', 'ratelimit-reset': '15' }, now),
    ).toEqual({
      action: 'a',
      status: 200,
      limit: 20,
      remaining: 3,
      resetAt: now + 15_000,
    });
    expect(responseFacts('a', 200, { 'ratelimit-reset': '1700000100' }, now).resetAt).toBe(1_700_000_100_000);
    expect(responseFacts('a', 200, { 'ratelimit-reset-date': 'Tue, 14 Nov 2023 22:15:00 GMT' }, now).resetAt).toBe(
      Date.parse('2023-11-14T22:15:00Z'),
    );
    expect(responseFacts('a', 429, { 'retry-after': '7', 'ratelimit-remaining': 'lots', 'x-other': 'y' }, now)).toEqual(
      {
        action: 'a',
        status: 429,
        retryAfter: 7,
      },
    );
  });

  it('a call gets min(UPSTREAM_TIMEOUT_MS, what is left of the operation)', () => {
    expect(callDeadline(300, undefined, 1000)).toEqual({ at: 1300, ms: 300 });
    expect(callDeadline(300, 1100, 1000)).toEqual({ at: 1100, ms: 100 });
    expect(callDeadline(300, 5000, 1000)).toEqual({ at: 1300, ms: 300 });
    expect(callDeadline(300, 900, 1000).ms).toBe(0);
  });
});

describe('rate-limit gate', () => {
  it('holds calls from a 429 until its retry-after, from remaining 0 until the reset', () => {
    const c = clock();
    const gate = new RateLimitGate({ log: silent, now: c.now });
    gate.check('a');
    gate.observe({ action: 'a', status: 429, retryAfter: 5 });
    expect(() => gate.check('a')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 5 }));
    c.t += 5000;
    gate.check('a');
    gate.observe({ action: 'a', status: 200, remaining: 0, resetAt: c.t + 2500 });
    expect(() => gate.check('b')).toThrow(
      expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 3, action: 'b' }),
    );
    c.t += 2500;
    gate.check('b');
  });

  it('holds at most maxHoldMs whatever the upstream says (60 s by default), then one probe decides', () => {
    const c = clock();
    expect(() => {
      const byDefault = new RateLimitGate({ log: silent, now: c.now });
      byDefault.observe({ action: 'a', status: 429, retryAfter: 3600 });
      byDefault.check('a');
    }).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 60 }));
    const gate = new RateLimitGate({ log: silent, now: c.now, maxHoldMs: 2000 });
    gate.observe({ action: 'a', status: 429, retryAfter: 3600 });
    expect(() => gate.check('b')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 2 }));
    c.t += 2000;
    // The first call after the hold is the probe; the others are refused while it is out.
    expect(gate.admit('b')).toBe(true);
    expect(() => gate.admit('c')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 1 }));
    expect(gate.status()).toMatchObject({ holding: false, probe: 'in-flight' });
    // Another 429: held again, at most the cap.
    gate.observe({ action: 'b', status: 429, retryAfter: 3600 });
    gate.settle(true);
    expect(() => gate.check('c')).toThrow(expect.objectContaining({ retryAfter: 2 }));
    c.t += 2000;
    // A probe that ends without an answer (cancelled, timed out) lets the next call probe.
    expect(gate.admit('c')).toBe(true);
    gate.settle(true);
    expect(gate.admit('d')).toBe(true);
    // An answer that holds nothing releases the gate: every call goes, none is a probe.
    gate.observe({ action: 'd', status: 200 });
    gate.settle(true);
    expect(gate.admit('e')).toBe(false);
    expect(gate.admit('f')).toBe(false);
    expect(gate.status()).toMatchObject({ holding: false, probe: 'none', level: 'ok' });
  });

  it('a 429 that says the token has calls left holds only the input it answered, at most maxHoldMs', () => {
    const c = clock();
    const gate = new RateLimitGate({ log: silent, now: c.now, maxHoldMs: 2000 });
    gate.observe({ action: 'a', status: 429, retryAfter: 3600, remaining: 15 }, 'poison');
    expect(() => gate.check('a', 'poison')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 2 }));
    gate.check('a', 'other');
    gate.check('b', 'poison');
    expect(gate.status()).toMatchObject({ holding: false, level: 'unknown' });
    c.t += 2000;
    expect(gate.admit('a', 'poison')).toBe(false);
  });

  it('keeps one budget per upstream token', () => {
    const gates = new RateLimitGates({ log: silent });
    gates.forToken('request-token').observe({ action: 'a', status: 429, retryAfter: 60 });
    expect(() => gates.forToken('request-token').check('a')).toThrow();
    gates.forToken(undefined).check('a');
    gates.forToken('another').check('a');
    expect(gates.status()).toMatchObject({ holding: false, requestTokensHolding: 1 });
  });
});

describe('concurrency limiter', () => {
  const later = (ms = 5000) => Date.now() + ms;

  it('grants in FIFO order, sheds beyond the queue with OVERLOADED, and frees a slot exactly once', async () => {
    const limiter = new ConcurrencyLimiter(1, 2);
    const release1 = await limiter.acquire('a', later());
    const order: number[] = [];
    const inOrder = (n: number) => (release: () => void) => {
      order.push(n);
      return release;
    };
    const second = limiter.acquire('a', later()).then(inOrder(2));
    const third = limiter.acquire('a', later()).then(inOrder(3));
    await expect(limiter.acquire('a', later())).rejects.toMatchObject({
      code: 'OVERLOADED',
      shed: 'queue-full',
      retryAfter: 1,
      action: 'a',
    });
    expect({ inFlight: limiter.inFlight, queued: limiter.queued }).toEqual({ inFlight: 1, queued: 2 });
    release1();
    release1();
    const release2 = await second;
    expect({ inFlight: limiter.inFlight, queued: limiter.queued }).toEqual({ inFlight: 1, queued: 1 });
    release2();
    (await third)();
    expect(order).toEqual([2, 3]);
    expect({ inFlight: limiter.inFlight, queued: limiter.queued }).toEqual({ inFlight: 0, queued: 0 });
  });

  it('a queued call is shed when its start-by time comes, and leaves with its signal', async () => {
    const limiter = new ConcurrencyLimiter(1, 5);
    await limiter.acquire('a', later());
    await expect(limiter.acquire('a', later(30))).rejects.toMatchObject({
      code: 'OVERLOADED',
      shed: 'wait-expired',
      retryAfter: 1,
    });
    // No time left to wait at all: refused at once.
    await expect(limiter.acquire('a', Date.now())).rejects.toMatchObject({
      code: 'OVERLOADED',
      shed: 'no-slot-in-time',
    });
    const controller = new AbortController();
    const waiting = limiter.acquire('a', later(), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'CLIENT_CLOSED', message: expect.stringMatching(/cancelled/) });
    expect(limiter.queued).toBe(0);
  });

  describe('with the pace of recent calls', () => {
    useFakeClock();

    /** A limiter whose calls have held their slot `holdMs` each. */
    async function paced(
      maxInFlight: number,
      holdMs: number,
      limits: ConstructorParameters<typeof ConcurrencyLimiter>[2] = {},
    ) {
      const limiter = new ConcurrencyLimiter(maxInFlight, 100, limits);
      const releases = await Promise.all(
        Array.from({ length: maxInFlight }, () => limiter.acquire('a', Date.now() + 10_000)),
      );
      vi.advanceTimersByTime(holdMs);
      for (const release of releases) release();
      return limiter;
    }

    it('refuses at once a call that the calls ahead of it would hold past its start-by time', async () => {
      const limiter = await paced(1, 200);
      await limiter.acquire('a', Date.now() + 10_000); // the one slot, busy
      // One call ahead of nobody waits ~200 ms: too long for 100 ms, fine for 500 ms.
      await expect(limiter.acquire('a', Date.now() + 100)).rejects.toMatchObject({
        code: 'OVERLOADED',
        shed: 'no-slot-in-time',
        retryAfter: 1,
      });
      const waiting = [limiter.acquire('a', Date.now() + 500), limiter.acquire('a', Date.now() + 500)];
      // A third would wait ~600 ms behind those two.
      await expect(limiter.acquire('a', Date.now() + 500)).rejects.toMatchObject({
        code: 'OVERLOADED',
        shed: 'no-slot-in-time',
      });
      expect(limiter.queued).toBe(2);
      for (const w of waiting) w.catch(() => undefined);
    });

    it('counts the other clients only as far as the round robin puts them ahead', async () => {
      const limiter = await paced(1, 100);
      await limiter.acquire('a', Date.now() + 10_000, undefined, 'A');
      const heavy = Array.from({ length: 8 }, () => limiter.acquire('a', Date.now() + 5_000, undefined, 'A'));
      for (const w of heavy) w.catch(() => undefined);
      // B's first call goes after at most one of A's eight: ~200 ms, within 300 ms.
      const light = limiter.acquire('a', Date.now() + 300, undefined, 'B');
      light.catch(() => undefined);
      expect(limiter.queued).toBe(9);
      // A's ninth would wait behind its own eight and B's one: ~1 s, past 300 ms.
      await expect(limiter.acquire('a', Date.now() + 300, undefined, 'A')).rejects.toMatchObject({
        code: 'OVERLOADED',
      });
    });

    it("is RATE_LIMITED when it is the client's own in-flight share that holds it, and says when to retry", async () => {
      const limiter = await paced(4, 1500, { maxInFlightPerClient: 1 });
      await limiter.acquire('a', Date.now() + 10_000, undefined, 'A');
      await expect(limiter.acquire('a', Date.now() + 1000, undefined, 'A')).rejects.toMatchObject({
        code: 'RATE_LIMITED',
        shed: 'client-share',
        retryAfter: 2,
      });
      // Another client is not held by A's share.
      await limiter.acquire('a', Date.now() + 1000, undefined, 'B');
    });

    it('sheds a wait that outlasts its start-by time although predicted to fit', async () => {
      const limiter = await paced(1, 100);
      await limiter.acquire('a', Date.now() + 10_000); // held far longer than the pace says
      const waiting = limiter.acquire('a', Date.now() + 400);
      const outcome = expect(waiting).rejects.toMatchObject({ code: 'OVERLOADED', shed: 'wait-expired' });
      await vi.advanceTimersByTimeAsync(400);
      await outcome;
      expect(limiter.queued).toBe(0);
    });
  });
});

describe('overload state', () => {
  useFakeClock();

  it('turns on with the first lookup shed for load and off only after a quiet spell; a client held to its share does not count', () => {
    const changes: Array<OverloadEpisode | undefined> = [];
    const state = new OverloadState((ended) => changes.push(ended), 5000);
    state.shed('client-share');
    expect(state.status()).toEqual({ overloaded: false, since: null });
    state.shed('no-slot-in-time');
    expect(state.status()).toEqual({ overloaded: true, since: new Date(1_000_000).toISOString() });
    vi.advanceTimersByTime(4000);
    state.shed('queue-full');
    vi.advanceTimersByTime(4000); // 8 s after the first, 4 s after the last: still on
    expect(state.status().overloaded).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(state.status()).toEqual({ overloaded: false, since: null });
    expect(changes).toEqual([undefined, { durationMs: 9000, shed: 2 }]);
    state.close();
  });
});
