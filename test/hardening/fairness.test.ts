import { afterEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type GraphQLResponse, type TestGateway } from '../support/gateway.js';

const ATTACKER = 'attacker-key-0123456789abcdef';
const VICTIM = 'victim-key-0123456789abcdef01';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? 0;
};
let seq = 0;
const fresh = (prefix: string) => {
  seq += 1;
  return `${prefix}-${seq}-${Date.now()}.example`;
};
const lookup = (name: string) => `{ domainInfo(domain: "${name}") { domainName } }`;

let up: FaultUpstream | undefined;
let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.close();
  await up?.close();
  gw = undefined;
  up = undefined;
});

/** An upstream that hangs on every domain starting with "slow-" and answers the others in 10 ms. */
async function hangingUpstream(): Promise<FaultUpstream> {
  const upstream = await startFaultUpstream();
  upstream.handle((call, _req, res) => {
    const name = String(call.body.domain ?? '');
    if (name.startsWith('slow-')) return; // never answers: the gateway's deadline ends it
    if (name.startsWith('down-')) return json(res, 500, { status: 500, response: null, error: 'down' });
    setTimeout(() => json(res, 200, { status: 200, response: { domain_name: name } }), 10);
  });
  return upstream;
}

function twoClients(upstream: FaultUpstream, extra: Record<string, string> = {}, maxPerClient?: number) {
  return startGateway(
    upstreamEnv(upstream, {
      LOG_LEVEL: 'info',
      GATEWAY_AUTH: 'api-key',
      GATEWAY_API_KEY_HASHES: `${hashApiKey(ATTACKER)},${hashApiKey(VICTIM)}`,
      CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      UPSTREAM_MAX_IN_FLIGHT: '16',
      UPSTREAM_TIMEOUT_MS: '1500',
      UPSTREAM_BREAKER_FAILURES: '5',
      ...extra,
    }),
    0,
    { resilience: { maxRetries: 0, ...(maxPerClient ? { maxPerClient } : {}) } },
  );
}

async function timedQuery(g: TestGateway, key: string, name: string): Promise<{ ms: number; res: GraphQLResponse }> {
  const started = performance.now();
  const res = await g.query(lookup(name), undefined, { 'x-api-key': key });
  return { ms: performance.now() - started, res };
}

/** The victim's healthy lookups, `workers` at a time, for `ms`. */
async function victimLoad(g: TestGateway, ms: number, workers = 2) {
  const latencies: number[] = [];
  const errors: string[] = [];
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) {
        const name = fresh('fresh');
        const { ms: took, res } = await timedQuery(g, VICTIM, name);
        latencies.push(took);
        if (res.status !== 200 || res.body.errors || res.body.data?.domainInfo?.domainName !== name)
          errors.push(JSON.stringify(res.body.errors ?? res.status));
      }
    }),
  );
  return { latencies, errors };
}

