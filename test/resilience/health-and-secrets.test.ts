import { describe, expect, it } from 'vitest';
import { codeOf, domainQuery, expectNoSecrets, FAULT_TOKEN, healthz, json, ok, rig } from './support.js';

describe('operators and secrets', () => {
  it('/healthz shows the upstream budget, breakers, in-flight and queued calls', async () => {
    const r = await rig(
      { UPSTREAM_MAX_IN_FLIGHT: '3' },
      (call, _req, res) =>
        ok(call, res, { 'ratelimit-limit': '20', 'ratelimit-remaining': '17', 'ratelimit-reset': '42' }),
      { maxQueued: 7 },
    );
    const before = await healthz(r.gw);
    expect(before.status).toBe('ok');
    expect(before.upstream).toMatchObject({
      rateLimit: {
        level: 'unknown',
        limit: null,
        remaining: null,
        resetAt: null,
        holding: false,
        retryAfter: null,
        requestTokensHolding: 0,
      },
      breakers: {},
      inFlight: 0,
      queued: 0,
      maxInFlight: 3,
      maxQueued: 7,
    });
    expect((await r.gw.query(domainQuery())).body.errors).toBeUndefined();
    const after = (await healthz(r.gw)).upstream;
    expect(after.rateLimit).toMatchObject({ level: 'ok', limit: 20, remaining: 17, holding: false });
    expect(Date.parse(after.rateLimit.resetAt) - Date.now()).toBeGreaterThan(30_000);
    expect(after.breakers).toEqual({ domain_info: { state: 'closed', consecutiveFailures: 0 } });
    expect(after.retries).toMatchObject({ calls: 1, retries: 0 });
    expect(r.gw.gateway.upstreamStatus()).toEqual(after);
  });

  it('the token is in no error and no log line, whatever happened upstream', async () => {
    type Res = Parameters<typeof json>[0];
    let fault: (res: Res) => void = () => undefined;
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '150', UPSTREAM_BREAKER_FAILURES: '4' }, (call, _req, res) =>
      call.action === 'get_crm_owners'
        ? json(res, 429, { status: 429, response: null }, { 'retry-after': '30' })
        : fault(res),
    );
    const texts: string[] = [];
    const codes: string[] = [];
    const run = async (query: string, path = 'domainInfo') => {
      const res = await r.gw.query(query);
      texts.push(res.text);
      codes.push(codeOf(res, path)!.code);
    };
    fault = (res) => json(res, 403, { status: 403, response: null, error: `bad token ${FAULT_TOKEN}` });
    await run(domainQuery());
    fault = () => undefined;
    await run(domainQuery());
    fault = (res) => res.writeHead(503, { 'retry-after': '0' }).end(); // retried (within the retry budget); an input counts once toward the breaker
    await run(domainQuery());
    await run(domainQuery());
    await run('{ crmOwners(portal: "1") { id: ownerId } }', 'crmOwners');
    await run('{ domainInfo(domain: "z.example.com") { domainName } }');
    expect(codes).toEqual([
      'UNAUTHENTICATED',
      'UPSTREAM_TIMEOUT',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    expect(r.domainCalls()).toBe(6);
    expect(r.up.calls.every((call) => call.authorization === `Bearer ${FAULT_TOKEN}`)).toBe(true);
    expectNoSecrets(r.gw, ...texts);
    expect(texts.join('\n')).not.toContain('127.0.0.1');
  });
});
