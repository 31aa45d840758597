import { describe, expect, it } from 'vitest';
import { codeOf, domain, domainQuery, healthz, json, ok, rig, sleep, until } from './support.js';

const POISON = 'poison.example.com';
const tooMany = (res: Parameters<typeof json>[0]) =>
  json(res, 429, { status: 429, response: null, error: 'Too many requests' }, { 'retry-after': '3600' });

describe("the upstream's Retry-After holds calls for a bounded time, then one probe decides", () => {
  it('a 429 with Retry-After: 3600 for one input: the other lookups are held at most the cap, reported as refused with 0 calls; then one probe, then traffic', async () => {
    let answerMs = 0;
    const r = await rig(
      { UPSTREAM_TIMEOUT_MS: '3000' },
      async (call, _req, res) => {
        if (call.body.domain === POISON) return tooMany(res);
        if (answerMs) await sleep(answerMs);
        ok(call, res);
      },
      { retryAfterMaxSeconds: 2 },
    );
    const poisoned = await r.gw.query(domainQuery(POISON));
    const heldAt = performance.now();
    // The client is told the hold the gateway keeps, not the hour the answer asked for.
    expect(codeOf(poisoned)).toMatchObject({ code: 'RATE_LIMITED', action: 'domain_info', retryAfter: 2 });
    expect(poisoned.body.extensions!.gateway).toMatchObject({ upstreamCalls: 1, lookups: [{ source: 'upstream' }] });

    // Held: another domain and another action, refused without a call, and saying so.
    const held = await r.gw.query(
      `{ domainInfo(domain: "${domain()}") { domainName } crmOwners(portal: "7") { id: ownerId } }`,
    );
    expect(codeOf(held)).toMatchObject({ code: 'RATE_LIMITED', action: 'domain_info' });
    expect(codeOf(held, 'crmOwners')).toMatchObject({ code: 'RATE_LIMITED', action: 'get_crm_owners' });
    expect(codeOf(held)!.retryAfter).toBeLessThanOrEqual(2);
    expect(held.body.extensions!.gateway.upstreamCalls).toBe(0);
    expect(held.body.extensions!.gateway.lookups).toEqual([
      expect.objectContaining({ action: 'domain_info', source: 'refused', reason: 'RATE_LIMITED' }),
      expect.objectContaining({ action: 'get_crm_owners', source: 'refused', reason: 'RATE_LIMITED' }),
    ]);
    expect(r.up.calls).toHaveLength(1);
    expect((await healthz(r.gw)).upstream.rateLimit).toMatchObject({ holding: true, level: 'out' });

    // The hold ends at the cap (2 s), not after the hour.
    await until(() => !r.gw.gateway.upstreamStatus().rateLimit.holding, 10_000);
    const holdMs = performance.now() - heldAt;
    expect(holdMs).toBeLessThan(2000 + 1500); // the cap, and the polling's slack on a busy machine
    expect(r.up.calls).toHaveLength(1);

    // One probe: the upstream holds its answer while five lookups arrive; one goes up, four are refused.
    answerMs = 400;
    const round = await Promise.all(Array.from({ length: 5 }, () => r.gw.query(domainQuery())));
    expect(r.up.calls).toHaveLength(2);
    const probed = round.filter((res) => !res.body.errors);
    const refused = round.filter((res) => codeOf(res)?.code === 'RATE_LIMITED');
    expect(probed).toHaveLength(1);
    expect(probed[0]!.body.extensions!.gateway.upstreamCalls).toBe(1);
    expect(refused).toHaveLength(4);
    for (const res of refused) {
      expect(codeOf(res)!.retryAfter).toBe(1);
      expect(res.body.extensions!.gateway).toMatchObject({
        upstreamCalls: 0,
        lookups: [{ source: 'refused', reason: 'RATE_LIMITED' }],
      });
    }

    // The probe was answered: traffic resumes.
    answerMs = 0;
    const after = await Promise.all(Array.from({ length: 5 }, () => r.gw.query(domainQuery())));
    expect(after.every((res) => !res.body.errors)).toBe(true);
    expect(r.up.calls).toHaveLength(7);
    expect((await healthz(r.gw)).upstream.rateLimit).toMatchObject({ holding: false, level: 'ok', probe: 'none' });
    console.info(
      `[figure] 429 with Retry-After: 3600, cap 2 s: other lookups held ${holdMs.toFixed(0)} ms, then one probe`,
    );
  });

  it('a probe answered 429 again holds again, at most the cap', async () => {
    const r = await rig({}, (_call, _req, res) => tooMany(res), { retryAfterMaxSeconds: 1 });
    expect(codeOf(await r.gw.query(domainQuery()))).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
    await until(() => !r.gw.gateway.upstreamStatus().rateLimit.holding, 10_000);
    const probe = await r.gw.query(domainQuery());
    expect(codeOf(probe)).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 1 });
    expect(probe.body.extensions!.gateway.upstreamCalls).toBe(1);
    expect(r.up.calls).toHaveLength(2);
    const held = await r.gw.query(domainQuery());
    expect(held.body.extensions!.gateway).toMatchObject({
      upstreamCalls: 0,
      lookups: [{ source: 'refused', reason: 'RATE_LIMITED' }],
    });
    expect(r.up.calls).toHaveLength(2);
  });

  it('a 429 that says the token has calls left (ratelimit-remaining above 0) holds only the input it answered', async () => {
    const r = await rig(
      {},
      (call, _req, res) =>
        call.body.domain === POISON
          ? json(
              res,
              429,
              { status: 429, response: null, error: 'Too many requests' },
              { 'retry-after': '3600', 'ratelimit-remaining': '15' },
            )
          : ok(call, res),
      { retryAfterMaxSeconds: 2 },
    );
    expect(codeOf(await r.gw.query(domainQuery(POISON)))).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 2 });
    const other = await r.gw.query(domainQuery());
    expect(other.body.errors).toBeUndefined();
    const again = await r.gw.query(domainQuery(POISON));
    expect(codeOf(again)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(again.body.extensions!.gateway).toMatchObject({
      upstreamCalls: 0,
      lookups: [{ source: 'refused', reason: 'RATE_LIMITED' }],
    });
    expect(r.up.calls).toHaveLength(2);
    expect(r.gw.gateway.upstreamStatus().rateLimit.holding).toBe(false);
  });

  it('by default the cap is 60 s', async () => {
    const r = await rig({}, (_call, _req, res) => tooMany(res));
    expect(codeOf(await r.gw.query(domainQuery()))).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 60 });
    const { rateLimit } = (await healthz(r.gw)).upstream;
    expect(rateLimit.holding).toBe(true);
    expect(rateLimit.retryAfter).toBeLessThanOrEqual(60);
    expect(codeOf(await r.gw.query(domainQuery()))!.retryAfter).toBeLessThanOrEqual(60);
  });
});
