/**
 * What one span costs to create and export, measured on the gateway's own tracing (src/telemetry/tracing.ts:
 * the SDK, its BatchSpanProcessor with the default bounds, the OTLP http/protobuf exporter) sending to a
 * collector in another process that discards what it gets. Each trace has the spans and events the
 * gateway makes for a query with one uncached lookup (src/telemetry/spans.ts), in the shape of today
 * (three spans) and of before (five: a lookup span and one span per HTTP attempt besides). CPU time of
 * this process (user + system) over every span created, ended, serialised and sent, divided by spans.
 *
 *   npx tsx bench/span-cost.ts [traces=20000]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';
import { startTracing, type TracingOn } from '../src/telemetry/tracing.js';
import { readTelemetrySettings } from '../src/telemetry/settings.js';

const TRACES = Number(process.argv[2] ?? 20_000);
/** Traces per flush: at most one batch (512 spans) in the queue, so none is dropped and every span is exported. */
const PER_FLUSH = 100;

async function collector(): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.end()); })
        .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [port] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${String(port).trim()}`, stop: () => child.kill() };
}

/** The request's server span and its operation's span under it: the same in both shapes. */
function openRequest({ tracer }: TracingOn) {
  const request = tracer.startSpan('POST /graphql', {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'POST', 'url.path': '/graphql', 'url.scheme': 'http' },
  });
  const requestContext = trace.setSpan(ROOT_CONTEXT, request);
  const operation = tracer.startSpan(
    'query Bench',
    { attributes: { 'graphql.operation.type': 'query', 'graphql.operation.name': 'Bench' } },
    requestContext,
  );
  return { request, operation, operationContext: trace.setSpan(requestContext, operation) };
}

/** Today's three spans: the request, the operation (lookup counts), the upstream call (its attempt an event). */
function threeSpans(tracing: TracingOn): void {
  const { tracer } = tracing;
  const { request, operation, operationContext } = openRequest(tracing);
  const call = tracer.startSpan(
    'upstream domain_info',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': 8080,
        'lookup_graph.upstream.action': 'domain_info',
      },
    },
    operationContext,
  );
  call.setAttribute('lookup_graph.lookup.key_hash', tracing.keyForSpan('domain_info', 'example.com')!);
  call.addEvent('attempt', {
    'http.response.status_code': 200,
    'lookup_graph.upstream.outcome': 'OK',
    'http.request.resend_count': 0,
    'lookup_graph.duration_ms': 12.5,
  });
  call.setAttribute('http.response.status_code', 200);
  call.setAttribute('lookup_graph.upstream.attempts', 1);
  call.setAttribute('lookup_graph.upstream.retries', 0);
  call.setAttribute('lookup_graph.upstream.outcome', 'OK');
  call.end();
  endOperation(operation);
  request.setAttribute('http.response.status_code', 200);
  request.end();
}

function endOperation(operation: ReturnType<TracingOn['tracer']['startSpan']>): void {
  operation.setAttribute('lookup_graph.cost.estimated', 1);
  operation.setAttribute('lookup_graph.cost.budget', 50);
  operation.setAttribute('lookup_graph.upstream_calls', 1);
  operation.setAttribute('lookup_graph.lookups', 1);
  operation.setAttribute('lookup_graph.lookup.actions', ['domain_info']);
  operation.setAttribute('lookup_graph.lookup.source', 'upstream');
  operation.setAttribute('lookup_graph.lookup.upstream', 1);
  operation.end();
}

/** The shape before: request, operation, lookup, upstream <action>, and one client span per HTTP attempt. */
function fiveSpans(tracing: TracingOn): void {
  const { tracer } = tracing;
  const { request, operation, operationContext } = openRequest(tracing);
  const lookup = tracer.startSpan(
    'lookup domain_info',
    { attributes: { 'lookup_graph.lookup.action': 'domain_info' } },
    operationContext,
  );
  lookup.setAttribute('lookup_graph.lookup.key_hash', tracing.keyForSpan('domain_info', 'example.com')!);
  const lookupContext: Context = trace.setSpan(operationContext, lookup);
  const upstream = tracer.startSpan(
    'upstream domain_info',
    { attributes: { 'lookup_graph.upstream.action': 'domain_info' } },
    lookupContext,
  );
  const http = tracer.startSpan(
    'POST /v1/action/domain_info',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': 8080,
        'lookup_graph.upstream.action': 'domain_info',
      },
    },
    trace.setSpan(lookupContext, upstream),
  );
  http.setAttribute('http.response.status_code', 200);
  http.setAttribute('lookup_graph.upstream.outcome', 'OK');
  http.end();
  upstream.setAttribute('lookup_graph.upstream.attempts', 1);
  upstream.setAttribute('lookup_graph.upstream.retries', 0);
  upstream.setAttribute('lookup_graph.upstream.outcome', 'OK');
  upstream.end();
  lookup.setAttribute('lookup_graph.lookup.source', 'upstream');
  lookup.end();
  endOperation(operation);
  request.setAttribute('http.response.status_code', 200);
  request.end();
}

async function measure(name: string, spansPerTrace: number, make: (tracing: TracingOn) => void, url: string) {
  const problems: string[] = [];
  const settings = readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: url }, problems);
  if (problems.length) throw new Error(problems.join('; '));
  const tracing = (await startTracing(settings, 'bench-secret')) as TracingOn;
  const flush = () => tracing.flush();
  // Warm-up: the JIT, the exporter's first connection.
  for (let i = 0; i < 2_000; i += PER_FLUSH) {
    for (let j = 0; j < PER_FLUSH; j += 1) make(tracing);
    await flush();
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < TRACES; i += PER_FLUSH) {
    for (let j = 0; j < PER_FLUSH; j += 1) make(tracing);
    await flush();
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - started;
  await tracing.close();
  const spans = TRACES * spansPerTrace;
  const cpuUs = used.user + used.system;
  console.log(
    `${name}: ${spans} spans, ${(cpuUs / spans).toFixed(1)} µs CPU a span, ` +
      `${(cpuUs / TRACES).toFixed(1)} µs CPU an uncached lookup's trace, ${((wallMs * 1000) / spans).toFixed(1)} µs wall a span`,
  );
}

const sink = await collector();
try {
  await measure('three spans (now)', 3, threeSpans, sink.url);
  await measure('five spans (before)', 5, fiveSpans, sink.url);
} finally {
  sink.stop();
}
