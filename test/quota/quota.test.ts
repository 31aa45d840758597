import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { sandboxCalls } from '../support/assertions.js';
import { forSuite, it } from '../support/fixtures.js';
import { inProcessGateway, type GraphQLResponse } from '../support/gateway.js';
import { configProblems } from '../support/config.js';

const LIMITED = 'team-a-key-0123456789';
const UNLIMITED = 'team-b-key-0123456789';
const DEFAULTED = 'plain-key-0123456789';

function keysFile(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'lg-quota-')), 'keys');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const domain = (name: string) => `{ domainInfo(domain: "${name}") { domainName } }`;

function expectHeaders(res: GraphQLResponse, limit: number, remaining: number) {
  expect(res.headers.get('ratelimit-policy')).toBe(`"calls";q=${limit};w=86400`);
  const match = /^"calls";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '');
  expect(match, res.headers.get('ratelimit') ?? 'no RateLimit header').not.toBeNull();
  expect(Number(match![1])).toBe(remaining);
  expect(Number(match![2])).toBeGreaterThanOrEqual(1);
  expect(Number(match![2])).toBeLessThanOrEqual(86_400);
  expect(res.body.extensions?.gateway?.quota).toEqual({ limit, remaining, resetSeconds: Number(match![2]) });
}

describe('quotas of paid calls, in one process', () => {
  const gw = forSuite(() =>
    inProcessGateway({
      GATEWAY_API_KEYS_FILE: keysFile([
        `${hashApiKey(LIMITED)} name=team-a quota=3/day  # a small quota`,
        `${hashApiKey(UNLIMITED)} name=team-b quota=none`,
        hashApiKey(DEFAULTED),
      ]),
      CLIENT_QUOTA: '1000/day',
      CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      // The quota is under test, not load shedding: a busy shared machine must not shed these requests.
      SHED_EVENT_LOOP_DELAY_MS: '0',
    }),
  );
  const as = (key: string) => ({ 'x-api-key': key });

  it('charges each call made, nothing for what the cache answers, one for a batch of symbols; then refuses what needs the upstream', async () => {
    const before = sandboxCalls(gw);
    const first = await gw.query(domain('quota-one.com'), undefined, as(LIMITED));
    expect(first.status).toBe(200);
    expectHeaders(first, 3, 2);
    // Cached: free.
    const again = await gw.query(domain('quota-one.com'), undefined, as(LIMITED));
    expect(again.body.data?.domainInfo?.domainName).toBe('quota-one.com');
    expectHeaders(again, 3, 2);
    // Five symbols in one call: one charge.
    const symbols = await gw.query(
      '{ financialProfiles(symbols: ["AAPL", "MSFT", "NKE", "IBM", "ORCL"]) { symbol } }',
      undefined,
      as(LIMITED),
    );
    expect(symbols.body.data?.financialProfiles).toHaveLength(5);
    expectHeaders(symbols, 3, 1);
    expect(sandboxCalls(gw) - before).toBe(2);

    // One cached lookup and two that need the upstream, one call left: the cached one resolves, one call is made, one refused at its field.
    const mixed = await gw.query(
      `{ a: domainInfo(domain: "quota-one.com") { domainName } b: domainInfo(domain: "quota-two.com") { domainName } c: domainInfo(domain: "quota-three.com") { domainName } }`,
      undefined,
      as(LIMITED),
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body.data?.a).toEqual({ domainName: 'quota-one.com' });
    const refused = mixed.body.errors ?? [];
    expect(refused).toHaveLength(1);
    expect(refused[0]!.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 3, remaining: 0 });
    expect(sandboxCalls(gw) - before).toBe(3);
    expectHeaders(mixed, 3, 0);

    // Spent: an operation whose every lookup needs the upstream is 429 with Retry-After, nothing sent.
    const spent = await gw.query(domain('quota-four.com'), undefined, as(LIMITED));
    expect(spent.status).toBe(429);
    const error = spent.body.errors![0]!;
    expect(error.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 3, remaining: 0 });
    expect(error.extensions!.retryAfter).toBe(error.extensions!.resetSeconds);
    expect(spent.headers.get('retry-after')).toBe(String(error.extensions!.retryAfter));
    expect(spent.body.data).toEqual({ domainInfo: null });
    expectHeaders(spent, 3, 0);
    expect(sandboxCalls(gw) - before).toBe(3);

    // What the cache holds is still answered.
    const cached = await gw.query(domain('quota-one.com'), undefined, as(LIMITED));
    expect(cached.status).toBe(200);
    expect(cached.body.data?.domainInfo?.domainName).toBe('quota-one.com');

    // quota=none: no quota, no headers; a key without a quota= takes CLIENT_QUOTA.
    const free = await gw.query(domain('quota-four.com'), undefined, as(UNLIMITED));
    expect(free.body.data?.domainInfo?.domainName).toBe('quota-four.com');
    expect(free.headers.get('ratelimit')).toBeNull();
    expect(free.body.extensions?.gateway?.quota).toBeUndefined();
    const defaulted = await gw.query(domain('quota-five.com'), undefined, as(DEFAULTED));
    expect(defaulted.headers.get('ratelimit-policy')).toBe('"calls";q=1000;w=86400');
  });

  it('refuses before any call an operation whose estimate is more than the whole quota', async () => {
    const before = sandboxCalls(gw);
    const aliases = Array.from(
      { length: 4 },
      (_, i) => `d${i}: domainInfo(domain: "whole-${i}.com") { domainName }`,
    ).join(' ');
    const res = await gw.query(`{ ${aliases} }`, undefined, as(LIMITED));
    expect(res.status).toBe(400);
    expect(res.body.errors![0]!.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', cost: 4, limit: 3 });
    expect(sandboxCalls(gw) - before).toBe(0);
  });

  it('names the client in the request log and in /metrics, never its key or digest', async () => {
    const line = gw.logs.map((text) => JSON.parse(text)).find((entry) => entry.request?.client === 'team-a');
    expect(line).toBeDefined();
    const metrics = await (await gw.fetch('/metrics')).text();
    expect(metrics).toMatch(/lookup_graph_quota_calls_charged_total\{client="team-a"\} 3/);
    expect(metrics).toMatch(/lookup_graph_quota_remaining\{client="team-a"\} 0/);
    expect(metrics).not.toContain(hashApiKey(LIMITED).slice(0, 12));
    expect(gw.logs.join('\n')).not.toContain(hashApiKey(LIMITED).slice(0, 12));
  });
});

