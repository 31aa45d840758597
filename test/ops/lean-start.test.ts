import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSandboxLikeUpstream } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { moduleRecorder, packagesOf } from '../support/module-record.js';
import { freePort, ROOT } from '../support/processes.js';

const KEY = 'lean-start-key';
const DIST = pathToFileURL(join(ROOT, 'dist')).href;
const modulesLoaded = moduleRecorder();

/** What a capability brings when it is loaded: npm packages, and the gateway's own module that loads them. */
const CAPABILITIES = {
  mcp: { packages: ['@modelcontextprotocol/server', '@modelcontextprotocol/core', 'zod'], own: 'mcp/index.js' },
  federation: {
    packages: ['@apollo/subgraph', '@apollo/federation-internals', '@pothos/plugin-federation'],
    own: 'graph/subgraph.js',
  },
  redis: { packages: ['ioredis', 'cluster-key-slot'], own: 'cache/redis-store.js' },
  tracing: {
    packages: ['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto'],
    own: 'telemetry/spans.js',
  },
  graphiql: { packages: ['@graphql-yoga/render-graphiql'], own: null },
  // Signed tokens (JWT_ISSUER, JWT_JWKS_URL): test/identity/ runs them against a real provider.
  identity: { packages: ['jose'], own: 'security/tokens/verifier.js' },
  sandbox: { packages: [], own: 'sandbox/server.js' },
} as const;

const authorization = { authorization: `Bearer ${KEY}` };

async function oneLookup(base: string): Promise<void> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authorization },
    body: JSON.stringify({ query: '{ domainInfo(domain: "example.com") { domainName } }' }),
  });
  expect(await res.json()).toMatchObject({ data: { domainInfo: { domainName: 'example.com' } } });
}

async function mcpInitialize(base: string): Promise<void> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...authorization },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lean-start', version: '1' } },
    }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ id: 1, result: { serverInfo: { name: expect.any(String) } } });
}

describe('the built gateway, production settings, loads only what is configured', () => {
  const upstream = forSuite(startSandboxLikeUpstream);
  const production = () => ({
    NODE_ENV: 'production',
    ACTION_BASE_URL: upstream.url,
    ACTION_TOKEN: upstream.token,
    GATEWAY_API_KEY_HASHES: createHash('sha256').update(KEY).digest('hex'),
  });

  it('nothing configured: none of MCP, Federation, Redis, tracing, signed tokens, GraphiQL or the sandbox is loaded through start-up and a lookup, in at most 1,000 modules', async () => {
    const loaded = await modulesLoaded(production(), oneLookup);
    expect(loaded).toContain(`${DIST}/main.js`);
    const packages = packagesOf(loaded);
    for (const [name, capability] of Object.entries(CAPABILITIES)) {
      for (const pkg of capability.packages) expect(packages.has(pkg), `${name}: ${pkg}`).toBe(false);
      if (capability.own) expect(loaded, name).not.toContain(`${DIST}/${capability.own}`);
    }
    expect(packages.has('graphql-scalars')).toBe(false);
    // Every file loaded, the gateway's own and its packages' (1,590 before they were loaded on demand).
    expect(loaded.length).toBeLessThanOrEqual(1_000);
  });

  it.each([
    ['mcp', 'on the first /mcp request', {}, mcpInitialize],
    ['federation', 'with FEDERATION=true', { FEDERATION: 'true' }, oneLookup],
    ['redis', 'with REDIS_URL', { REDIS_URL: 'redis://127.0.0.1:6379' }, oneLookup],
    ['tracing', 'with an OTLP endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:PORT' }, oneLookup],
  ] as const)('%s is loaded %s', async (name, _when, env, use) => {
    const port = String(await freePort()); // a collector nobody runs: spans are dropped, nothing waits for them
    const settings = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replace('PORT', port)]));
    const loaded = await modulesLoaded({ ...production(), ...settings }, use);
    const packages = packagesOf(loaded);
    const capability = CAPABILITIES[name];
    for (const pkg of capability.packages) expect(packages.has(pkg), pkg).toBe(true);
    expect(loaded).toContain(`${DIST}/${capability.own}`);
  });
});

describe("the upstream client's parts of undici", () => {
  it("are the very Pool, errors and request API undici's index exports (the client requires them alone)", () => {
    const require = createRequire(join(ROOT, 'src/upstream/client.ts'));
    const undici = require('undici') as typeof import('undici');
    expect(require('undici/lib/dispatcher/pool.js')).toBe(undici.Pool);
    expect(require('undici/lib/core/errors.js')).toBe(undici.errors);
    expect(require('undici/lib/dispatcher/dispatcher.js')).toBe(undici.Dispatcher);
    const api = require('undici/lib/api/index.js') as Record<string, unknown>;
    for (const name of ['request', 'stream', 'pipeline', 'connect', 'upgrade'])
      expect(api[name], name).toBe((undici.Dispatcher.prototype as unknown as Record<string, unknown>)[name]);
  });
});
