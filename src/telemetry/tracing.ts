import { createHmac, createSecretKey } from 'node:crypto';
import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import type { TelemetrySettings, TracingSettings } from './settings.js';

/**
 * The gateway's tracer. With tracing off nothing of OpenTelemetry is loaded (neither its API nor the SDK,
 * nor ./spans.ts) and no span is ever started: the plugins that make spans are not installed, and the
 * lookups find no trace on their operation.
 */
export type Tracing = { enabled: false; close(): Promise<void> } | TracingOn;

/** Tracing on: the tracer of the SDK's provider, what ./spans.ts makes its spans with. */
export interface TracingOn {
  enabled: true;
  tracer: Tracer;
  /** Reads and writes the headers of OTEL_PROPAGATORS: `traceparent` / `tracestate` (W3C Trace Context) and `baggage`. */
  propagator: TextMapPropagator;
  settings: TelemetrySettings;
  /** A lookup key as spans may show it: an HMAC, or undefined when keys are omitted. */
  keyForSpan(action: string, key: string): string | undefined;
  /** Exports the spans still buffered (bench/span-cost.ts measures with it). */
  flush(): Promise<void>;
  /** Exports the spans still buffered and stops. */
  close(): Promise<void>;
}

const INSTRUMENTATION = 'lookup-graph';

export async function startTracing(settings: TelemetrySettings, keySecret: string): Promise<Tracing> {
  if (!settings.tracing) return { enabled: false, close: async () => undefined };
  // The secret imported once, not with every lookup's HMAC.
  const secret = createSecretKey(Buffer.from(keySecret, 'utf8'));
  const keyForSpan = (action: string, key: string) =>
    settings.lookupKeys === 'omit'
      ? undefined
      : createHmac('sha256', secret).update(`${action}\u0000${key}`).digest('hex').slice(0, 16);
  const { provider, propagator } = await startSdk(settings.tracing);
  return {
    enabled: true,
    tracer: provider.getTracer(INSTRUMENTATION),
    propagator,
    settings,
    keyForSpan,
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}

/** Loaded only when tracing is on: the SDK, the OTLP/HTTP exporter of the chosen encoding. */
async function startSdk(settings: TracingSettings) {
  const [sdk, resources, core] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  // Headers, timeout, compression and certificates come from the exporter's own OTEL_EXPORTER_OTLP_* reading.
  const { OTLPTraceExporter } =
    settings.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const exporter = new OTLPTraceExporter({ url: settings.endpoint });

  const ratio = new sdk.TraceIdRatioBasedSampler(settings.samplerRatio);
  const root = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: new sdk.AlwaysOnSampler(),
    parentbased_always_off: new sdk.AlwaysOffSampler(),
    parentbased_traceidratio: ratio,
  }[settings.sampler];
  const sampler = settings.sampler.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;

  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES are read by the SDK's own detector, over our default name.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'lookup-graph' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.TracerProvider({
    resource,
    sampler,
    spanProcessors: [
      // What a collector that is down or slow can cost: spans wait in a queue of at most maxQueueSize (then
      // new ones are dropped, never the request); one export of at most maxExportBatchSize is in flight at a
      // time, given up after exportTimeoutMillis. Nothing on the request path waits for an export.
      new sdk.BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: settings.scheduledDelayMillis,
        maxQueueSize: settings.maxQueueSize,
        maxExportBatchSize: settings.maxExportBatchSize,
        exportTimeoutMillis: settings.exportTimeoutMillis,
      }),
    ],
  });
  // No context manager: a span's parent is handed to it (src/telemetry/spans.ts). AsyncLocalStorage would
  // run a hook for every promise of the process on Node 20: a third of an uncached lookup's CPU.
  const propagators = settings.propagators.map((name) =>
    name === 'tracecontext' ? new core.W3CTraceContextPropagator() : new core.W3CBaggagePropagator(),
  );
  return { provider, propagator: new core.CompositePropagator({ propagators }) };
}
