import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteKeySet } from '../../src/security/tokens/key-set.js';
import { startIssuer, type TestIssuer } from '../support/oidc-issuer.js';

const CLIENT = { id: 'keys-client', secret: 'keys-client-secret-0123456789abc' };
const AUDIENCE = 'https://graph.example.test';

describe('the key set past its age while the provider is down', () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await startIssuer([CLIENT]);
  });
  afterAll(() => issuer?.close());

  it('keeps verifying with the keys it holds, tries the provider at most once per cooldown, and recovers', async () => {
    let clock = Date.now();
    const keys = new RemoteKeySet({
      issuer: issuer.issuer,
      jwksUrl: null,
      cooldownMs: 30_000,
      timeoutMs: 2_000,
      now: () => clock,
    });
    const token = await issuer.token(CLIENT, AUDIENCE);
    await jwtVerify(token, keys.getKey, { issuer: issuer.issuer, audience: AUDIENCE });
    expect(keys.status()).toMatchObject({ loaded: true, healthy: true, fetches: 2 });
    expect(issuer.fetches).toEqual({ discovery: 1, jwks: 1 });

    await issuer.stop();
    // An hour later: far past the 10-minute age (no Cache-Control) and the cooldown.
    clock += 60 * 60_000;
    for (let i = 0; i < 20; i++) await jwtVerify(token, keys.getKey, { issuer: issuer.issuer, audience: AUDIENCE });
    await keys.refresh();
    // One background attempt for the twenty verifications (it failed), none more within the cooldown.
    expect(keys.status()).toMatchObject({ loaded: true, healthy: false, fetches: 3 });

    await issuer.start();
    clock += 31_000;
    await keys.refresh();
    expect(keys.status()).toMatchObject({ loaded: true, healthy: true, fetches: 4 });
    expect(issuer.fetches.jwks).toBe(2);
  });
});
