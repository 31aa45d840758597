import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 5 });
});
afterAll(() => sandbox.close());

async function call(action: string, body: unknown, token = sandbox.token) {
  const res = await fetch(`${sandbox.url}/v1/action/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('the built-in sandbox behaves like the live action service', () => {
  it('answers with the envelope and the rate-limit headers', async () => {
    const { status, headers, body } = await call('company_financial_profile', { company: 'AAPL, NOPE, nke' });
    expect(status).toBe(200);
    expect(body.status).toBe(200);
    // An unknown symbol is simply missing from the array.
    expect(body.response.map((p: { symbol: string }) => p.symbol)).toEqual(['AAPL', 'NKE']);
    expect(headers.get('ratelimit-limit')).toBe('5');
    expect(Number(headers.get('ratelimit-remaining'))).toBeLessThan(5);
    expect(Number(headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(headers.get('ratelimit-reset-date')).toMatch(/GMT$/);
  });

  it('refuses a wrong token with the 403 envelope', async () => {
    const { status, body } = await call('domain_info', { domain: 'example.com' }, 'wrong');
    expect(status).toBe(403);
    expect(body).toEqual({ status: 403, response: null, error: 'Invalid or missing access token.' });
  });

  it('refuses a missing field with the 400 envelope', async () => {
    const { status, body } = await call('get_search_news', { query: 'x' });
    expect(status).toBe(400);
    expect(body).toEqual({ status: 400, response: null, error: 'Missing required field: date_range.' });
  });

  it("answers 429 with retry-after once the minute's budget is spent", async () => {
    let last = await call('domain_info', { domain: 'a.example' });
    for (let i = 0; i < 6 && last.status !== 429; i += 1) last = await call('domain_info', { domain: 'a.example' });
    expect(last.status).toBe(429);
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.body).toEqual({ status: 429, response: null, error: 'Too many requests.' });
  });
});
