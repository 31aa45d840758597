import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { regularMediaType } from '../../src/replay-route.js';
import { json, type FaultUpstream } from '../support/fault-upstream.js';
import type { GraphQLResponse, RunningGateway } from '../support/gateway.js';
import { upstreamGatewayFor } from '../support/fixtures.js';
import { expectRefused } from '../security/support.js';

const DOMAIN_QUERY = 'query Domain($domain: String!) { domainInfo(domain: $domain) { domainName registrar { name } } }';
const ORIGIN = 'https://app.example';

/** Replays by where they were answered: before Yoga (http) or inside its execution (yoga). */
async function replays(gw: RunningGateway): Promise<{ http: number; yoga: number }> {
  // From the registry: in production the public port serves no /metrics.
  const text = await gw.gateway.metrics.registry.metrics();
  const count = (path: string) => Number(new RegExp(`^lookup_graph_result_replays_total\\{path="${path}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { http: count('http'), yoga: count('yoga') };
}

/** Every domain answers with the call that made it, so a replay of stale data would show. */
function answerDomains(up: FaultUpstream) {
  let call = 0;
  up.handle((request, _req, res) => {
    call += 1;
    return json(res, 200, { status: 200, response: { domain_name: request.body.domain, domain_registrar: { registrar_name: `call ${call}` } } });
  });
}

/** What a response shows a client, without the lookups' ages (a second may pass between two requests). */
function shown(res: GraphQLResponse) {
  const gateway = res.body.extensions?.gateway;
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    cacheControl: res.headers.get('cache-control'),
    vary: res.headers.get('vary'),
    allowOrigin: res.headers.get('access-control-allow-origin'),
    data: res.body.data,
    gateway: gateway && { ...gateway, lookups: gateway.lookups.map(({ ageSeconds: _age, ...lookup }: Record<string, unknown>) => lookup) },
  };
}

describe('the replay route: a remembered operation answered before Yoga', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', CORS_ORIGINS: ORIGIN, COMPRESS_MIN_BYTES: '200' });
  beforeAll(() => answerDomains(rig.up));
  let domains = 0;

  it.each([
    ['no Accept', {}],
    ['Accept: */*', { accept: '*/*' }],
    ['Accept: application/json', { accept: 'application/json' }],
    ["Apollo Client's Accept", { accept: 'application/graphql-response+json,application/json;q=0.9' }],
    ["urql's Accept", { accept: 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed' }],
    ['a listed Origin', { origin: ORIGIN }],
    ['an unlisted Origin', { origin: 'https://evil.example' }],
  ])('answers as Yoga did, with %s', async (_label, headers: Record<string, string>) => {
    const { gw } = rig;
    domains += 1;
    const variables = { domain: `same-${domains}.example` };
    const post = () => gw.post(JSON.stringify({ query: DOMAIN_QUERY, variables }), { accept: '', ...headers });
    await post(); // runs upstream
    const remembered = await post(); // from the cache, through Yoga: remembered now
    const before = await replays(gw);
    const replayed = await post();
    expect(await replays(gw)).toEqual({ ...before, http: before.http + 1 });
    expect(shown(replayed)).toEqual(shown(remembered));
    expect(replayed.body.extensions!.gateway.lookups[0].source).toBe('cache');
    expect(replayed.text).toBe(remembered.text.replace(/"ageSeconds":\d+/, `"ageSeconds":${replayed.body.extensions!.gateway.lookups[0].ageSeconds}`));
  });

  it('compresses a large replay for a client that accepts br, as Yoga compresses it', async () => {
    const { gw } = rig;
    const query = `${DOMAIN_QUERY} # ${'padding '.repeat(10)}`;
    const variables = { domain: 'compressed.example' };
    const raw = async () => {
      const res = await fetch(`${gw.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'br' },
        body: JSON.stringify({ query, variables }),
      });
      // fetch decodes br itself: the bytes as sent are read below, with node:http.
      return { encoding: res.headers.get('content-encoding'), vary: res.headers.get('vary'), body: JSON.parse(await res.text()) };
    };
    await raw();
    const remembered = await raw();
    const before = await replays(gw);
    const replayed = await raw();
    expect((await replays(gw)).http).toBe(before.http + 1);
    expect(replayed.encoding).toBe('br');
    expect({ encoding: replayed.encoding, vary: replayed.vary, data: replayed.body.data }).toEqual({
      encoding: remembered.encoding,
      vary: remembered.vary,
      data: remembered.body.data,
    });
    // The bytes on the wire are brotli: decoded by hand from a client that does not decode.
    const wire = await new Promise<Buffer>((resolve, reject) => {
      const body = JSON.stringify({ query, variables });
      const req = request(`${gw.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'br', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(JSON.parse(brotliDecompressSync(wire).toString('utf8')).data).toEqual(remembered.body.data);
  });

  it('hands Yoga what it does not replay: a stream Accept, a batch, a document id, bad JSON, an unexpected parameter', async () => {
    const { gw } = rig;
    const body = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'handed.example' } });
    await gw.post(body);
    await gw.post(body);
    const before = await replays(gw);

    const sse = await gw.post(body, { accept: 'text/event-stream' });
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.text).toContain('handed.example');
    // Yoga ran it and answered from the remembered result inside its execution.
    expect(await replays(gw)).toEqual({ http: before.http, yoga: before.yoga + 1 });

    expectRefused(await gw.post(`[${body}]`), 400, 'BATCHING_DISABLED');
    expectRefused(await gw.post('{"query": '), 400, 'BAD_REQUEST');
    // An empty body goes to Yoga unread (whatwg-node would wait for the spent stream of an empty one).
    expect((await gw.post('')).status).toBe(400);
    const unexpected = await gw.post(JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'handed.example' }, documentId: 'sha256:00' }));
    expect(unexpected.status).toBe(400);
    const badExtensions = await gw.post(JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'handed.example' }, extensions: 'x' }));
    expect(badExtensions.status).toBe(400);
    expect((await replays(gw)).http).toBe(before.http);
    // extensions as clients send them (Apollo's clientLibrary) are no reason to go through Yoga.
    const withExtensions = await gw.post(
      JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'handed.example' }, extensions: { clientLibrary: { name: '@apollo/client' } } }),
    );
    expect(withExtensions.body.data!.domainInfo.domainName).toBe('handed.example');
    expect((await replays(gw)).http).toBe(before.http + 1);
  });

  it('keeps serving when a client goes away in the middle of a body the route is reading', async () => {
    const { gw } = rig;
    const { port } = new URL(gw.url);
    for (const cut of ['destroy', 'reset'] as const) {
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write('POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"query":"{ __typ');
          setTimeout(() => {
            if (cut === 'reset') socket.resetAndDestroy();
            else socket.destroy();
            resolve();
          }, 50);
        });
        socket.on('error', reject);
      });
    }
    const res = await gw.post(JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'still-here.example' } }));
    expect(res.body.data!.domainInfo.domainName).toBe('still-here.example');
  });

  it('logs and counts a replayed request as Yoga does', async () => {
    const { gw } = rig;
    const body = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'logged.example' } });
    await gw.post(body);
    await gw.post(body);
    const logsBefore = gw.logs.length;
    const before = await replays(gw);
    await gw.post(body, { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    expect((await replays(gw)).http).toBe(before.http + 1);
    const lines = gw.logs
      .slice(logsBefore)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'graphql request');
    expect(lines).toHaveLength(1);
    expect(lines[0].request).toMatchObject({
      operation: 'Domain',
      operationType: 'query',
      status: 200,
      upstreamCalls: 0,
      cost: { estimated: 1 },
      errorCodes: [],
      traceId: '0af7651916cd43dd8448eb211c80319c',
    });
    const metrics = await gw.gateway.metrics.registry.metrics();
    expect(metrics).toMatch(/^lookup_graph_graphql_operations_total\{outcome="ok"\} \d+/m);
  });
});

