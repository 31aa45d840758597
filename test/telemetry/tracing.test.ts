import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { loadConfig } from '../../src/config.js';
import { inProcessGateway, startGateway } from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';
import { configProblems } from '../support/config.js';
import { REDIS_HOST, REDIS_PORT, redisAnswers } from '../support/redis.js';
import { startOtlpReceiver, until, type OtlpReceiver, type ReceivedSpan } from './support.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

let receiver: OtlpReceiver;
let up: FaultUpstream;
let traceparents: Array<string | undefined> = [];
const answerRecordingTraceparent: Parameters<FaultUpstream['handle']>[0] = (call, req, res) => {
  traceparents.push(req.headers.traceparent as string | undefined);
  json(res, 200, { status: 200, response: { domain_name: call.body.domain } });
};
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  up = await startFaultUpstream();
  up.handle(answerRecordingTraceparent);
});
afterAll(async () => {
  await up.close();
  await receiver.close();
});

/** Spans exported every 20 ms (OTEL_BSP_SCHEDULE_DELAY, 5 s by default), so the tests see them at once. */
const tracingEnv = (extra: Record<string, string> = {}) =>
  upstreamEnv(up, {
    CACHE_ENABLED: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '20',
    ...extra,
  });

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);

describe('tracing over OTLP/HTTP (http/json)', () => {
  const gw = forSuite(() => inProcessGateway(tracingEnv({ TRACE_PROPAGATE_UPSTREAM: 'true' })));

  it("exports three spans for an operation with two lookups, one cached and one upstream, in the client's trace", async () => {
    await gw.query('{ domainInfo(domain: "cached.example") { domainName } }'); // fills the cache
    const traceId = hex(16);
    const clientSpanId = hex(8);
    traceparents = [];
    const res = await gw.query(
      'query TwoDomains { a: domainInfo(domain: "cached.example") { domainName } b: domainInfo(domain: "private-person.fresh.example") { domainName } }',
      undefined,
      { traceparent: `00-${traceId}-${clientSpanId}-01` },
    );
    expect(res.status).toBe(200);
    expect(res.body.extensions?.gateway.upstreamCalls).toBe(1);

    const ours = () => receiver.spans.filter((span) => span.traceId === traceId);
    await until(() => ours().some((span) => span.name === 'POST /graphql'));
    const spans = ours();

    const request = spans.find((span) => span.name === 'POST /graphql')!;
    expect(request.parentSpanId).toBe(clientSpanId);
    expect(request.kind).toBe(2); // SERVER
    expect(request.attributes['http.response.status_code']).toBe(200);

    const [operation, ...others] = childrenOf(spans, request);
    expect(others).toEqual([]);
    expect(operation!.name).toBe('query TwoDomains');
    expect(operation!.attributes).toMatchObject({
      'graphql.operation.name': 'TwoDomains',
      'graphql.operation.type': 'query',
      'lookup_graph.cost.estimated': 2,
      'lookup_graph.upstream_calls': 1,
      'lookup_graph.lookups': 2,
      'lookup_graph.lookup.actions': ['domain_info'],
      'lookup_graph.lookup.source': 'mixed',
      'lookup_graph.lookup.cache': 1,
      'lookup_graph.lookup.upstream': 1,
    });

    // The request, the operation and the one upstream call: the cached lookup adds no span.
    expect(spans).toHaveLength(3);
    const [call, ...moreCalls] = childrenOf(spans, operation!);
    expect(moreCalls).toEqual([]);
    expect(call!.name).toBe('upstream domain_info');
    expect(call!.kind).toBe(3); // CLIENT
    expect(call!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'lookup_graph.upstream.action': 'domain_info',
      'lookup_graph.upstream.attempts': 1,
      'lookup_graph.upstream.retries': 0,
      'lookup_graph.upstream.outcome': 'OK',
    });
    expect(call!.attributes['lookup_graph.lookup.key_hash']).toMatch(/^[0-9a-f]{16}$/);
    expect(call!.events).toEqual([
      {
        name: 'attempt',
        attributes: expect.objectContaining({
          'http.response.status_code': 200,
          'lookup_graph.upstream.outcome': 'OK',
          'http.request.resend_count': 0,
        }),
      },
    ]);
    expect(childrenOf(spans, call!)).toEqual([]);

    // TRACE_PROPAGATE_UPSTREAM=true: the upstream saw the call's span as its parent, in the client's trace.
    expect(traceparents).toEqual([`00-${traceId}-${call!.spanId}-01`]);
    // The raw lookup key never leaves the gateway, nor does the upstream token.
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain('private-person');
    expect(exported).not.toContain(up.token);
    expect(receiver.contentTypes.every((type) => type.includes('application/json'))).toBe(true);

    // The request's log line carries the same trace id.
    const line = gw.logs.map((text) => JSON.parse(text)).find((entry) => entry.request?.operation === 'TwoDomains');
    expect(line.request.traceId).toBe(traceId);
  });

  it('keeps every upstream span and traceparent under its own operation while operations interleave', async () => {
    // The upstream answers out of order, so the lookups of six operations are all in flight at once.
    const seen = new Map<string, string | undefined>();
    up.handle((call, req, res) => {
      seen.set(call.body.domain as string, req.headers.traceparent as string | undefined);
      setTimeout(
        () => json(res, 200, { status: 200, response: { domain_name: call.body.domain } }),
        5 + (seen.size % 3) * 10,
      );
    });
    try {
      const runs = Array.from({ length: 6 }, (_, i) => ({
        traceId: hex(16),
        domains: [`il-${i}-a.example`, `il-${i}-b.example`],
      }));
      await Promise.all(
        runs.map(({ traceId, domains }) =>
          gw.query(
            `{ a: domainInfo(domain: "${domains[0]}") { domainName } b: domainInfo(domain: "${domains[1]}") { domainName } }`,
            undefined,
            { traceparent: `00-${traceId}-${hex(8)}-01` },
          ),
        ),
      );
      for (const { traceId, domains } of runs) {
        await until(() => receiver.spans.some((span) => span.traceId === traceId && span.name === 'POST /graphql'));
        const spans = receiver.spans.filter((span) => span.traceId === traceId);
        const operation = spans.find((span) => span.name === 'query')!;
        const calls = childrenOf(spans, operation);
        expect(calls.map((span) => span.name)).toEqual(['upstream domain_info', 'upstream domain_info']);
        // One span per call, each with its own key: the two lookups' calls are told apart.
        expect(new Set(calls.map((span) => span.attributes['lookup_graph.lookup.key_hash'])).size).toBe(2);
        for (const call of calls) expect(childrenOf(spans, call)).toEqual([]);
        expect(spans).toHaveLength(4);
        // Each domain's call carried its own operation's trace, from its own call span.
        const callIds = calls.map((span) => span.spanId);
        for (const domain of domains) {
          const [, seenTrace, seenParent] = seen.get(domain)!.split('-');
          expect(seenTrace).toBe(traceId);
          expect(callIds).toContain(seenParent);
        }
      }
    } finally {
      up.handle(answerRecordingTraceparent);
    }
  });

  it('answers a repeated cached operation from its remembered result, its request span alone saying so', async () => {
    const query = 'query Again { domainInfo(domain: "remembered.example") { domainName } }';
    const first = await gw.query(query); // from the upstream, into the cache
    await gw.query(query); // from the cache; remembered from this second time
    const traceId = hex(16);
    const replayed = await gw.query(query, undefined, { traceparent: `00-${traceId}-${hex(8)}-01` });
    expect(replayed.body.data).toEqual(first.body.data);
    expect(replayed.body.extensions?.gateway.upstreamCalls).toBe(0);
    expect(replayed.body.extensions?.gateway.lookups).toEqual([
      expect.objectContaining({ action: 'domain_info', source: 'cache' }),
    ]);

    const ours = () => receiver.spans.filter((span) => span.traceId === traceId);
    await until(() => ours().some((span) => span.name === 'POST /graphql'));
    const spans = ours();
    const request = spans.find((span) => span.name === 'POST /graphql')!;
    expect(request.attributes).toMatchObject({
      'graphql.operation.name': 'Again',
      'graphql.operation.type': 'query',
      'lookup_graph.remembered_result': true,
      'lookup_graph.upstream_calls': 0,
      'lookup_graph.lookups': 1,
      'lookup_graph.lookup.actions': ['domain_info'],
      'lookup_graph.lookup.source': 'cache',
      'lookup_graph.lookup.cache': 1,
      'lookup_graph.cost.estimated': 1,
    });
    // Nothing ran below the request, so nothing is shown below it.
    expect(childrenOf(spans, request)).toEqual([]);
    expect(spans).toHaveLength(1);
  });

  it('starts a new trace when the client sends none, and tells each retried HTTP attempt as an event of one upstream span', async () => {
    let n = 0;
    up.handle((call, _req, res) =>
      ++n === 1
        ? json(res, 503, { status: 503, response: null, error: 'busy' }, { 'retry-after': '0' })
        : json(res, 200, { status: 200, response: { domain_name: call.body.domain } }),
    );
    const res = await gw.query('query Flaky { domainInfo(domain: "flaky.example") { domainName } }');
    expect(res.body.errors).toBeUndefined();
    await until(() => receiver.spans.some((span) => span.name === 'query Flaky'));
    const operation = receiver.spans.find((span) => span.name === 'query Flaky')!;
    await until(() => receiver.spans.some((span) => span.spanId === operation.parentSpanId));
    const request = receiver.spans.find((span) => span.spanId === operation.parentSpanId)!;
    expect(request.parentSpanId).toBe('');
    const spans = receiver.spans.filter((span) => span.traceId === operation.traceId);
    expect(spans).toHaveLength(3);
    const [call, ...more] = childrenOf(spans, operation);
    expect(more).toEqual([]);
    expect(call!.attributes).toMatchObject({
      'lookup_graph.upstream.attempts': 2,
      'lookup_graph.upstream.retries': 1,
      'lookup_graph.upstream.outcome': 'OK',
      'http.response.status_code': 200,
    });
    expect(call!.status.code ?? 0).not.toBe(2); // not ERROR: the retry succeeded
    // The attempts, in order, as events of the call's span, not spans of their own.
    expect(childrenOf(spans, call!)).toEqual([]);
    expect(call!.events.map((event) => event.name)).toEqual(['attempt', 'attempt']);
    expect(call!.events.map((event) => event.attributes)).toEqual([
      expect.objectContaining({
        'http.response.status_code': 503,
        'lookup_graph.upstream.outcome': 'UPSTREAM_UNAVAILABLE',
        'http.request.resend_count': 0,
      }),
      expect.objectContaining({
        'http.response.status_code': 200,
        'lookup_graph.upstream.outcome': 'OK',
        'http.request.resend_count': 1,
      }),
    ]);
  });

  it('makes one upstream span for all the stock symbols of an operation, with each key hashed', async () => {
    const traceId = hex(16);
    await gw.query('{ financialProfiles(symbols: ["TRA", "CED"]) { symbol } }', undefined, {
      traceparent: `00-${traceId}-${hex(8)}-01`,
    });
    await until(() => receiver.spans.some((span) => span.traceId === traceId && span.name === 'POST /graphql'));
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    expect(spans).toHaveLength(3);
    const call = spans.find((span) => span.name === 'upstream company_financial_profile')!;
    expect(call.attributes['lookup_graph.upstream.symbols']).toBe(2);
    const hashes = call.attributes['lookup_graph.lookup.key_hashes'] as string[];
    expect(new Set(hashes).size).toBe(2);
    for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(receiver.bodies.join('\n')).not.toContain('"TRA"');
  });

  it('marks a call that failed after its retries as an error on its one span', async () => {
    up.handle((_call, _req, res) =>
      json(res, 503, { status: 503, response: null, error: 'busy' }, { 'retry-after': '0' }),
    );
    try {
      const traceId = hex(16);
      const res = await gw.query('query Down { domainInfo(domain: "down.example") { domainName } }', undefined, {
        traceparent: `00-${traceId}-${hex(8)}-01`,
      });
      expect(res.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
      await until(() => receiver.spans.some((span) => span.traceId === traceId && span.name === 'POST /graphql'));
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      expect(spans).toHaveLength(3);
      const call = spans.find((span) => span.name === 'upstream domain_info')!;
      expect(call.status.code).toBe(2); // ERROR
      expect(call.attributes).toMatchObject({
        'error.type': 'UPSTREAM_UNAVAILABLE',
        'lookup_graph.upstream.outcome': 'UPSTREAM_UNAVAILABLE',
      });
      const attempts = call.attributes['lookup_graph.upstream.attempts'] as number;
      expect(attempts).toBeGreaterThan(1);
      expect(call.events).toHaveLength(attempts);
      expect(call.events.every((event) => event.attributes['http.response.status_code'] === 503)).toBe(true);
    } finally {
      up.handle(answerRecordingTraceparent);
    }
  });
});

