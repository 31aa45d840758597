import { describe, expect, it } from 'vitest';
import { codeOf, domain, ok, rig, sleep } from './support.js';

function sample(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('the calls reported are the calls the upstream received', () => {
  it('under overload: upstreamCalls summed over the responses, the request log and the metrics all equal what the upstream received', async () => {
    const r = await rig(
      { UPSTREAM_MAX_IN_FLIGHT: '2', UPSTREAM_TIMEOUT_MS: '3000', LOG_LEVEL: 'info' },
      async (call, _req, res) => {
        await sleep(100);
        ok(call, res);
      },
      { maxInFlightPerClient: 2, maxQueued: 2 },
    );
    // 30 requests at once, each two uncached lookups of two actions: far more than two slots and a queue of two.
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        r.gw.query(
          `{ domainInfo(domain: "${domain()}") { domainName } crmOwners(portal: "${1000 + n}") { id: ownerId } }`,
        ),
      ),
    );
    const shed = responses.filter((res) => res.status === 503);
    expect(shed.length).toBeGreaterThan(0); // the overload happened
    expect(responses.some((res) => res.status === 200 && !res.body.errors)).toBe(true);

    const received = r.up.calls.length;
    const reported = responses.reduce((sum, res) => sum + res.body.extensions!.gateway.upstreamCalls, 0);
    expect(reported).toBe(received);
    for (const res of shed) {
      expect(codeOf(res)).toMatchObject({ code: 'OVERLOADED' });
      expect(res.body.extensions!.gateway.upstreamCalls).toBe(0);
      for (const lookup of res.body.extensions!.gateway.lookups)
        expect(lookup).toMatchObject({ source: 'refused', reason: 'OVERLOADED' });
    }
    // Per response: as many calls as lookups that say they went upstream.
    for (const res of responses) {
      const { upstreamCalls, lookups } = res.body.extensions!.gateway;
      expect(lookups.filter((lookup: { source: string }) => lookup.source === 'upstream')).toHaveLength(upstreamCalls);
    }

    const logged = r.gw.logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'graphql request')
      .reduce((sum, line) => sum + line.request.upstreamCalls, 0);
    expect(logged).toBe(received);
    const metrics = await (await r.gw.fetch('/metrics')).text();
    expect(sample(metrics, 'lookup_graph_upstream_calls_total')).toBe(received);
    console.info(
      `[figure] overload: ${responses.length} requests, ${shed.length} shed 503; reported ${reported} calls, upstream received ${received}`,
    );
  });
});
