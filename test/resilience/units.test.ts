import { describe, expect, it } from 'vitest';
import { responseFacts } from '../../src/upstream/client.js';
import { ActionError, parseRetryAfter } from '../../src/kernel/errors.js';
import { CircuitBreaker, verdictFor } from '../../src/upstream/resilience/breaker.js';
import { ConcurrencyLimiter } from '../../src/upstream/resilience/concurrency.js';
import { callDeadline } from '../../src/upstream/resilience/deadline.js';
import { RateLimitGate, RateLimitGates } from '../../src/upstream/resilience/rate-limit-gate.js';
import { backoffDelay, RetryBudget, retryDelay, SlidingCount } from '../../src/upstream/resilience/retry.js';

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
    for (const code of ['BAD_USER_INPUT', 'NOT_FOUND', 'UNAUTHENTICATED'] as const) expect(verdictFor(e(code), false)).toBe('success');
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
    expect(retryDelay(new ActionError('UPSTREAM_UNAVAILABLE', 'x', { neverSent: true }), undefined, 1, policy, half)).toBe(75);
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
    expect(responseFacts('a', 200, { 'ratelimit-limit': '20', 'ratelimit-remaining': '3', 'ratelimit-reset': '15' }, now)).toEqual({
      action: 'a',
      status: 200,
      limit: 20,
      remaining: 3,
      resetAt: now + 15_000,
    });
    expect(responseFacts('a', 200, { 'ratelimit-reset': '1700000100' }, now).resetAt).toBe(1_700_000_100_000);
    expect(responseFacts('a', 200, { 'ratelimit-reset-date': 'Tue, 14 Nov 2023 22:15:00 GMT' }, now).resetAt).toBe(Date.parse('2023-11-14T22:15:00Z'));
    expect(responseFacts('a', 429, { 'retry-after': '7', 'ratelimit-remaining': 'lots', 'x-other': 'y' }, now)).toEqual({
      action: 'a',
      status: 429,
      retryAfter: 7,
    });
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
    expect(() => gate.check('b')).toThrow(expect.objectContaining({ code: 'RATE_LIMITED', retryAfter: 3, action: 'b' }));
    c.t += 2500;
    gate.check('b');
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
  it('grants in FIFO order, rejects beyond the queue, and frees a slot exactly once', async () => {
    const limiter = new ConcurrencyLimiter(1, 2);
    const deadline = { at: Date.now() + 5000, ms: 5000 };
    const release1 = await limiter.acquire('a', deadline);
    const order: number[] = [];
    const inOrder = (n: number) => (release: () => void) => {
      order.push(n);
      return release;
    };
    const second = limiter.acquire('a', deadline).then(inOrder(2));
    const third = limiter.acquire('a', deadline).then(inOrder(3));
    await expect(limiter.acquire('a', deadline)).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
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

  it('a queued call leaves on its deadline or its signal', async () => {
    const limiter = new ConcurrencyLimiter(1, 5);
    await limiter.acquire('a', { at: Date.now() + 5000, ms: 5000 });
    await expect(limiter.acquire('a', { at: Date.now() + 30, ms: 30 })).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    const controller = new AbortController();
    const waiting = limiter.acquire('a', { at: Date.now() + 5000, ms: 5000 }, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: expect.stringMatching(/cancelled/) });
    expect(limiter.queued).toBe(0);
  });
});
