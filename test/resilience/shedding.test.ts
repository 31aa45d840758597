import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, domain, domainQuery, healthz, ok, rig, until } from './support.js';

/**
 * Lookups the gateway sheds for load, seen over real HTTP: their code, their HTTP answer, and what
 * they leave untouched (the breakers, the cache, the upstream).
 */

let r: Awaited<ReturnType<typeof rig>> | undefined;
afterEach(async () => {
  release();
  await r?.close();
  r = undefined;
});

let held: Array<() => void> = [];
/** Answers every call held so far. */
function release() {
  for (const answer of held) answer();
  held = [];
}
/** An upstream that holds each domain_info answer until the test releases it. */
const holding = (call: Parameters<typeof ok>[0], _req: unknown, res: Parameters<typeof ok>[1]) => {
  if (call.action === 'domain_info') held.push(() => ok(call, res));
  else ok(call, res);
};

async function metric(url: string, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('shedding load', () => {
  // One upstream slot and no queue: whatever comes while the slot is taken is shed at once.
  const oneSlot = { UPSTREAM_MAX_IN_FLIGHT: '1', UPSTREAM_TIMEOUT_MS: '20000' };
  const noQueue = { maxQueued: 0 };

  it('an operation whose every lookup is shed is HTTP 503 with Retry-After and OVERLOADED, and nothing is called', async () => {
    const r = await rig(oneSlot, holding, noQueue);
    const first = r.gw.query(domainQuery());
    await until(() => held.length === 1);
    const shed = await r.gw.query(
      `{ a: domainInfo(domain: "${domain()}") { domainName } b: domainInfo(domain: "${domain()}") { domainName } }`,
    );
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.body.data).toEqual({ a: null, b: null });
    for (const error of shed.body.errors!) {
      expect(error.extensions).toMatchObject({ code: 'OVERLOADED', action: 'domain_info', retryAfter: 1 });
      expect(error.extensions).not.toHaveProperty('http');
      expect(error.message).toMatch(/busy.*retry in 1 s/);
    }
    expect(r.domainCalls()).toBe(1);
    // Reported, counted, and no sign of an upstream failure.
    const ready = await r.gw.fetch(`/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'overloaded', ready: true, reasons: ['shedding-load'] });
    expect(await metric(r.gw.url, 'lookup_graph_upstream_shed_total', 'reason="queue-full"')).toBe(2);
    expect(
      (await r.gw.fetch(`/metrics`).then((res) => res.text())).match(/^lookup_graph_upstream_overloaded (\d)/m)?.[1],
    ).toBe('1');
    expect(r.gw.logs.some((line) => line.includes('overloaded: shedding lookups'))).toBe(true);
    release();
    expect((await first).body.errors).toBeUndefined();
    expect((await healthz(r.gw)).upstream.breakers.domain_info).toEqual({ state: 'closed', consecutiveFailures: 0 });
  });

  it('a response with some lookups served and some shed is 200 and carries Retry-After; shed lookups are not cached', async () => {
    const r = await rig({ ...oneSlot, CACHE_ENABLED: 'true' }, holding, noQueue);
    const cached = domain();
    const warm = r.gw.query(domainQuery(cached));
    await until(() => held.length === 1);
    release();
    expect((await warm).body.errors).toBeUndefined();
    const blocker = r.gw.query(domainQuery());
    await until(() => held.length === 1);
    const later = domain();
    const mixed = await r.gw.query(
      `{ a: domainInfo(domain: "${cached}") { domainName } b: domainInfo(domain: "${later}") { domainName } }`,
    );
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('retry-after')).toBe('1');
    expect(mixed.body.data).toEqual({ a: { domainName: cached }, b: null });
    expect(codeOf(mixed, 'b')).toMatchObject({ code: 'OVERLOADED', retryAfter: 1 });
    release();
    await blocker;
    // The shed lookup was not remembered as a failure: asked again, it goes upstream and succeeds.
    const again = r.gw.query(domainQuery(later));
    await until(() => held.length === 1);
    release();
    const answered = await again;
    expect(answered.status).toBe(200);
    expect(answered.headers.get('retry-after')).toBeNull();
    expect(answered.body.data).toEqual({ domainInfo: { domainName: later } });
    expect(r.up.calls.filter((call) => call.body.domain === later)).toHaveLength(1);
  });

  it('a batch with a shed operation keeps its 200 and carries Retry-After', async () => {
    const r = await rig({ ...oneSlot, MAX_BATCH_OPERATIONS: '5' }, holding, noQueue);
    const first = r.gw.query(domainQuery());
    await until(() => held.length === 1);
    const batch = await r.gw.post(
      JSON.stringify([{ query: domainQuery() }, { query: '{ crmOwners(portal: "5") { id: ownerId } }' }]),
    );
    expect(batch.status).toBe(200);
    expect(batch.headers.get('retry-after')).toBe('1');
    const [shed, other] = batch.body as unknown as Array<{ errors?: Array<{ extensions?: Record<string, unknown> }> }>;
    expect(shed!.errors![0]!.extensions).toMatchObject({ code: 'OVERLOADED', retryAfter: 1 });
    expect(other!.errors![0]!.extensions).toMatchObject({ code: 'OVERLOADED' });
    release();
    await first;
  });

  it("is HTTP 429 RATE_LIMITED with Retry-After when it is the client's own share that is full", async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '20000' }, holding, { maxPerClient: 1 });
    const first = r.gw.query(domainQuery());
    await until(() => held.length === 1);
    const own = await r.gw.query(domainQuery());
    expect(own.status).toBe(429);
    expect(own.headers.get('retry-after')).toBe('1');
    expect(codeOf(own)).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
    expect(await metric(r.gw.url, 'lookup_graph_upstream_shed_total', 'reason="client-share"')).toBe(1);
    // One client's share says nothing about the process.
    expect(await (await r.gw.fetch(`/readyz`)).json()).toMatchObject({ status: 'ready' });
    release();
    await first;
  });

  it('a lookup still waiting for a slot when its wait deadline passes is shed with OVERLOADED, without a call', async () => {
    const r = await rig({ UPSTREAM_MAX_IN_FLIGHT: '1', UPSTREAM_TIMEOUT_MS: '20000' }, holding, {
      queueTimeoutMs: 200,
    });
    const first = r.gw.query(domainQuery());
    await until(() => held.length === 1);
    const started = performance.now();
    const waited = await r.gw.query(domainQuery());
    const ms = performance.now() - started;
    expect(waited.status).toBe(503);
    expect(codeOf(waited)).toMatchObject({ code: 'OVERLOADED', retryAfter: 1 });
    expect(ms).toBeGreaterThanOrEqual(190); // it did wait for its turn, up to its queue timeout
    expect(r.domainCalls()).toBe(1);
    expect(await metric(r.gw.url, 'lookup_graph_upstream_shed_total', 'reason="wait-expired"')).toBe(1);
    release();
    await first;
  });
});
