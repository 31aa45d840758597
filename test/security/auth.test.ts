import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, hashApiKey } from '../../src/security/api-keys.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { upstreamGatewayFor } from '../support/fixtures.js';
import { expectNoLeak, expectRefused } from './support.js';

const KEY = 'lg_live_4f1c2a9e7b3d46c8a0e5f91b2c7d3e6a';
const OTHER_KEY = 'lg_live_other_client_key_000000000000';
const QUERY = '{ crmOwners(portal: "42") { id: ownerId } }';
const OWNERS = [{ id: '7', email: 'a@b.example', firstName: 'A', lastName: 'B', teams: [] }];

describe('API keys (GATEWAY_AUTH=api-key, production)', () => {
  let up: FaultUpstream;
  let gw: TestGateway;
  beforeAll(async () => {
    up = await startFaultUpstream();
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: OWNERS }));
    const file = join(tmpdir(), `lookup-graph-keys-${process.pid}.txt`);
    writeFileSync(file, `# the second client\n${hashApiKey(OTHER_KEY)}\n`);
    gw = await startGateway(
      upstreamEnv(up, {
        NODE_ENV: 'production',
        GATEWAY_AUTH: 'api-key',
        GATEWAY_API_KEY_HASHES: hashApiKey(KEY),
        GATEWAY_API_KEYS_FILE: file,
      }),
    );
    rmSync(file); // read at start-up
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  async function refused(headers: Record<string, string>) {
    const before = up.calls.length;
    const logsBefore = gw.logs.length;
    const res = await gw.query(QUERY, undefined, headers);
    expectRefused(res, 401, 'UNAUTHENTICATED', [KEY, OTHER_KEY, 'wrong-key-123']);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(up.calls.length - before).toBe(0);
    expect(gw.logs.slice(logsBefore).join('\n')).not.toContain('wrong-key-123');
    return res;
  }

  it('no key → 401 UNAUTHENTICATED, no upstream call', async () => {
    await refused({});
  });

  it('a wrong x-api-key → 401 UNAUTHENTICATED', async () => {
    await refused({ 'x-api-key': 'wrong-key-123' });
  });

  it('a wrong bearer key → 401 UNAUTHENTICATED', async () => {
    await refused({ authorization: 'Bearer wrong-key-123' });
  });

  it("the right key as x-api-key, and the file's key as a bearer key, are let in", async () => {
    for (const headers of [{ 'x-api-key': KEY }, { authorization: `Bearer ${OTHER_KEY}` }] as Record<
      string,
      string
    >[]) {
      const res = await gw.query(QUERY, undefined, headers);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ crmOwners: [{ id: '7' }] });
      expectNoLeak(res.text, [KEY, OTHER_KEY]);
    }
    expect(gw.logs.join('\n')).not.toContain(KEY);
  });

  it('the client key never goes upstream (the upstream gets ACTION_TOKEN)', async () => {
    const before = up.calls.length;
    const res = await gw.query(QUERY, undefined, { authorization: `Bearer ${KEY}` });
    expect(res.status).toBe(200);
    const calls = up.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.authorization).toBe(`Bearer ${up.token}`);
  });
});

describe('production without keys and without GATEWAY_AUTH', () => {
  it('stops start-up with a message naming the missing setting', async () => {
    const up = await startFaultUpstream();
    try {
      await expect(startGateway(upstreamEnv(up, { NODE_ENV: 'production' }))).rejects.toThrow(
        /GATEWAY_API_KEY_HASHES or GATEWAY_API_KEYS_FILE is required when NODE_ENV=production/,
      );
      expect(up.calls).toHaveLength(0);
    } finally {
      await up.close();
    }
  });

  it('GATEWAY_AUTH=none opens it explicitly', async () => {
    const up = await startFaultUpstream();
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: OWNERS }));
    const gw = await startGateway(upstreamEnv(up, { NODE_ENV: 'production', GATEWAY_AUTH: 'none' }));
    try {
      expect((await gw.query(QUERY)).status).toBe(200);
    } finally {
      await gw.close();
      await up.close();
    }
  });
});

describe("forward mode (GATEWAY_AUTH=forward): each client's own token goes upstream", () => {
  const ALICE = 'alice-upstream-token-aaaaaaaaaaaa';
  const BOB = 'bob-upstream-token-bbbbbbbbbbbbbb';
  const { up, gw } = upstreamGatewayFor({ NODE_ENV: 'production', GATEWAY_AUTH: 'forward' });
  beforeAll(() => up.handle((_call, _req, res) => json(res, 200, { status: 200, response: OWNERS })));

  it('no bearer token → 401 UNAUTHENTICATED, no upstream call', async () => {
    const res = await gw.query(QUERY, undefined, { 'x-api-key': 'not-a-bearer' });
    expectRefused(res, 401, 'UNAUTHENTICATED');
    expect(up.calls).toHaveLength(0);
  });

  it('the same lookup by two tokens: two upstream calls, each with its own token, none shared', async () => {
    const [alice, bob] = await Promise.all([
      gw.query(QUERY, undefined, { authorization: `Bearer ${ALICE}` }),
      gw.query(QUERY, undefined, { authorization: `Bearer ${BOB}` }),
    ]);
    expect(alice.body.data).toEqual({ crmOwners: [{ id: '7' }] });
    expect(bob.body.data).toEqual({ crmOwners: [{ id: '7' }] });
    expect(up.calls.map((call) => call.authorization).sort()).toEqual([`Bearer ${ALICE}`, `Bearer ${BOB}`]);
    expectNoLeak(alice.text, [ALICE, BOB]);
    expectNoLeak(bob.text, [ALICE, BOB]);
    // Asked again by Alice (the cache is off here): her own call, never one made with Bob's token.
    const again = await gw.query(QUERY, undefined, { authorization: `Bearer ${ALICE}` });
    expect(again.body.data).toEqual({ crmOwners: [{ id: '7' }] });
    expect(up.calls.slice(2).map((call) => call.authorization)).toEqual([`Bearer ${ALICE}`]);
    const logs = gw.logs.join('\n');
    expect(logs).not.toContain(ALICE);
    expect(logs).not.toContain(BOB);
  });
});

describe('ApiKeys', () => {
  it('matches only a key whose sha256 is listed, and names it by a digest prefix', () => {
    const keys = new ApiKeys([hashApiKey(KEY), hashApiKey(OTHER_KEY)]);
    expect(keys.match(KEY)).toBe(`key:${hashApiKey(KEY).slice(0, 12)}`);
    expect(keys.match(OTHER_KEY)).toBe(`key:${hashApiKey(OTHER_KEY).slice(0, 12)}`);
    expect(keys.match(`${KEY}x`)).toBeNull();
    expect(keys.match('')).toBeNull();
    expect(keys.match(hashApiKey(KEY))).toBeNull();
  });
});
