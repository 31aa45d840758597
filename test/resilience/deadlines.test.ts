import { describe, expect, it } from 'vitest';
import { abortableQuery, codeOf, domain, domainQuery, json, ok, rig, sleep, timed, until } from './support.js';

describe('deadlines', () => {
  it('an upstream that never sends headers: UPSTREAM_TIMEOUT at the call deadline, one call', async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '300' }, () => undefined);
    const res = await timed(() => r.gw.query(domainQuery()));
    expect(res.body.data).toEqual({ domainInfo: null });
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_TIMEOUT', action: 'domain_info' });
    expect(res.body.errors![0]!.message).toMatch(/within 300 ms/);
    expect(r.domainCalls()).toBe(1);
    // The deadline is the behaviour: not before it (a lower bound cannot flake), and long before the
    // test's own 30 s timeout, the only other end of a call that never answers (a generous bound).
    expect(res.ms).toBeGreaterThanOrEqual(280);
    expect(res.ms).toBeLessThan(10_000);
    console.info(`[timing] hang before headers, 300 ms deadline: answered in ${res.ms.toFixed(0)} ms`);
  });

  it('an upstream that stalls mid-body: UPSTREAM_TIMEOUT, one call, not retried', async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '300' }, (_call, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
      res.write('{"status":200,"response":{"domain_na');
    });
    const res = await timed(() => r.gw.query(domainQuery()));
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_TIMEOUT', action: 'domain_info' });
    expect(r.domainCalls()).toBe(1);
    expect(res.ms).toBeLessThan(10_000); // generous: only the deadline ends a stalled body before the test times out
    console.info(`[timing] stall mid-body, 300 ms deadline: answered in ${res.ms.toFixed(0)} ms`);
  });

  it('the operation deadline: the fast field resolves, the slow one is null with UPSTREAM_TIMEOUT, within the deadline', async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '60000', OPERATION_TIMEOUT_MS: '300' }, (call, _req, res) => {
      if (call.action === 'domain_info') return; // never answers
      ok(call, res);
    });
    const res = await timed(() =>
      r.gw.query(`{ domainInfo(domain: "${domain()}") { domainName } crmOwners(portal: "42") { id: ownerId } }`),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: null, crmOwners: [{ id: '7' }] });
    expect(res.body.errors).toHaveLength(1);
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_TIMEOUT', action: 'domain_info' });
    expect(r.up.calls).toHaveLength(2);
    expect(res.ms).toBeLessThan(10_000); // generous, and far below the 60 s call timeout: the operation deadline ended it
    console.info(`[timing] operation deadline 300 ms (call timeout 60 s): answered in ${res.ms.toFixed(0)} ms`);
  });

  it('a client that disconnects cancels the upstream call its operation waits on', async () => {
    // The upstream would answer after 20 s and the call deadline is 60 s: a close within the test's
    // time can only be the cancellation.
    const seen: { closedAt?: number; answered?: boolean } = {};
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '60000' }, (_call, _req, res) => {
      const timer = setTimeout(() => json(res, 200, { status: 200, response: { domain_name: 'late' } }), 20_000);
      res.on('close', () => {
        clearTimeout(timer);
        seen.closedAt = performance.now();
        seen.answered = res.writableEnded;
      });
    });
    const request = abortableQuery(r.gw);
    await until(() => r.domainCalls() === 1);
    request.abort();
    expect(await request.response).toBeInstanceOf(Error);
    await until(() => seen.closedAt !== undefined, 10_000);
    expect(seen.answered).toBe(false); // the upstream saw its socket closed before it answered
    expect(r.domainCalls()).toBe(1);
    await until(() => r.gw.gateway.upstreamStatus().inFlight === 0);
    // The request's one line records the abandoned lookup's error at its path.
    const line = r.gw.logs.map((text) => JSON.parse(text)).find((entry) => entry.msg === 'graphql request');
    expect(line.request.errors).toMatchObject({ count: 1, firstPaths: ['domainInfo'] });
  });

  it('a lookup still waiting for a slot when the operation deadline comes is shed (OVERLOADED), without a call', async () => {
    const r = await rig(
      { UPSTREAM_TIMEOUT_MS: '60000', OPERATION_TIMEOUT_MS: '300', UPSTREAM_MAX_IN_FLIGHT: '1' },
      () => undefined,
      { maxQueued: 5 },
    );
    // One slot: domain_info takes it and hangs; get_crm_owners waits in the queue until the deadline (less 50 ms).
    const res = await timed(() =>
      r.gw.query(`{ domainInfo(domain: "${domain()}") { domainName } crmOwners(portal: "42") { id: ownerId } }`),
    );
    expect(res.body.data).toEqual({ domainInfo: null, crmOwners: null });
    expect(codeOf(res)).toMatchObject({ code: 'UPSTREAM_TIMEOUT', action: 'domain_info' });
    // It could not start in time because the one slot was taken: the gateway's load, not the upstream's failure.
    expect(codeOf(res, 'crmOwners')).toMatchObject({ code: 'OVERLOADED', action: 'get_crm_owners', retryAfter: 1 });
    expect(r.up.calls.map((call) => call.action)).toEqual(['domain_info']);
    expect(res.ms).toBeLessThan(10_000); // generous, and far below the 60 s call timeout
    await sleep(50);
    expect(r.gw.gateway.upstreamStatus()).toMatchObject({ inFlight: 0, queued: 0 });
  });
});