describe('tracing settings', () => {
  it('sends no traceparent upstream by default, and omits lookup keys when TRACE_LOOKUP_KEYS=omit', async () => {
    up.handle((call, req, res) => {
      traceparents.push(req.headers.traceparent as string | undefined);
      json(res, 200, { status: 200, response: { domain_name: call.body.domain } });
    });
    const gw = await startGateway(tracingEnv({ TRACE_LOOKUP_KEYS: 'omit' }), 0);
    try {
      traceparents = [];
      const traceId = hex(16);
      await gw.query('query Quiet { domainInfo(domain: "quiet.example") { domainName } }', undefined, {
        traceparent: `00-${traceId}-${hex(8)}-01`,
      });
      await until(() => receiver.spans.some((span) => span.traceId === traceId && span.name === 'POST /graphql'));
      expect(traceparents).toEqual([undefined]);
      const operation = receiver.spans.find((span) => span.traceId === traceId && span.name === 'query Quiet')!;
      expect(operation.attributes['lookup_graph.lookup.source']).toBe('upstream');
      const call = receiver.spans.find((span) => span.traceId === traceId && span.name === 'upstream domain_info')!;
      expect(Object.keys(call.attributes).some((key) => key.includes('key'))).toBe(false);
    } finally {
      await gw.close();
    }
  });

  it('validates the OTEL_* and TRACE_* settings it reads', () => {
    expect(
      configProblems({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toEqual(['OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "grpc"']);
    expect(configProblems({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' })[0]).toContain(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be',
    );
    expect(
      configProblems({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '2',
      })[0],
    ).toContain('OTEL_TRACES_SAMPLER_ARG');
    expect(configProblems({ TRACE_PROPAGATE_UPSTREAM: 'yes', TRACE_LOOKUP_KEYS: 'raw' })).toHaveLength(2);
    // Tracing is on exactly when an endpoint is set: without one, the sampler settings are not even read.
    expect(configProblems({ OTEL_TRACES_SAMPLER: 'sometimes' })).toEqual([]);
    expect(loadConfig({ OTEL_TRACES_SAMPLER: 'always_off' }).telemetry.tracing).toBeNull();
  });

  it("reads the standard OTEL_* variables with the SDK's names and defaults, and refuses bad values", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(loadConfig(endpoint).telemetry.tracing).toMatchObject({
      protocol: 'http/protobuf',
      propagators: ['tracecontext', 'baggage'],
      scheduledDelayMillis: 5000,
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      exportTimeoutMillis: 30000,
    });
    const tuned = loadConfig({
      ...endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_PROPAGATORS: 'tracecontext',
      OTEL_BSP_SCHEDULE_DELAY: '1000',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
      OTEL_BSP_EXPORT_TIMEOUT: '2000',
    });
    expect(tuned.retired).toEqual([]);
    expect(tuned.telemetry.tracing).toMatchObject({
      protocol: 'http/json',
      propagators: ['tracecontext'],
      scheduledDelayMillis: 1000,
      maxQueueSize: 100,
      maxExportBatchSize: 50,
      exportTimeoutMillis: 2000,
    });
    expect(loadConfig({ ...endpoint, OTEL_PROPAGATORS: 'none' }).telemetry.tracing?.propagators).toEqual([]);
    // Off beside an endpoint, as the SDK is: nothing of it is loaded.
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).telemetry.tracing).toBeNull();
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' }).telemetry.tracing).toBeNull();
    expect(loadConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }).telemetry.tracing).toBeNull();
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'false' }).telemetry.tracing).not.toBeNull();
    expect(
      configProblems({
        ...endpoint,
        OTEL_SDK_DISABLED: 'yes',
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_PROPAGATORS: 'tracecontext,b3',
        OTEL_BSP_SCHEDULE_DELAY: '-1',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_BSP_EXPORT_TIMEOUT: 'soon',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      }),
    ).toEqual([
      'OTEL_SDK_DISABLED must be true or false, got "yes"',
      'OTEL_TRACES_EXPORTER must be otlp or none, got "zipkin"',
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "grpc"',
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE (512) must not be more than OTEL_BSP_MAX_QUEUE_SIZE (100)',
      'OTEL_PROPAGATORS must list tracecontext and/or baggage, or be none, got "tracecontext,b3"',
      'OTEL_BSP_SCHEDULE_DELAY must be a whole number from 0, got "-1"',
      'OTEL_BSP_EXPORT_TIMEOUT must be a whole number from 1, got "soon"',
    ]);
  });

  it('carries the baggage of OTEL_PROPAGATORS to the upstream, and only the trace context without it', async () => {
    const seen: Array<{ traceparent?: string; baggage?: string }> = [];
    up.handle((call, req, res) => {
      seen.push({
        traceparent: req.headers.traceparent as string | undefined,
        baggage: req.headers.baggage as string | undefined,
      });
      json(res, 200, { status: 200, response: { domain_name: call.body.domain } });
    });
    try {
      for (const propagators of ['tracecontext,baggage', 'tracecontext']) {
        const gw = await startGateway(
          tracingEnv({ TRACE_PROPAGATE_UPSTREAM: 'true', OTEL_PROPAGATORS: propagators }),
          0,
        );
        try {
          const traceId = hex(16);
          await gw.query(`{ domainInfo(domain: "baggage-${hex(4)}.example") { domainName } }`, undefined, {
            traceparent: `00-${traceId}-${hex(8)}-01`,
            baggage: 'tenant=acme',
          });
          expect(seen.at(-1)!.traceparent).toMatch(new RegExp(`^00-${traceId}-`));
          expect(seen.at(-1)!.baggage).toBe(propagators.includes('baggage') ? 'tenant=acme' : undefined);
        } finally {
          await gw.close();
        }
      }
    } finally {
      up.handle(answerRecordingTraceparent);
    }
  });
});

