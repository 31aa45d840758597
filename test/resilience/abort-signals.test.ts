import { afterEach, describe, expect, vi } from 'vitest';
import { json } from '../support/fault-upstream.js';
import { it } from '../support/fixtures.js';
import { sleep, until } from '../support/wait.js';
import { domain, ok, rig } from './support.js';

// A call follows its operation's one signal (or a coalesced call's) with a listener and stops at its
// deadline with a timer: no composite signal is made per call (AbortSignal.any and AbortSignal.timeout
// cost weak references and a dependant on the long-lived signal they follow, for every call).
describe('abort signals on the way upstream', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an operation of uncached lookups makes no AbortSignal.any() or AbortSignal.timeout()', async ({
    sandbox: gw,
  }) => {
    const any = vi.spyOn(AbortSignal, 'any');
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const { body } = await gw.query(
      '{ domainInfo(domain: "signals-a.example") { domainName } company(domain: "signals-b.example") { name } financialProfiles(symbols: ["AAPL", "NKE"]) { symbol } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.extensions?.gateway.upstreamCalls).toBe(3);
    expect(any).not.toHaveBeenCalled();
    expect(timeout).not.toHaveBeenCalled();
  });
});

describe('one operation waiting on many lookups', () => {
  it('follows its signal with one listener: joining twelve symbols another request is fetching warns of no listener leak', async ({
    upstream,
    gatewayOver,
  }) => {
    const symbols = ['AAPL', 'NKE', 'MSFT', 'KO', 'IBM', 'ORCL', 'INTC', 'AMD', 'CSCO', 'PEP', 'PFE', 'XOM'];
    upstream.handle(async (call, _req, res) => {
      await sleep(200); // slow enough that the second request joins every symbol in flight
      json(res, 200, {
        status: 200,
        response: String(call.body.company)
          .split(', ')
          .map((symbol) => ({ symbol, price: 1 })),
      });
    });
    const gw = await gatewayOver({ CACHE_ENABLED: 'true' }, { financialBatchSize: 20 });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const query = `{ financialProfiles(symbols: ${JSON.stringify(symbols)}) { symbol } }`;
      const first = gw.query(query);
      await sleep(50);
      const second = await gw.query(query);
      expect((await first).body.errors).toBeUndefined();
      expect(second.body.errors).toBeUndefined();
      expect(second.body.extensions!.gateway.lookups.map((lookup: { source: string }) => lookup.source)).toEqual(
        symbols.map(() => 'coalesced'),
      );
      await sleep(10); // warnings are emitted on the next tick
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a client that leaves is not an upstream failure', () => {
  it('@defer clients that hang up while their deferred lookups are at the upstream: CLIENT_CLOSED in /metrics, never UPSTREAM_UNAVAILABLE, no "upstream call failed"', async () => {
    const r = await rig({ UPSTREAM_TIMEOUT_MS: '60000', LOG_LEVEL: 'info' }, (call, _req, res) => {
      if (call.action !== 'domain_info') return ok(call, res);
      // Answers only after the test's own time: the close the upstream sees is the cancellation.
      const timer = setTimeout(() => ok(call, res), 20_000);
      res.on('close', () => clearTimeout(timer));
    });
    const clients = Array.from({ length: 5 }, () => new AbortController());
    const query = () =>
      `{ crmOwners(portal: "7") { id: ownerId } ... @defer { domainInfo(domain: "${domain()}") { domainName } } }`;
    await Promise.all(
      clients.map((client) =>
        fetch(`${r.gw.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
          body: JSON.stringify({ query: query() }),
          signal: client.signal,
        }),
      ),
    );
    await until(() => r.domainCalls() === 5, 10_000);
    for (const client of clients) client.abort();
    await until(() => r.load.now === 0 && r.gw.gateway.upstreamStatus().inFlight === 0, 10_000);
    await sleep(50); // the operations end once their cancelled lookups settle

    const metrics = await (await r.gw.fetch('/metrics')).text();
    const samples = metrics.split('\n').filter((line) => !line.startsWith('#'));
    expect(samples.filter((line) => line.includes('UPSTREAM_UNAVAILABLE'))).toEqual([]);
    expect(samples).toContain('lookup_graph_upstream_calls_total{action="domain_info",outcome="CLIENT_CLOSED"} 5');
    expect(r.gw.logs.filter((line) => line.includes('upstream call failed'))).toEqual([]);
  });
});
