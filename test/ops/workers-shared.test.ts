import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import { hashApiKey } from '../../src/security/api-keys.js';
import { json, startFaultUpstream, type FaultUpstream } from '../support/fault-upstream.js';
import { childrenOf, queryOnce, startBuiltOnPorts, waitFor, type BuiltOnPorts } from '../support/processes.js';

/**
 * WORKERS=2 without Redis: the workers share one count (held by the primary) for the client rate limit and
 * quotas, and the primary's /metrics tells what the gauges mean and keeps a dead worker's counters.
 */

const RATE_LIMIT = 15;
const QUOTA = 3;
const BUDGET = 1000;
const TEAM = 'workers-team-key-0123456789';
const BURST = 'workers-burst-key-0123456789';
const OTHER = 'workers-other-key-0123456789';
const SPARE = 'workers-spare-key-0123456789';

/** Every series of `name` in a Prometheus text, with its labels as written. */
function series(text: string, name: string): Array<{ labels: string; value: number }> {
  return [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm'))].map((m) => ({
    labels: m[1] ?? '',
    value: Number(m[2]),
  }));
}

const total = (text: string, name: string) => series(text, name).reduce((sum, { value }) => sum + value, 0);

describe('WORKERS=2 without REDIS_URL: limits counted once, metrics that mean what they say', () => {
  let gateway: BuiltOnPorts;
  let upstream: FaultUpstream;
  let port: number;
  let metricsPort: number;
  let dir: string;
  /** Upstream calls whose domain a test's client asked for, by the domain's first word. */
  const callsFor = (prefix: string) =>
    upstream.calls.filter((call) => String(call.body.domain ?? '').startsWith(`${prefix}-`)).length;
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();

  beforeAll(async () => {
    upstream = await startFaultUpstream();
    // Answers as the sandbox does, and says its budget as a real upstream would: one call less left each time.
    let served = 0;
    upstream.handle(async (call, _req, res) => {
      // Slow enough that lookups of one domain from both workers overlap.
      if (String(call.body.domain ?? '').startsWith('shared-')) await new Promise((r) => setTimeout(r, 400));
      served += 1;
      json(
        res,
        200,
        { status: 200, ...SANDBOX_ACTIONS[call.action]!.respond(call.body) },
        {
          'ratelimit-limit': String(BUDGET),
          'ratelimit-remaining': String(BUDGET - served),
          'ratelimit-reset': '3600',
        },
      );
    });
    dir = mkdtempSync(join(tmpdir(), 'lg-workers-'));
    const keysFile = join(dir, 'keys');
    writeFileSync(
      keysFile,
      [
        `${hashApiKey(TEAM)} name=team quota=${QUOTA}/day`,
        `${hashApiKey(BURST)} name=burst quota=none`,
        `${hashApiKey(OTHER)} name=other quota=none`,
        `${hashApiKey(SPARE)} name=spare quota=5/day`,
        '',
      ].join('\n'),
    );
    gateway = await startBuiltOnPorts(
      {
        WORKERS: '2',
        GATEWAY_API_KEYS_FILE: keysFile,
        CLIENT_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        SHED_EVENT_LOOP_DELAY_MS: '0',
        LOG_LEVEL: 'info',
      },
      upstream,
    );
    ({ port, metricsPort } = gateway);
    await waitFor(
      () => (gateway.output().match(/Lookup Graph ready/g) ?? []).length === 2,
      30_000,
      `two workers listening:\n${gateway.output()}`,
    );
  });
  afterAll(async () => {
    gateway?.child.kill('SIGKILL');
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says at start that the primary counts the rate limit and quotas for every worker', () => {
    expect(gateway.output()).toContain(
      'the client rate limit, quotas, the cache and its coalescing shared by all of them through this primary (no REDIS_URL)',
    );
    expect(gateway.output()).toMatch(/"counts":\{"rateLimit":"primary","quota":"primary"\},"cache":"primary"/);
  });

  it('shares the cache and its coalescing: one lookup asked at once through both workers is one call, then a hit in either', async () => {
    const query = '{ domainInfo(domain: "shared-1.example") { domainName } }';
    // Each on a connection of its own: the cluster hands connections to the workers in turn.
    const together = await Promise.all(Array.from({ length: 4 }, () => queryOnce(port, query, { 'x-api-key': OTHER })));
    for (const answer of together) expect(answer.body.data?.domainInfo?.domainName).toBe('shared-1.example');
    expect(callsFor('shared')).toBe(1);
    const sources = together.map((answer) => answer.body.extensions.gateway.lookups[0].source).sort();
    expect(sources.filter((source: string) => source === 'upstream')).toHaveLength(1);
    for (let i = 0; i < 4; i++) {
      const again = await queryOnce(port, query, { 'x-api-key': OTHER });
      expect(again.body.extensions.gateway.lookups[0].source).toBe('cache');
    }
    expect(callsFor('shared')).toBe(1);
  });

  it('makes exactly the quota of paid calls across both workers, each request on a connection of its own', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++)
      answers.push(
        await queryOnce(port, `{ domainInfo(domain: "team-${i}.example") { domainName } }`, { 'x-api-key': TEAM }),
      );
    expect(callsFor('team')).toBe(QUOTA);
    const granted = answers.filter((answer) => answer.body.data?.domainInfo?.domainName);
    expect(granted).toHaveLength(QUOTA);
    const refused = answers.filter((answer) => answer.body.errors?.[0]?.extensions?.code === 'QUOTA_EXCEEDED');
    expect(refused).toHaveLength(10 - QUOTA);
    // Every refusal says the same: nothing left of 3.
    for (const answer of refused)
      expect(answer.body.extensions.gateway.quota).toMatchObject({ limit: QUOTA, remaining: 0 });
  });

  it("shows the quota and the upstream's budget as one value, not one per worker", async () => {
    // A few more calls, on another client, so that both workers have heard the upstream's budget lately.
    for (let i = 0; i < 4; i++)
      expect(
        (await queryOnce(port, `{ domainInfo(domain: "other-${i}.example") { domainName } }`, { 'x-api-key': OTHER }))
          .status,
      ).toBe(200);
    const text = await scrape();
    // The upstream said BUDGET - (its calls) on its last answer: the lowest either worker heard.
    expect(series(text, 'lookup_graph_upstream_ratelimit_remaining')).toEqual([
      { labels: '', value: BUDGET - upstream.calls.length },
    ]);
    expect(series(text, 'lookup_graph_quota_remaining')).toEqual([{ labels: '{client="team"}', value: 0 }]);
    // Every named client with a quota has its limit, from the start.
    expect(series(text, 'lookup_graph_quota_limit')).toEqual([
      { labels: '{client="team",window="day"}', value: QUOTA },
      { labels: '{client="spare",window="day"}', value: 5 },
    ]);
    // Charged calls: the named clients each have their series, the quota's client its 3.
    expect(series(text, 'lookup_graph_quota_calls_charged_total')).toEqual([
      { labels: '{client="team"}', value: QUOTA },
      { labels: '{client="burst"}', value: 0 },
      { labels: '{client="other"}', value: 0 },
      { labels: '{client="spare"}', value: 0 },
    ]);
    // Nothing is in flight in either worker; the calls each made add up to the upstream's count.
    expect(series(text, 'lookup_graph_upstream_in_flight')).toEqual([{ labels: '', value: 0 }]);
    expect(total(text, 'lookup_graph_upstream_calls_total')).toBe(upstream.calls.length);
  });

  it('answers the rate limit once for the whole process group: exactly N of many requests on fresh connections', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT * 3; i++)
      statuses.push((await queryOnce(port, '{ __typename }', { 'x-api-key': BURST })).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(RATE_LIMIT * 2);
  });

  it('while the primary does not answer, a worker refuses to pay for a call it cannot count (OVERLOADED) and counts the rate limit alone', async () => {
    // One kept-alive connection to one worker: with the primary stopped, nobody hands out new connections.
    const agent = new Agent({ connections: 1 });
    const post = async (key: string, query: string) => {
      const { statusCode, body } = await request(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ query }),
      });
      return { status: statusCode, body: (await body.json()) as any };
    };
    try {
      expect((await post(SPARE, '{ domainInfo(domain: "spare-0.example") { domainName } }')).status).toBe(200);
      expect(callsFor('spare')).toBe(1);
      process.kill(gateway.child.pid!, 'SIGSTOP');
      try {
        const refused = await post(SPARE, '{ domainInfo(domain: "spare-1.example") { domainName } }');
        expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'OVERLOADED', retryAfter: 1 });
        expect(callsFor('spare')).toBe(1);
        // The rate limit fails open to the worker's own count: a request is answered, not failed.
        const answered = await post(OTHER, '{ __typename }');
        expect(answered).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
      } finally {
        process.kill(gateway.child.pid!, 'SIGCONT');
      }
      // The questions the primary read late were dropped, not counted: the client spent 1 call of its 5.
      const again = await post(SPARE, '{ domainInfo(domain: "spare-2.example") { domainName } }');
      expect(again.body.data.domainInfo.domainName).toBe('spare-2.example');
      expect(again.body.extensions.gateway.quota).toMatchObject({ limit: 5, remaining: 3 });
      expect(callsFor('spare')).toBe(2);
    } finally {
      await agent.close();
    }
  });

  it("keeps a killed worker's counters in the totals, and its quota count with the primary", async () => {
    const before = await scrape();
    const calls = total(before, 'lookup_graph_upstream_calls_total');
    const operations = total(before, 'lookup_graph_graphql_operations_total');
    const requests = total(before, 'lookup_graph_graphql_request_duration_seconds_count');
    expect(calls).toBe(upstream.calls.length);
    const [victim] = childrenOf(gateway.child.pid!);
    process.kill(victim!, 'SIGKILL');
    await waitFor(
      () => (gateway.output().match(/Lookup Graph ready/g) ?? []).length === 3,
      30_000,
      'the new worker listening',
    );
    const after = await scrape();
    expect(total(after, 'lookup_graph_upstream_calls_total')).toBe(calls);
    expect(total(after, 'lookup_graph_graphql_operations_total')).toBe(operations);
    expect(total(after, 'lookup_graph_graphql_request_duration_seconds_count')).toBe(requests);
    // The quota is still spent, whichever worker answers.
    for (let i = 0; i < 4; i++) {
      const answer = await queryOnce(port, `{ domainInfo(domain: "team-after-${i}.example") { domainName } }`, {
        'x-api-key': TEAM,
      });
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('QUOTA_EXCEEDED');
    }
    expect(callsFor('team')).toBe(QUOTA);
  });
});