describe.runIf(await redisAnswers())('Redis round trips', () => {
  it('appear as events of the operation, not spans', async () => {
    const gw = await startGateway(
      tracingEnv({
        REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}`,
        CACHE_KEY_SECRET: `tracing-${process.pid}-${hex(4)}`,
      }),
      0,
    );
    try {
      const traceId = hex(16);
      await gw.query('query ViaRedis { domainInfo(domain: "redis.example") { domainName } }', undefined, {
        traceparent: `00-${traceId}-${hex(8)}-01`,
      });
      await until(() => receiver.spans.some((span) => span.traceId === traceId && span.name === 'POST /graphql'));
      const spans = receiver.spans.filter((span) => span.traceId === traceId);
      // Still the three spans: the request, the operation, the upstream call.
      expect(spans.map((span) => span.name).sort()).toEqual([
        'POST /graphql',
        'query ViaRedis',
        'upstream domain_info',
      ]);
      const operation = spans.find((span) => span.name === 'query ViaRedis')!;
      const redis = operation.events.filter((event) => event.name.startsWith('redis '));
      expect(redis.map((event) => event.name)).toEqual(
        expect.arrayContaining(['redis GET', 'redis SET NX', 'redis SET', 'redis EVAL']),
      );
      expect(redis.find((event) => event.name === 'redis GET')!.attributes).toMatchObject({
        'db.system.name': 'redis',
        'lookup_graph.lookup.action': 'domain_info',
        'lookup_graph.cache.result': 'miss',
      });
      expect(redis.find((event) => event.name === 'redis SET NX')!.attributes['lookup_graph.cache.result']).toBe('won');
      expect(receiver.bodies.join('\n')).not.toContain('redis.example');
    } finally {
      await gw.close();
    }
  });
});