describe('quota settings', () => {
  it('a bad quota stops start-up, naming the line', () => {
    const file = keysFile([
      `${hashApiKey('a')} name=ok`,
      `${hashApiKey('b')} quota=12/week`,
      `${hashApiKey('c')} colour=red`,
    ]);
    const problems = configProblems({ GATEWAY_API_KEYS_FILE: file });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/GATEWAY_API_KEYS_FILE line 2: a quota is N\/minute\|hour\|day\|month/);
    expect(problems[1]).toMatch(/GATEWAY_API_KEYS_FILE line 3: unknown setting "colour"/);
    expect(configProblems({ CLIENT_QUOTA: '5000/fortnight', GATEWAY_API_KEY_HASHES: hashApiKey('a') })[0]).toMatch(
      /^CLIENT_QUOTA: /,
    );
    expect(configProblems({ CLIENT_QUOTA: '5000/day', GATEWAY_AUTH: 'none' })[0]).toMatch(/CLIENT_QUOTA needs clients/);
  });

  it('keys sharing a name must give the same quota', () => {
    const file = keysFile([`${hashApiKey('a')} name=team quota=10/day`, `${hashApiKey('b')} name=team quota=20/day`]);
    expect(configProblems({ GATEWAY_API_KEYS_FILE: file })).toEqual([
      'GATEWAY_API_KEYS_FILE line 2: the keys named "team" share one quota, so each must give the same quota',
    ]);
  });
});
