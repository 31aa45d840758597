import { describe, expect, it } from 'vitest';
import { inProcessGateway, type TestGateway } from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';
import { expectNoLeak, sandboxCalls } from './support.js';

const LISTED = 'https://app.example.com';
const QUERY = '{ domainInfo(domain: "example.com") { domainName } }';

function preflight(gw: TestGateway, origin: string) {
  return gw.fetch(`/graphql`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-api-key',
    },
  });
}

describe('CORS with an allowlist (CORS_ORIGINS)', () => {
  const gw = forSuite(() => inProcessGateway({ CORS_ORIGINS: `${LISTED}, https://admin.example.com` }));

  it('a preflight from an unlisted origin → 403 with no Access-Control-Allow-Origin', async () => {
    const res = await preflight(gw, 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a preflight from a listed origin → 204 naming that origin, without credentials', async () => {
    const res = await preflight(gw, LISTED);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(res.headers.get('access-control-allow-headers')).toContain('x-api-key');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('a request from an unlisted origin gets no CORS header (the browser withholds the answer)', async () => {
    const res = await gw.query(QUERY, undefined, { origin: 'https://evil.example' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const listed = await gw.query(QUERY, undefined, { origin: LISTED });
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('CORS by default: no cross-origin access', () => {
  const gw = forSuite(() => inProcessGateway());

  it('no origin is reflected, in a preflight or an answer', async () => {
    const res = await preflight(gw, 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await gw.query(QUERY, undefined, { origin: 'https://evil.example' });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('CSRF prevention', () => {
  const gw = forSuite(() => inProcessGateway());

  async function blocked(init: RequestInit, path = '/graphql') {
    const before = sandboxCalls(gw);
    const res = await gw.fetch(`${path}`, init);
    const text = await res.text();
    expect({ status: res.status, code: JSON.parse(text).errors?.[0]?.extensions?.code }).toEqual({
      status: 403,
      code: 'CSRF_HEADER_REQUIRED',
    });
    expect(sandboxCalls(gw) - before).toBe(0);
    expectNoLeak(text);
  }

  const getPath = `/graphql?query=${encodeURIComponent(QUERY)}`;

  it('a GET without the CSRF header → 403 CSRF_HEADER_REQUIRED', async () => {
    await blocked({ headers: { accept: 'application/json' } }, getPath);
  });

  it('a text/plain POST → 403 CSRF_HEADER_REQUIRED', async () => {
    await blocked({
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: QUERY }),
    });
  });

  it('a multipart POST → 403 CSRF_HEADER_REQUIRED', async () => {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: QUERY }));
    form.set('map', '{}');
    await blocked({ method: 'POST', body: form });
  });

  it('a form-urlencoded POST → 403 CSRF_HEADER_REQUIRED', async () => {
    await blocked({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent(QUERY)}`,
    });
  });

  it('a GET with the header, and a JSON POST (what GraphiQL sends), run', async () => {
    const get = await gw.fetch(`${getPath}`, { headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } });
    expect(get.status).toBe(200);
    expect((await gw.query(QUERY)).status).toBe(200);
  });

  it('the GraphiQL page itself still loads in development', async () => {
    const page = await gw.fetch(`/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/graphiql/i);
  });
});
