import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { persistedDocumentsOf } from '../../src/security/trusted-documents.js';
import { sandboxCalls } from '../support/assertions.js';
import { configProblems } from '../support/config.js';
import { json, startFaultUpstream, upstreamEnv } from '../support/fault-upstream.js';
import { startGateway } from '../support/gateway.js';
import { issuerAndGatewayFor, startIssuer } from '../support/oidc-issuer.js';

const AUDIENCE = 'https://graph.example.test';
const TEAM_A = { id: 'team-a', secret: 'team-a-secret-0123456789abcdef' };
const TEAM_B = { id: 'team-b', secret: 'team-b-secret-0123456789abcdef' };
const TEAM_C = { id: 'team-c', secret: 'team-c-secret-0123456789abcdef' };
const NARROW = { id: 'narrow', secret: 'narrow-secret-0123456789abcdef', scope: 'other' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const domain = (name: string) => `{ domainInfo(domain: "${name}") { domainName } }`;

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lg-identity-')), name);
  writeFileSync(path, text);
  return path;
}

describe("clients named by their token's claim: quotas, scope, log and metrics", () => {
  const { issuer, gw } = issuerAndGatewayFor([TEAM_A, TEAM_B, TEAM_C, NARROW], AUDIENCE, {
    JWT_REQUIRED_SCOPE: 'lookups',
    CLIENT_QUOTA: '3/day',
    // A team's own quota, by name, in the one file of keys and named clients.
    GATEWAY_API_KEYS_FILE: file('keys', 'name=team-c quota=5/day  # signs in with a token, no key\n'),
    CLIENT_RATE_LIMIT_PER_MINUTE: '0',
    SHED_EVENT_LOOP_DELAY_MS: '0',
  });

  it('CLIENT_QUOTA=3/day: the first client is refused QUOTA_EXCEEDED after 3 paid calls while the second is served', async () => {
    const a = bearer(await issuer.token(TEAM_A, AUDIENCE));
    const b = bearer(await issuer.token(TEAM_B, AUDIENCE));
    const before = sandboxCalls(gw);
    for (let i = 1; i <= 3; i++) {
      const res = await gw.query(domain(`a-${i}.example`), undefined, a);
      expect(res.status).toBe(200);
      expect(res.body.extensions?.gateway?.quota).toMatchObject({ limit: 3, remaining: 3 - i });
    }
    expect(sandboxCalls(gw) - before).toBe(3);
    const spent = await gw.query(domain('a-4.example'), undefined, a);
    expect(spent.status).toBe(429);
    expect(spent.body.errors?.[0]?.extensions).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: 3, remaining: 0 });
    expect(sandboxCalls(gw) - before).toBe(3);
    const served = await gw.query(domain('b-1.example'), undefined, b);
    expect(served.status).toBe(200);
    expect(served.body.data).toEqual({ domainInfo: { domainName: 'b-1.example' } });
    expect(served.body.extensions?.gateway?.quota).toMatchObject({ limit: 3, remaining: 2 });
    expect(sandboxCalls(gw) - before).toBe(4);

    const clients = new Set(gw.logs.map((text) => JSON.parse(text).request?.client).filter(Boolean));
    expect(clients).toEqual(new Set(['team-a', 'team-b']));
    const metrics = await (await gw.fetch('/metrics')).text();
    expect(metrics).toMatch(/lookup_graph_quota_calls_charged_total\{client="team-a"\} 3\n/);
    expect(metrics).toMatch(/lookup_graph_quota_calls_charged_total\{client="team-b"\} 1\n/);
    expect(metrics).toMatch(/lookup_graph_quota_remaining\{client="team-a"\} 0\n/);
    expect(metrics).toMatch(/lookup_graph_identity_key_set_fetches_total\{outcome="ok"\} 1\n/);
  });

  it("a team's quota is set by its name in the keys file", async () => {
    const res = await gw.query(domain('c-1.example'), undefined, bearer(await issuer.token(TEAM_C, AUDIENCE)));
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"calls";q=5;w=86400');
    expect(res.body.extensions?.gateway?.quota).toMatchObject({ limit: 5, remaining: 4 });
  });

  it('JWT_REQUIRED_SCOPE: a token without the scope is 403 INSUFFICIENT_SCOPE, before any call', async () => {
    const before = sandboxCalls(gw);
    const token = await issuer.token(NARROW, AUDIENCE, 'other');
    const res = await gw.query(domain('narrow.example'), undefined, bearer(token));
    expect({ status: res.status, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
    });
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="lookups"/);
    expect(sandboxCalls(gw) - before).toBe(0);
  });
});

