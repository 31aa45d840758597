import { createHmac } from 'node:crypto';
import { exportSPKI, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { sandboxCalls } from '../support/assertions.js';
import { startGateway } from '../support/gateway.js';
import { issuerAndGatewayFor, newSigningKey, startIssuer } from '../support/oidc-issuer.js';
import { expectNoLeak } from '../security/support.js';

const AUDIENCE = 'https://graph.example.test';
const TEAM_A = { id: 'team-a', secret: 'team-a-secret-0123456789abcdef' };
const TEAM_B = { id: 'team-b', secret: 'team-b-secret-0123456789abcdef' };
const API_KEY = 'lg_live_identity_test_key_0123456789';
const QUERY = '{ domainInfo(domain: "tokens.example") { domainName } }';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const now = () => Math.floor(Date.now() / 1000);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('signed tokens from a real authorization server', () => {
  const { issuer, gw } = issuerAndGatewayFor([TEAM_A, TEAM_B], AUDIENCE, {
    GATEWAY_API_KEY_HASHES: hashApiKey(API_KEY),
    CLIENT_RATE_LIMIT_PER_MINUTE: '0',
    SHED_EVENT_LOOP_DELAY_MS: '0',
  });

  it('a client-credentials token is accepted, and names its client in the request log', async () => {
    const token = await issuer.token(TEAM_A, AUDIENCE);
    const before = sandboxCalls(gw);
    const res = await gw.query(QUERY, undefined, bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ domainInfo: { domainName: 'tokens.example' } });
    expect(sandboxCalls(gw) - before).toBe(1);
    const line = gw.logs.map((text) => JSON.parse(text)).find((entry) => entry.request?.client === 'team-a');
    expect(line).toBeDefined();
    expect(gw.logs.join('\n')).not.toContain(token);
    // Keys still work beside tokens.
    expect((await gw.query(QUERY, undefined, { 'x-api-key': API_KEY })).status).toBe(200);
  });

  it('every token refused is a 401 with a code and reason, an invalid_token challenge and no upstream call', async () => {
    const key = issuer.currentKey();
    const valid = { iss: issuer.issuer, aud: AUDIENCE, client_id: 'team-a', exp: now() + 300, iat: now() };
    const real = await issuer.token(TEAM_A, AUDIENCE);
    const publicPem = await exportSPKI((await importJWK({ ...key.jwk, d: undefined }, 'ES256')) as CryptoKey);
    const hmacWith = (secret: string | Buffer) => {
      const head = `${b64({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${b64(valid)}`;
      return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
    };
    const stranger = await newSigningKey();
    const cases: Array<{ name: string; token: string; status: number; code: string; reason?: string }> = [
      {
        name: 'alg none',
        token: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(valid)}.`,
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'algorithm',
      },
      {
        name: "key-type confusion (HS256 keyed with the provider's public key)",
        token: hmacWith(publicPem),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'algorithm',
      },
      {
        name: 'wrong issuer',
        token: await issuer.sign({ ...valid, iss: 'https://other-issuer.example' }),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'issuer',
      },
      {
        name: 'wrong audience (a real token for another resource)',
        token: await issuer.token(TEAM_A, 'https://another-api.example'),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'audience',
      },
      {
        name: 'expired beyond the 30 s skew',
        token: await issuer.sign({ ...valid, exp: now() - 60, iat: now() - 400 }),
        status: 401,
        code: 'TOKEN_EXPIRED',
        reason: 'expired',
      },
      {
        name: 'not valid before a time beyond the skew',
        token: await issuer.sign({ ...valid, nbf: now() + 120 }),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'not-yet-valid',
      },
      {
        name: 'without exp',
        token: await issuer.sign({ iss: issuer.issuer, aud: AUDIENCE, client_id: 'team-a' }),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'claims',
      },
      {
        name: 'bad signature (a real token, its signature altered)',
        token: `${real.slice(0, real.lastIndexOf('.') + 1)}${Buffer.alloc(64, 7).toString('base64url')}`,
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'signature',
      },
      {
        name: "signed by a stranger's key under a known key id",
        token: await issuer.sign(valid, { key: stranger, kid: key.kid }),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'signature',
      },
      {
        name: 'an unknown key id',
        token: await issuer.sign(valid, { key: stranger }),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'unknown-key',
      },
      {
        name: 'malformed',
        token: 'eyJub3QiOiJqc29u.e30.c2ln',
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'malformed',
      },
      {
        name: 'names no client',
        token: await issuer.sign({ iss: issuer.issuer, aud: AUDIENCE, exp: now() + 300 }),
        status: 401,
        code: 'INVALID_TOKEN',
        reason: 'client',
      },
    ];
    const before = sandboxCalls(gw);
    const seen: string[] = [];
    for (const { name, token, status, code, reason } of cases) {
      const res = await gw.query(QUERY, undefined, bearer(token));
      seen.push(
        `${name}: ${res.status} ${res.body.errors?.[0]?.extensions?.code} ${res.body.errors?.[0]?.extensions?.reason}`,
      );
      expect({ name, status: res.status, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
        name,
        status,
        code,
      });
      expect(res.body.errors?.[0]?.extensions?.reason, name).toBe(reason);
      expect(res.body.data ?? undefined).toBeUndefined();
      expect(res.headers.get('www-authenticate'), name).toMatch(
        /^Bearer realm="lookup-graph", error="invalid_token", error_description="[^"]+"$/,
      );
      expectNoLeak(res.text, [token]);
      // An invalid token never falls back to a key: the valid key beside it changes nothing.
      const withKey = await gw.query(QUERY, undefined, { ...bearer(token), 'x-api-key': API_KEY });
      expect(withKey.status, name).toBe(status);
    }
    // No credential at all: 401 UNAUTHENTICATED with a bare challenge.
    const none = await gw.query(QUERY);
    expect({ status: none.status, code: none.body.errors?.[0]?.extensions?.code }).toEqual({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="lookup-graph"');
    expect(sandboxCalls(gw) - before).toBe(0);
    console.info(`refusals tried:\n  ${seen.join('\n  ')}`);
  });

  it('an expired token within the documented 30 s clock skew still passes', async () => {
    const token = await issuer.sign({
      iss: issuer.issuer,
      aud: AUDIENCE,
      client_id: 'team-a',
      exp: now() - 10,
      iat: now() - 300,
    });
    expect((await gw.query(QUERY, undefined, bearer(token))).status).toBe(200);
  });

  it('1,000 requests with made-up key ids cost at most one key-set fetch', async () => {
    const stranger = await newSigningKey();
    const fetchesBefore = issuer.fetches.jwks;
    const before = sandboxCalls(gw);
    let refused = 0;
    for (let round = 0; round < 20; round++) {
      const tokens = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          issuer.sign(
            { iss: issuer.issuer, aud: AUDIENCE, client_id: 'flood', exp: now() + 300 },
            { key: stranger, kid: `made-up-${round}-${i}` },
          ),
        ),
      );
      const answers = await Promise.all(tokens.map((token) => gw.query(QUERY, undefined, bearer(token))));
      refused += answers.filter(
        (res) => res.status === 401 && res.body.errors?.[0]?.extensions?.reason === 'unknown-key',
      ).length;
    }
    expect(refused).toBe(1000);
    expect(issuer.fetches.jwks - fetchesBefore).toBeLessThanOrEqual(1);
    expect(sandboxCalls(gw) - before).toBe(0);
    console.info(`1,000 made-up key ids: ${issuer.fetches.jwks - fetchesBefore} key-set fetch(es)`);
  });
});

describe('key rotation and a provider outage', () => {
  // No cooldown between fetches here: the rotation is seen at once (the flood above shows the cooldown).
  const { issuer, gw } = issuerAndGatewayFor(
    [TEAM_A],
    AUDIENCE,
    {},
    {
      security: { auth: { tokens: { refetchCooldownMs: 0 } } },
    },
  );

  it('a token signed by a rotated-in key is accepted after one key-set fetch; the old key still verifies', async () => {
    const old = await issuer.token(TEAM_A, AUDIENCE);
    expect((await gw.query(QUERY, undefined, bearer(old))).status).toBe(200);
    await issuer.rotate();
    const rotated = await issuer.token(TEAM_A, AUDIENCE);
    expect(rotated.split('.')[0]).not.toBe(old.split('.')[0]);
    const fetches = issuer.fetches.jwks;
    expect((await gw.query(QUERY, undefined, bearer(rotated))).status).toBe(200);
    expect(issuer.fetches.jwks - fetches).toBe(1);
    // Known now: no more fetches for either key.
    expect((await gw.query(QUERY, undefined, bearer(rotated))).status).toBe(200);
    expect((await gw.query(QUERY, undefined, bearer(old))).status).toBe(200);
    expect(issuer.fetches.jwks - fetches).toBe(1);
  });

  it('with the provider stopped, tokens of known keys still pass and /readyz stays ready', async () => {
    const token = await issuer.token(TEAM_A, AUDIENCE);
    const stranger = await newSigningKey();
    await issuer.stop();
    try {
      // An unknown key id tries the provider, which is down: refused, and the known keys stay.
      const unknown = await issuer.sign(
        { iss: issuer.issuer, aud: AUDIENCE, client_id: 'x', exp: now() + 300 },
        { key: stranger },
      );
      const refused = await gw.query(QUERY, undefined, bearer(unknown));
      expect(refused.status).toBe(401);
      expect(refused.body.errors?.[0]?.extensions?.reason).toBe('unknown-key');
      const res = await gw.query(QUERY, undefined, bearer(token));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ domainInfo: { domainName: 'tokens.example' } });
      const ready = await gw.fetch('/readyz');
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { reasons: string[] }).reasons).toContain('identity-provider-unreachable');
    } finally {
      await issuer.start();
    }
  });
});

describe('a gateway that starts while the provider is down', () => {
  it('is not ready and answers tokens 503 until a key set is loaded, then serves them', async () => {
    const issuer = await startIssuer([TEAM_A]);
    const token = await issuer.token(TEAM_A, AUDIENCE);
    await issuer.stop();
    const gw = await startGateway({ JWT_ISSUER: issuer.issuer, JWT_AUDIENCE: AUDIENCE }, 0, {
      security: { auth: { tokens: { refetchCooldownMs: 0 } } },
    });
    try {
      const before = sandboxCalls(gw);
      const ready = await gw.fetch('/readyz');
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { reasons: string[] }).reasons).toEqual(['identity-keys-not-loaded']);
      const res = await gw.query(QUERY, undefined, bearer(token));
      expect({ status: res.status, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
        status: 503,
        code: 'IDENTITY_PROVIDER_UNAVAILABLE',
      });
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(sandboxCalls(gw) - before).toBe(0);
      await issuer.start();
      expect((await gw.query(QUERY, undefined, bearer(token))).status).toBe(200);
      expect((await gw.fetch('/readyz')).status).toBe(200);
    } finally {
      await gw.close();
      await issuer.close();
    }
  });
});