describe('fairness: one client flooding with hanging inputs', () => {
  it("leaves another client's lookups error-free and fast, and does not open the shared breaker", async () => {
    up = await hangingUpstream();
    // Breakers out of the way (they have their own tests): only the shares protect the victim here.
    // The hang lasts 5 s: a victim call that had to wait for one of the attacker's slots would show it.
    gw = await twoClients(up, { UPSTREAM_BREAKER_FAILURES: '1000', UPSTREAM_TIMEOUT_MS: '5000' }, 24);
    const baseline = await victimLoad(gw, 1500);
    expect(baseline.errors).toEqual([]);

    // The attacker: 40 lookups at a time, each a new input the upstream hangs on, again and again.
    let attacking = true;
    const attackCodes = new Map<string, number>();
    const attack = Promise.all(
      Array.from({ length: 40 }, async () => {
        while (attacking) {
          const { res } = await timedQuery(gw!, ATTACKER, fresh('slow'));
          const code = res.body.errors?.[0]?.extensions?.code ?? 'none';
          attackCodes.set(code, (attackCodes.get(code) ?? 0) + 1);
          // Refused at once: pause, so the test process (which is also the gateway) is not a CPU flood.
          if (code !== 'UPSTREAM_TIMEOUT') await sleep(250);
        }
      }),
    );
    await sleep(300);
    const during = await victimLoad(gw, 5000);
    const health = await (await gw.fetch(`/healthz`)).json();
    attacking = false;
    await attack;

    const report = {
      baseline: { n: baseline.latencies.length, p99: Math.round(p99(baseline.latencies)) },
      underAttack: {
        n: during.latencies.length,
        p99: Math.round(p99(during.latencies)),
        max: Math.round(Math.max(...during.latencies)),
      },
      attacker: Object.fromEntries(attackCodes),
      upstreamAtEnd: { inFlight: health.upstream.inFlight, queued: health.upstream.queued },
      sharedBreaker: health.upstream.breakers.domain_info,
    };
    console.log('fairness:', JSON.stringify(report));
    expect(during.errors).toEqual([]);
    expect(during.latencies.length).toBeGreaterThan(8);
    // Before: 9.8 s instead of ~30 ms (issue 16). The victim never waits for a slot now; what is left is
    // CPU shared with the attacker's 40 connections in this one test process on a loaded machine.
    expect(report.underAttack.p99).toBeLessThan(Math.max(10 * report.baseline.p99, 2500));
    // The attacker was held to its share and its own breaker; the shared one stayed closed.
    expect(attackCodes.get('RATE_LIMITED') ?? 0).toBeGreaterThan(0);
    expect(health.upstream.breakers.domain_info.state).toBe('closed');
    expect(health.upstream.maxInFlightPerClient).toBe(8);
    // The attacker kept timing out (its calls held their slots) while the victim was served.
    expect(attackCodes.get('UPSTREAM_TIMEOUT') ?? 0).toBeGreaterThanOrEqual(8);
    // The attacker's share and no more: 8 in flight, 24 held in all.
    expect(health.upstream.inFlight).toBeLessThanOrEqual(8);
    expect(health.upstream.queued).toBeLessThanOrEqual(16);
  }, 30_000);

  it('remembers one input that keeps hanging: after two timeouts it fails fast without a call', async () => {
    up = await hangingUpstream();
    gw = await twoClients(up, { UPSTREAM_TIMEOUT_MS: '200' });
    const name = fresh('slow');
    for (let i = 0; i < 2; i += 1)
      expect((await timedQuery(gw, ATTACKER, name)).res.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_TIMEOUT');
    const calls = up.calls.length;
    const third = await timedQuery(gw, VICTIM, name);
    expect(third.res.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_TIMEOUT');
    expect(third.res.body.errors?.[0]?.message).toMatch(/failed for this input moments ago/);
    expect(up.calls.length).toBe(calls);
    // One input, however often it fails, is one failure for the breakers.
    const health = await (await gw.fetch(`/healthz`)).json();
    expect(health.upstream.breakers.domain_info).toMatchObject({ state: 'closed', consecutiveFailures: 1 });
  });
});

describe('breakers: an attack by one client versus a real outage', () => {
  it("one client's failing inputs open only its own breaker while another client is calling", async () => {
    up = await hangingUpstream();
    gw = await twoClients(up);
    expect((await timedQuery(gw, VICTIM, fresh('fresh'))).res.body.errors).toBeUndefined();
    for (let i = 0; i < 12; i += 1) await timedQuery(gw, ATTACKER, fresh('down'));
    const attackerNow = await timedQuery(gw, ATTACKER, fresh('fresh'));
    expect(attackerNow.res.body.errors?.[0]?.message).toMatch(/failing for this client/);
    const victim = await victimLoad(gw, 500, 1);
    expect(victim.errors).toEqual([]);
    const breaker = (await (await gw.fetch(`/healthz`)).json()).upstream.breakers.domain_info;
    console.log("breaker after one client's attack:", JSON.stringify(breaker));
    expect(breaker).toMatchObject({ state: 'closed', clientsOpen: 1 });
  });

  it('a real outage (every input failing, for both clients) opens the shared breaker within a few calls', async () => {
    up = await hangingUpstream();
    gw = await twoClients(up);
    let calls = 0;
    for (let i = 0; i < 10; i += 1) {
      const breaker = (await (await gw.fetch(`/healthz`)).json()).upstream.breakers.domain_info;
      if (breaker?.state === 'open') break;
      await timedQuery(gw, i % 2 ? ATTACKER : VICTIM, fresh('down'));
      calls += 1;
    }
    console.log(`outage: shared breaker open after ${calls} failing lookups from two clients`);
    expect(calls).toBe(5);
    const before = up.calls.length;
    for (const key of [ATTACKER, VICTIM]) {
      const { res, ms } = await timedQuery(gw, key, fresh('fresh'));
      expect(res.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(res.body.errors?.[0]?.message).toMatch(/not calling it for now/);
      expect(ms).toBeLessThan(1000);
    }
    expect(up.calls.length).toBe(before);
  });

  it("forward mode: one tenant's 503s and rejected token stay that tenant's", async () => {
    up = await startFaultUpstream();
    const SICK = 'Bearer sick-tenant-token-aaaaaaaaaaaa';
    const REVOKED = 'Bearer revoked-tenant-token-bbbbbbbbbb';
    const HEALTHY = 'Bearer healthy-tenant-token-cccccccccc';
    up.handle((call, _req, res) => {
      if (call.authorization === SICK) return json(res, 503, { status: 503, response: null, error: 'busy' });
      if (call.authorization === REVOKED) return json(res, 401, { status: 401, response: null, error: 'Unauthorized' });
      json(res, 200, { status: 200, response: { domain_name: call.body.domain } });
    });
    gw = await startGateway(
      upstreamEnv(up, { GATEWAY_AUTH: 'forward', CLIENT_RATE_LIMIT_PER_MINUTE: '0', UPSTREAM_BREAKER_FAILURES: '5' }),
      0,
      {
        resilience: { maxRetries: 0 },
      },
    );
    await gw.query(lookup(fresh('fresh')), undefined, { authorization: HEALTHY });
    for (let i = 0; i < 8; i += 1) await gw.query(lookup(fresh('x')), undefined, { authorization: SICK });
    const revoked = await gw.query(lookup(fresh('x')), undefined, { authorization: REVOKED });
    expect(revoked.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(revoked.body.errors?.[0]?.message).toMatch(/rejected your access token/);
    expect(revoked.body.errors?.[0]?.message).not.toMatch(/ACTION_TOKEN|operator/);
    const healthy = await gw.query(lookup('healthy.example'), undefined, { authorization: HEALTHY });
    expect(healthy.body.errors).toBeUndefined();
    expect(healthy.body.data).toEqual({ domainInfo: { domainName: 'healthy.example' } });
    const sick = await gw.query(lookup(fresh('x')), undefined, { authorization: SICK });
    expect(sick.body.errors?.[0]?.message).toMatch(/failing for this client/);
    expect(gw.logs.join('\n')).not.toMatch(/sick-tenant-token|revoked-tenant-token|healthy-tenant-token/);
  });
});