describe('ANONYMOUS_ACCESS=trusted-documents: a public page with no secret', () => {
  const TRUSTED = 'query PageDomain { domainInfo(domain: "public.example") { domainName } }';
  const documents = persistedDocumentsOf([TRUSTED]);
  const [documentId] = Object.keys(documents);
  const { issuer, gw } = issuerAndGatewayFor([TEAM_A], AUDIENCE, {
    TRUSTED_DOCUMENTS_FILE: file('trusted.json', JSON.stringify(documents)),
    ANONYMOUS_ACCESS: 'trusted-documents',
    CLIENT_QUOTA: '100/day',
    SHED_EVENT_LOOP_DELAY_MS: '0',
  });

  it('a trusted document answers without a token, counted on the shared anonymous quota', async () => {
    const res = await gw.post(JSON.stringify({ documentId }));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'public.example' } });
    expect(res.body.extensions?.gateway?.quota).toMatchObject({ limit: 100 });
    expect(gw.logs.some((text) => JSON.parse(text).request?.client === 'anonymous')).toBe(true);
  });

  it('anything else without a token is 401 with the challenge, before any call', async () => {
    const before = sandboxCalls(gw);
    for (const body of [
      { query: domain('raw.example') },
      { documentId: `sha256:${'0'.repeat(64)}` },
      { documentId, query: domain('raw.example') },
      {},
    ]) {
      const res = await gw.post(JSON.stringify(body));
      expect({ body, status: res.status, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
        body,
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="lookup-graph"/);
    }
    expect(sandboxCalls(gw) - before).toBe(0);
    // /mcp is never anonymous.
    const mcp = await gw.fetch('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
  });

  it('a signed-in client runs the same document; a bad token is never taken as anonymous', async () => {
    const token = await issuer.token(TEAM_A, AUDIENCE);
    const res = await gw.post(JSON.stringify({ documentId }), bearer(token));
    expect(res.status).toBe(200);
    const bad = await gw.post(JSON.stringify({ documentId }), bearer(`${token.slice(0, -4)}AAAA`));
    expect({ status: bad.status, code: bad.body.errors?.[0]?.extensions?.code }).toEqual({
      status: 401,
      code: 'INVALID_TOKEN',
    });
  });
});

describe('the Federation subgraph endpoint (FEDERATION=true) takes the same tokens', () => {
  it('a token is accepted, none is 401', async () => {
    const issuer = await startIssuer([TEAM_A]);
    const gw = await startGateway({ JWT_ISSUER: issuer.issuer, JWT_AUDIENCE: AUDIENCE, FEDERATION: 'true' });
    try {
      const sdl = '{ _service { sdl } }';
      expect((await gw.query(sdl)).status).toBe(401);
      const res = await gw.query(sdl, undefined, bearer(await issuer.token(TEAM_A, AUDIENCE)));
      expect(res.status).toBe(200);
      expect(res.body.data?._service?.sdl).toContain('@key');
    } finally {
      await gw.close();
      await issuer.close();
    }
  });
});

describe('settings of signed tokens', () => {
  it('NODE_ENV=production starts with JWT settings alone, no API key', async () => {
    const issuer = await startIssuer([TEAM_A]);
    const up = await startFaultUpstream();
    up.handle((call, _req, res) => json(res, 200, { status: 200, response: { domainName: call.body.domain } }));
    const gw = await startGateway(
      upstreamEnv(up, { NODE_ENV: 'production', JWT_ISSUER: issuer.issuer, JWT_AUDIENCE: AUDIENCE }),
    );
    try {
      const refused = await gw.query(domain('prod.example'));
      expect(refused.status).toBe(401);
      expect(up.calls).toHaveLength(0);
      const res = await gw.query(domain('prod.example'), undefined, bearer(await issuer.token(TEAM_A, AUDIENCE)));
      expect(res.status).toBe(200);
      expect(up.calls).toHaveLength(1);
    } finally {
      await gw.close();
      await up.close();
      await issuer.close();
    }
  });

  it('bad or conflicting settings stop start-up, each named', () => {
    const issuer = 'https://login.example.com/';
    expect(configProblems({ JWT_ISSUER: issuer })).toEqual([
      'JWT_AUDIENCE (or PUBLIC_URL) is required with JWT_ISSUER or JWT_JWKS_URL: a token must be meant for this gateway',
    ]);
    expect(configProblems({ JWT_AUDIENCE: AUDIENCE })[0]).toMatch(/JWT_AUDIENCE need JWT_ISSUER or JWT_JWKS_URL/);
    expect(configProblems({ JWT_ISSUER: 'login.example.com', JWT_AUDIENCE: AUDIENCE })[0]).toMatch(
      /JWT_ISSUER must be an absolute http\(s\) URL/,
    );
    expect(configProblems({ JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE, GATEWAY_AUTH: 'forward' })[0]).toMatch(
      /cannot be combined with GATEWAY_AUTH=forward/,
    );
    expect(configProblems({ JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE, JWT_SECRET: 'short' })[0]).toMatch(
      /JWT_SECRET must be at least 32 bytes/,
    );
    expect(
      configProblems({ JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE, ANONYMOUS_ACCESS: 'trusted-documents' }),
    ).toEqual([
      'ANONYMOUS_ACCESS=trusted-documents needs TRUSTED_DOCUMENTS_FILE: the documents anonymous requests may run',
    ]);
    expect(configProblems({ JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE, PUBLIC_URL: 'graph.example.com' })[0]).toMatch(
      /PUBLIC_URL must be the gateway's public http\(s\) address/,
    );
    expect(configProblems({ JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE })).toEqual([]);
    expect(
      configProblems({ JWT_JWKS_URL: 'https://login.example.com/keys', PUBLIC_URL: 'https://graph.example.com' }),
    ).toEqual([]);
  });
});