describe('the replay route keeps every protection of the request itself', () => {
  describe('API keys', () => {
    const KEY = 'lg_live_replay_route_key_0123456789abcdef';
    const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', NODE_ENV: 'production', GATEWAY_AUTH: 'api-key', GATEWAY_API_KEY_HASHES: hashApiKey(KEY) });
    beforeAll(() => answerDomains(rig.up));

    it('refuses a remembered operation without a valid key, and replays it with one', async () => {
      const { gw } = rig;
      const body = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'keyed.example' } });
      await gw.post(body, { 'x-api-key': KEY });
      await gw.post(body, { 'x-api-key': KEY });
      expectRefused(await gw.post(body), 401, 'UNAUTHENTICATED', [KEY]);
      expectRefused(await gw.post(body, { 'x-api-key': 'not-a-key-000' }), 401, 'UNAUTHENTICATED', [KEY]);
      expectRefused(await gw.post(body, { authorization: 'Bearer not-a-key-000' }), 401, 'UNAUTHENTICATED', [KEY]);
      const before = await replays(gw);
      const replayed = await gw.post(body, { authorization: `Bearer ${KEY}` });
      expect(replayed.body.data!.domainInfo.domainName).toBe('keyed.example');
      expect(replayed.headers.get('cache-control')).toMatch(/^private, /);
      expect((await replays(gw)).http).toBe(before.http + 1);
    });
  });

  describe('forwarded tokens', () => {
    const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', GATEWAY_AUTH: 'forward' });
    beforeAll(() => answerDomains(rig.up));

    it("never replays one token's result to another token", async () => {
      const { gw, up } = rig;
      const body = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'owned.example' } });
      const asA = { authorization: 'Bearer token-a-1234567890' };
      const asB = { authorization: 'Bearer token-b-1234567890' };
      await gw.post(body, asA);
      await gw.post(body, asA);
      const before = await replays(gw);
      const a = await gw.post(body, asA);
      expect((await replays(gw)).http).toBe(before.http + 1);
      const calls = up.calls.length;
      const b = await gw.post(body, asB);
      expect(up.calls.slice(calls).map((call) => call.authorization)).toEqual(['Bearer token-b-1234567890']);
      expect(b.body.extensions!.gateway.lookups[0].source).toBe('upstream');
      expect(b.body.data!.domainInfo.registrar.name).not.toBe(a.body.data!.domainInfo.registrar.name);
      expectRefused(await gw.post(body), 401, 'UNAUTHENTICATED');
    });
  });

  describe('the client rate limit', () => {
    const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', CLIENT_RATE_LIMIT_PER_MINUTE: '5' });
    beforeAll(() => answerDomains(rig.up));

    it('counts every request once, replayed or handed to Yoga, and refuses the one over the limit', async () => {
      const { gw } = rig;
      const body = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'limited.example' } });
      // 1 upstream, 2 remembered in Yoga, 3 and 4 replayed, 5 handed to Yoga after the route counted it
      // (a document id: not a plain query), 6 refused.
      for (let i = 0; i < 4; i++) expect((await gw.post(body)).status).toBe(200);
      expect((await replays(gw)).http).toBe(2);
      const handed = await gw.post(JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'limited.example' }, documentId: 'x' }));
      expect(handed.status).toBe(400);
      expect(handed.body.errors![0]!.extensions!.code).toBe('BAD_REQUEST');
      const refused = await gw.post(body);
      expectRefused(refused, 429, 'RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await replays(gw)).http).toBe(2);
    });
  });

  describe('trusted documents', () => {
    const hex = createHash('sha256').update(DOMAIN_QUERY).digest('hex');
    const file = join(mkdtempSync(join(tmpdir(), 'lookup-graph-replay-')), 'trusted.json');
    writeFileSync(file, JSON.stringify({ [`sha256:${hex}`]: DOMAIN_QUERY }));
    const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', TRUSTED_DOCUMENTS_FILE: file });
    beforeAll(() => answerDomains(rig.up));

    it("replays an operation named by codegen's documentId or Apollo's persistedQuery, and still refuses a query text", async () => {
      const { gw } = rig;
      const variables = { domain: 'trusted.example' };
      const byId = JSON.stringify({ documentId: `sha256:${hex}`, variables });
      const byHash = JSON.stringify({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: hex } } });
      await gw.post(byId);
      const remembered = await gw.post(byId);
      const before = await replays(gw);
      const replayed = await gw.post(byId);
      expect(shown(replayed)).toEqual(shown(remembered));
      expect((await replays(gw)).http).toBe(before.http + 1);
      expect((await gw.post(byHash)).body.data).toEqual(remembered.body.data);
      expect((await replays(gw)).http).toBe(before.http + 2);
      // The same document as text, remembered or not, runs only by id.
      expectRefused(await gw.post(JSON.stringify({ query: DOMAIN_QUERY, variables })), 400, 'PERSISTED_QUERY_ONLY');
      expectRefused(await gw.post(JSON.stringify({ query: DOMAIN_QUERY, documentId: `sha256:${hex}`, variables })), 400, 'PERSISTED_QUERY_ONLY');
      expectRefused(await gw.post(JSON.stringify({ documentId: `sha256:${'0'.repeat(64)}`, variables })), 400, 'PERSISTED_QUERY_NOT_FOUND');
      expect((await replays(gw)).http).toBe(before.http + 2);
    });
  });

  describe('the body limit', () => {
    const rig = upstreamGatewayFor({ CACHE_ENABLED: 'true', MAX_REQUEST_BYTES: '1024' });
    beforeAll(() => answerDomains(rig.up));

    it('refuses a remembered operation whose body is over the limit', async () => {
      const { gw } = rig;
      const body = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'sized.example' } });
      await gw.post(body);
      await gw.post(body);
      const padded = JSON.stringify({ query: DOMAIN_QUERY, variables: { domain: 'sized.example' }, extensions: { padding: 'x'.repeat(1100) } });
      expectRefused(await gw.post(padded), 413, 'PAYLOAD_TOO_LARGE');
      expect((await gw.post(body)).status).toBe(200);
      expect((await replays(gw)).http).toBe(1);
    });
  });
});

describe('regularMediaType: the JSON type Yoga answers a result with, for an Accept header', () => {
  const rig = upstreamGatewayFor({ CACHE_RESULTS_MB: '0' });

  it.each([
    undefined,
    '*/*',
    'application/json',
    'application/graphql-response+json',
    'application/graphql-response+json,application/json;q=0.9',
    'application/json, application/graphql-response+json',
    'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
    'application/*',
    'application/json; charset=iso-8859-1',
    'application/json; charset=iso-8859-1, application/graphql-response+json',
    'text/html, */*;q=0.1',
    'text/event-stream',
    'multipart/mixed',
    'text/html',
  ])('agrees with Yoga for Accept %s', async (accept) => {
    const res = await fetch(`${rig.gw.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    await res.arrayBuffer();
    const yogaType = /^(application\/(?:graphql-response\+)?json); charset=utf-8$/.exec(res.headers.get('content-type') ?? '')?.[1] ?? null;
    expect(regularMediaType(accept)).toBe(yogaType);
  });
});
