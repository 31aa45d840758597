import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionError } from '../../src/kernel/errors.js';
import { createLogger, yogaLogger } from '../../src/kernel/logger.js';
import { OperationLabels } from '../../src/telemetry/operation-label.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startOtlpReceiver, until } from './support.js';

let up: FaultUpstream;
let gw: TestGateway;
beforeAll(async () => {
  up = await startFaultUpstream();
  up.handle((call, _req, res) => {
    if (call.action === 'domain_info')
      return json(res, 200, { status: 200, response: { domain_name: call.body.domain } });
    return json(res, 503, { status: 503, response: null, error: 'down' });
  });
  gw = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true', METRICS_OPERATION_NAMES: 'Domain, Owners' }), 0, {
    resilience: { maxRetries: 0 },
  });
});
afterAll(async () => {
  await gw.close();
  await up.close();
});

const requestLines = (logs: string[]) =>
  logs.map((text) => JSON.parse(text)).filter((entry) => entry.msg === 'graphql request');

function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

const DOMAIN = 'query Domain($domain: String!) { domainInfo(domain: $domain) { domainName } }';

describe('one log line per request', () => {
  it("says operation, type, status, duration, upstream calls, cost, error codes and the client's trace id, and no variables", async () => {
    const traceId = randomBytes(16).toString('hex');
    gw.logs.length = 0;
    await gw.query(
      DOMAIN,
      { domain: 'secret-person.example' },
      { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    );
    const [line, ...more] = requestLines(gw.logs);
    expect(more).toEqual([]);
    expect(line.level).toBe(30); // info
    expect(line.request).toMatchObject({
      operation: 'Domain',
      operationType: 'query',
      status: 200,
      upstreamCalls: 1,
      cost: { estimated: 1, budget: 50 },
      errorCodes: [],
      traceId,
    });
    expect(line.request.durationMs).toBeGreaterThan(0);
    expect(JSON.stringify(line)).not.toContain('secret-person');
    expect(line.request).not.toHaveProperty('variables');
  });

  it('lists the error codes of a failed lookup and of a request that never executed', async () => {
    gw.logs.length = 0;
    await gw.query('query Owners { crmOwners(portal: "1") { id } }');
    await gw.post('{ not json');
    await gw.query('{ nope }');
    const [owners, broken, invalid] = requestLines(gw.logs);
    expect(owners.request).toMatchObject({
      operation: 'Owners',
      status: 200,
      upstreamCalls: 1,
      errorCodes: ['UPSTREAM_UNAVAILABLE'],
    });
    expect(owners.request).not.toHaveProperty('traceId');
    expect(broken.request.status).toBe(400);
    expect(broken.request.errorCodes.length).toBe(1);
    expect(invalid.request).toMatchObject({
      operation: null,
      status: 400,
      upstreamCalls: 0,
      errorCodes: ['GRAPHQL_VALIDATION_FAILED'],
    });
  });

  it('logs and counts requests the protections refuse before they are parsed', async () => {
    const limited = await startGateway(upstreamEnv(up, { CLIENT_RATE_LIMIT_PER_MINUTE: '1' }));
    try {
      await limited.query(DOMAIN, { domain: 'once.example' });
      const refused = await limited.query(DOMAIN, { domain: 'twice.example' });
      expect(refused.status).toBe(429);
      expect(requestLines(limited.logs)[1].request).toMatchObject({
        status: 429,
        upstreamCalls: 0,
        errorCodes: ['RATE_LIMITED'],
      });
      const text = await (await limited.fetch(`/metrics`)).text();
      expect(sample(text, 'lookup_graph_graphql_errors_total', { code: 'RATE_LIMITED' })).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it('writes one line however many errors a request has: their count by code and the first paths', async () => {
    gw.logs.length = 0;
    const symbols = Array.from({ length: 100 }, (_, i) => `Z${i}`);
    const { body } = await gw.query(
      'query Profiles($symbols: [String!]!) { financialProfiles(symbols: $symbols) { symbol } }',
      { symbols },
    );
    expect(body.errors).toHaveLength(100);
    const lines = gw.logs.map((text) => JSON.parse(text));
    // The request's line, and one warning per failed upstream call (the symbols go up in batches): none per error.
    const calls = lines.filter((entry) => entry.msg === 'upstream call failed').length;
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(10);
    expect(lines.filter((entry) => entry.level >= 30)).toHaveLength(calls + 1);
    expect(requestLines(gw.logs)[0].request).toMatchObject({
      operation: 'Profiles',
      errorCodes: ['UPSTREAM_UNAVAILABLE'],
      errors: {
        count: 100,
        byCode: { UPSTREAM_UNAVAILABLE: 100 },
        firstPaths: ['financialProfiles.0', 'financialProfiles.1', 'financialProfiles.2'],
      },
    });
  });

  it('writes at most ten lines a second of errors it did not expect, and counts the rest', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const yoga = yogaLogger(createLogger('info', sink));
    for (let i = 0; i < 50; i += 1) yoga.error(new Error(`unexpected ${i}`));
    yoga.error(new ActionError('NOT_FOUND', 'an expected outcome'));
    expect(lines).toHaveLength(10);
    expect(lines.every((line) => JSON.parse(line).level === 50)).toBe(true);
  });

  it('adds the variables only with LOG_VARIABLES=true', async () => {
    const verbose = await startGateway(upstreamEnv(up, { LOG_VARIABLES: 'true' }));
    try {
      await verbose.query(DOMAIN, { domain: 'shown.example' });
      expect(requestLines(verbose.logs)[0].request.variables).toEqual([{ domain: 'shown.example' }]);
    } finally {
      await verbose.close();
    }
  });

  it('writes pino-pretty lines with LOG_FORMAT=pretty', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    createLogger('info', sink, ['a-secret-token-123'], 'pretty').info(
      { request: { operation: 'Domain', token: 'x' } },
      'graphql request a-secret-token-123',
    );
    const text = lines.join('');
    expect(text).toContain('INFO');
    expect(text).toContain('graphql request [redacted]');
    expect(text).toContain('"operation":"Domain"');
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('request metrics', () => {
  it('observe the duration by bounded operation label and count errors by code', async () => {
    const before = await (await gw.fetch(`/metrics`)).text();
    const count = (text: string, operation: string) =>
      sample(text, 'lookup_graph_graphql_request_duration_seconds_count', { operation }) ?? 0;
    const errors = (text: string, code: string) => sample(text, 'lookup_graph_graphql_errors_total', { code }) ?? 0;
    await gw.query(DOMAIN, { domain: 'metrics.example' });
    await gw.query('query Owners { crmOwners(portal: "2") { id } }');
    await gw.query('query ClientChosenName { domainInfo(domain: "metrics.example") { domainName } }');
    await gw.query('{ domainInfo(domain: "metrics.example") { domainName } }');
    const after = await (await gw.fetch(`/metrics`)).text();
    expect(count(after, 'Domain') - count(before, 'Domain')).toBe(1);
    expect(count(after, 'Owners') - count(before, 'Owners')).toBe(1);
    expect(count(after, 'other') - count(before, 'other')).toBe(1);
    expect(count(after, 'anonymous') - count(before, 'anonymous')).toBe(1);
    expect(after).not.toContain('ClientChosenName');
    expect(errors(after, 'UPSTREAM_UNAVAILABLE') - errors(before, 'UPSTREAM_UNAVAILABLE')).toBe(1);
    // The cache hit ratio is computed from these (deploy/grafana): three hits of metrics.example, one miss.
    expect(
      sample(after, 'lookup_graph_cache_lookups_total', { action: 'domain_info', source: 'cache' }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('label trusted documents by name and nothing else', () => {
    const labels = new OperationLabels(
      new Map([
        ['h1', 'query Trusted { __typename }'],
        ['h2', 'query { __typename }'],
      ]),
      ['Extra'],
    );
    expect(labels.label('Trusted')).toBe('Trusted');
    expect(labels.label('Extra')).toBe('Extra');
    expect(labels.label('Untrusted')).toBe('other');
    expect(labels.label(null)).toBe('anonymous');
    expect(labels.names.sort()).toEqual(['Extra', 'Trusted', 'anonymous', 'batch', 'other']);
  });
});

describe('tracing off and http/protobuf', () => {
  it('loads no OpenTelemetry SDK when no OTLP endpoint is set', async () => {
    const script = `
      import { createRequire } from 'node:module';
      import { loadConfig } from './src/config.js';
      import { createGateway } from './src/gateway.js';
      import { createLogger } from './src/kernel/logger.js';
      const config = loadConfig({ LOG_LEVEL: 'silent' });
      const gateway = await createGateway(config, createLogger('silent'));
      const res = await gateway.yoga.fetch('http://localhost/graphql', { method: 'POST', headers: { 'content-type': 'application/json', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }, body: JSON.stringify({ query: '{ domainInfo(domain: "off.example") { domainName } }' }) });
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('@opentelemetry/') && !file.includes('@opentelemetry/api/'));
      console.log(JSON.stringify({ status: res.status, loaded }));
      await gateway.close();
    `;
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const { stdout } = await promisify(execFile)(
      fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url)),
      ['--input-type=module', '-e', script],
      { cwd: root, env: { PATH: process.env.PATH } },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ status: 200, loaded: [] });
  });

  it('exports http/protobuf by default', async () => {
    const receiver = await startOtlpReceiver();
    const traced = await startGateway(
      upstreamEnv(up, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` }),
      0,
      {
        telemetry: { tracing: { scheduledDelayMillis: 20 } },
      },
    );
    try {
      await traced.query(DOMAIN, { domain: 'proto.example' });
      await until(() => receiver.contentTypes.length > 0);
      expect(receiver.contentTypes[0]).toBe('application/x-protobuf');
      // The trace id of the request's span is in its log line.
      expect(requestLines(traced.logs)[0].request.traceId).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      await traced.close();
      await receiver.close();
    }
  });
});
