import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from './support/fault-upstream.js';
import { startGateway, type TestGateway } from './support/gateway.js';

let up: FaultUpstream;
let gw: TestGateway;
let coalesceDelay = 0;
beforeAll(async () => {
  up = await startFaultUpstream();
  up.handle(async (call, _req, res) => {
    if (coalesceDelay) await new Promise((resolve) => setTimeout(resolve, coalesceDelay));
    if (call.action === 'domain_info')
      return json(res, 200, { status: 200, response: { domain_name: call.body.domain } });
    if (call.action === 'company_financial_profile') {
      return json(res, 200, {
        status: 200,
        response: String(call.body.company)
          .split(', ')
          .map((symbol) => ({ symbol })),
      });
    }
    return json(res, 503, { status: 503, response: null, error: 'down' });
  });
  gw = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true' }), 0, { resilience: { maxRetries: 0 } });
});
afterAll(async () => {
  await gw.close();
  await up.close();
});

function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

describe('GET /metrics', () => {
  it('exposes upstream calls, latency, cache hits and misses, coalesced waits, batch sizes and operations after a known sequence', async () => {
    await gw.query('{ domainInfo(domain: "metrics.example") { domainName } }'); // miss → upstream
    await gw.query('{ domainInfo(domain: "metrics.example") { domainName } }'); // hit
    await gw.query('{ financialProfiles(symbols: ["AAA", "BBB", "CCC"]) { symbol } }'); // one call, three symbols
    await gw.query('{ crmOwners(portal: "1") { id: ownerId } }'); // upstream 503
    coalesceDelay = 150;
    await Promise.all([1, 2, 3].map(() => gw.query('{ domainInfo(domain: "together.example") { domainName } }')));
    coalesceDelay = 0;
    await gw.post('{ not json'); // an operation that fails before execution

    const res = await gw.fetch(`/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();

    expect(sample(text, 'lookup_graph_upstream_calls_total', { action: 'domain_info', outcome: 'OK' })).toBe(2);
    expect(
      sample(text, 'lookup_graph_upstream_calls_total', { action: 'company_financial_profile', outcome: 'OK' }),
    ).toBe(1);
    expect(
      sample(text, 'lookup_graph_upstream_calls_total', { action: 'get_crm_owners', outcome: 'UPSTREAM_UNAVAILABLE' }),
    ).toBe(1);
    expect(sample(text, 'lookup_graph_upstream_call_duration_seconds_count', { action: 'domain_info' })).toBe(2);
    expect(sample(text, 'lookup_graph_upstream_requests_total', { action: 'domain_info', outcome: 'OK' })).toBe(2);
    expect(
      sample(text, 'lookup_graph_upstream_requests_total', {
        action: 'get_crm_owners',
        outcome: 'UPSTREAM_UNAVAILABLE',
      }),
    ).toBe(1);
    expect(sample(text, 'lookup_graph_cache_lookups_total', { action: 'domain_info', source: 'cache' })).toBe(1);
    expect(sample(text, 'lookup_graph_cache_lookups_total', { action: 'domain_info', source: 'upstream' })).toBe(2);
    expect(sample(text, 'lookup_graph_cache_lookups_total', { action: 'domain_info', source: 'coalesced' })).toBe(2);
    expect(
      sample(text, 'lookup_graph_cache_lookups_total', { action: 'company_financial_profile', source: 'upstream' }),
    ).toBe(3);
    expect(sample(text, 'lookup_graph_financial_batch_symbols_sum')).toBe(3);
    expect(sample(text, 'lookup_graph_financial_batch_symbols_count')).toBe(1);
    expect(sample(text, 'lookup_graph_graphql_operations_total', { outcome: 'ok' })).toBe(6);
    expect(sample(text, 'lookup_graph_graphql_operations_total', { outcome: 'partial' })).toBe(1);
    expect(sample(text, 'lookup_graph_graphql_operations_total', { outcome: 'error' })).toBe(1);
    expect(text).toContain('lookup_graph_process_cpu_seconds_total');
    expect(sample(text, 'lookup_graph_upstream_breaker_open', { action: 'get_crm_owners' })).toBe(0);
    expect(sample(text, 'lookup_graph_upstream_in_flight')).toBe(0);
    expect(sample(text, 'lookup_graph_upstream_ratelimit_holding')).toBe(0);
    expect(text).not.toContain(up.token);
  });
});

describe('retries and refusals in the metrics', () => {
  it('counts every HTTP call, retries included, apart from the lookups the loaders asked for', async () => {
    const flaky = await startFaultUpstream();
    let n = 0;
    flaky.handle((call, _req, res) =>
      ++n === 1
        ? json(res, 503, { status: 503, response: null, error: 'busy' }, { 'retry-after': '0' })
        : json(res, 200, { status: 200, response: { domain_name: call.body.domain } }),
    );
    const retrying = await startGateway(upstreamEnv(flaky), 0, { resilience: { maxRetries: 1 } });
    try {
      const { body } = await retrying.query('{ domainInfo(domain: "retried.example") { domainName } }');
      expect(body.data).toEqual({ domainInfo: { domainName: 'retried.example' } });
      const text = await (await retrying.fetch(`/metrics`)).text();
      expect(flaky.calls).toHaveLength(2);
      expect(
        sample(text, 'lookup_graph_upstream_calls_total', { action: 'domain_info', outcome: 'UPSTREAM_UNAVAILABLE' }),
      ).toBe(1);
      expect(sample(text, 'lookup_graph_upstream_calls_total', { action: 'domain_info', outcome: 'OK' })).toBe(1);
      expect(sample(text, 'lookup_graph_upstream_requests_total', { action: 'domain_info', outcome: 'OK' })).toBe(1);
    } finally {
      await retrying.close();
      await flaky.close();
    }
  });
});
