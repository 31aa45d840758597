import { describe, expect, it } from 'vitest';
import { Breakers, type BreakerCall } from '../../src/upstream/resilience/breaker.js';
import { ConcurrencyLimiter } from '../../src/upstream/resilience/concurrency.js';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { ActionError } from '../../src/kernel/errors.js';

const deadline = () => Date.now() + 60_000;
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('ConcurrencyLimiter: fair shares', () => {
  it('hands freed slots to the waiting clients in turn, not in arrival order', async () => {
    const limiter = new ConcurrencyLimiter(1, 100);
    const order: string[] = [];
    const first = await limiter.acquire('a', deadline(), undefined, 'A');
    const waits = [
      ...['A1', 'A2', 'A3'].map((n) =>
        limiter.acquire('a', deadline(), undefined, 'A').then((release) => ({ n, release })),
      ),
      ...['B1', 'B2'].map((n) => limiter.acquire('a', deadline(), undefined, 'B').then((release) => ({ n, release }))),
    ];
    waits.forEach(
      (w) =>
        void w.then(({ n, release }) => {
          order.push(n);
          setImmediate(release);
        }),
    );
    first();
    await Promise.all(waits);
    await flush();
    expect(order).toEqual(['A1', 'B1', 'A2', 'B2', 'A3']);
    expect(limiter.inFlight).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it('caps one client in flight and in all, and leaves the rest to the others', async () => {
    const limiter = new ConcurrencyLimiter(4, 100, { maxInFlightPerClient: 2, maxPerClient: 3 });
    const a1 = await limiter.acquire('x', deadline(), undefined, 'A');
    await limiter.acquire('x', deadline(), undefined, 'A');
    let a3Granted = false;
    void limiter.acquire('x', deadline(), undefined, 'A').then(() => (a3Granted = true));
    await flush();
    expect(a3Granted).toBe(false); // A is at its in-flight share: it waits although slots are free
    await expect(limiter.acquire('x', deadline(), undefined, 'A')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: 1,
      shed: 'client-share',
    });
    // B gets the free slots at once.
    await limiter.acquire('x', deadline(), undefined, 'B');
    await limiter.acquire('x', deadline(), undefined, 'B');
    a1();
    await flush();
    expect(a3Granted).toBe(true);
  });

  it('keeps each action within its bulkhead while other actions still run', async () => {
    const limiter = new ConcurrencyLimiter(4, 100, { maxPerAction: 2 });
    const slow1 = await limiter.acquire('slow', deadline());
    await limiter.acquire('slow', deadline());
    let third = false;
    void limiter.acquire('slow', deadline()).then(() => (third = true));
    await flush();
    expect(third).toBe(false);
    await limiter.acquire('fast', deadline()); // not behind the slow action's queue
    slow1();
    await flush();
    expect(third).toBe(true);
  });
});

describe('the default bulkhead', () => {
  it('lets one action alone hold 12 of the 16 slots (60 lookups a second at 200 ms), as docs/operations.md says', async () => {
    const { maxInFlight, maxInFlightPerAction } = loadConfig({}).resilience;
    const limiter = new ConcurrencyLimiter(maxInFlight, 100, { maxPerAction: maxInFlightPerAction });
    let granted = 0;
    for (let i = 0; i < maxInFlight + 4; i += 1)
      void limiter.acquire('busy', deadline(), undefined, `client-${i}`).then(
        () => (granted += 1),
        () => undefined,
      );
    await flush();
    expect(granted).toBe(12);
    // The other actions still have the rest of the replica's slots.
    for (let i = 0; i < 5; i += 1)
      void limiter.acquire('other', deadline(), undefined, `other-${i}`).then(
        () => (granted += 1),
        () => undefined,
      );
    await flush();
    expect(granted).toBe(16);
    const page = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain(`${maxInFlight} slots at 200 ms serve ${maxInFlight * 5} uncached lookups a second`);
    expect(page).toContain(
      `one action alone holds at most three quarters of them, ${maxInFlightPerAction} (${maxInFlightPerAction * 5} a second)`,
    );
  });
});

describe('Breakers: one client cannot trip them for everyone', () => {
  const options = { failureThreshold: 3, cooldownMs: 1000, failedInputTtlMs: 5000 };
  const call = (client: string, input: string): BreakerCall => ({ action: 'a', input, client, clientToken: false });
  const fail = (b: Breakers, c: BreakerCall, error = new ActionError('UPSTREAM_UNAVAILABLE', 'down')) =>
    b.record(c, b.acquire(c), 'failure', error);

  it('counts one input once, however often it fails', () => {
    const breakers = new Breakers(options);
    for (let i = 0; i < 10; i += 1) fail(breakers, call('A', 'same'));
    expect(breakers.snapshot().a).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
  });

  it("opens only the failing client's own breaker while another client is calling", () => {
    const breakers = new Breakers(options);
    breakers.record(call('B', 'ok'), breakers.acquire(call('B', 'ok')), 'success');
    for (let i = 0; i < 3; i += 1) fail(breakers, call('A', `bad-${i}`));
    expect(() => breakers.acquire(call('A', 'other'))).toThrow(/failing for this client/);
    expect(() => breakers.acquire(call('B', 'fine'))).not.toThrow();
    expect(breakers.snapshot().a).toMatchObject({ state: 'closed', clientsOpen: 1 });
  });

  it('opens the shared breaker when several clients see every input fail', () => {
    const breakers = new Breakers(options);
    ['A', 'B', 'A'].forEach((client, i) => {
      fail(breakers, call(client, `in-${i}`));
    });
    expect(() => breakers.acquire(call('C', 'new'))).toThrow(/not calling it for now/);
  });

  it('remembers an input that timed out twice and fails it fast', () => {
    const breakers = new Breakers(options);
    const timeout = new ActionError('UPSTREAM_TIMEOUT', 'slow');
    fail(breakers, call('A', 'hang'), timeout);
    expect(() => breakers.acquire(call('B', 'hang'))).not.toThrow();
    fail(breakers, call('A', 'hang'), timeout);
    expect(() => breakers.acquire(call('B', 'hang'))).toThrow(/failed for this input moments ago/);
  });
});
