/**
 * Tracing, request-log and metrics settings, read with the rest of the configuration. Tracing is
 * configured by the standard OpenTelemetry variables (OTEL_*, with the SDK's names and defaults) and is on
 * when an OTLP endpoint is set, unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none; the gateway's
 * own choices have their own names. They are read here, from the environment the configuration is read
 * from, rather than by the SDK's env helpers (which read process.env alone): so a bad value stops the
 * start with the rest, and with tracing off the SDK is never loaded to read them.
 */

type Env = Record<string, string | undefined>;

type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The standard samplers of the OpenTelemetry SDK configuration (OTEL_TRACES_SAMPLER). */
type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

export interface TracingSettings {
  /** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  endpoint: string;
  protocol: OtlpProtocol;
  sampler: SamplerName;
  /** OTEL_TRACES_SAMPLER_ARG: the ratio of the ratio samplers. */
  samplerRatio: number;
  /** OTEL_PROPAGATORS: how a trace context is read from requests and written to upstream calls. */
  propagators: Propagator[];
  /** OTEL_BSP_SCHEDULE_DELAY: how often the batch span processor exports, in ms. */
  scheduledDelayMillis: number;
  /** OTEL_BSP_MAX_QUEUE_SIZE: spans waiting for export at most; more are dropped, never the request. */
  maxQueueSize: number;
  /** OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans in one export at most. */
  maxExportBatchSize: number;
  /** OTEL_BSP_EXPORT_TIMEOUT: how long one export may take before it is given up, in ms. */
  exportTimeoutMillis: number;
}

/** The propagators of OTEL_PROPAGATORS the gateway has (the W3C ones, in @opentelemetry/core). */
type Propagator = 'tracecontext' | 'baggage';

export interface TelemetrySettings {
  /** null: tracing off, no SDK loaded, the API's no-op tracer. */
  tracing: TracingSettings | null;
  /** TRACE_PROPAGATE_UPSTREAM: send `traceparent` on upstream calls (off: the upstream is a third party). */
  propagateUpstream: boolean;
  /** TRACE_LOOKUP_KEYS: lookup keys (emails, handles, URLs) in spans as an HMAC (`hash`) or not at all (`omit`). */
  lookupKeys: 'hash' | 'omit';
  /** LOG_FORMAT: one JSON object a line (production) or pino-pretty's coloured lines (development). */
  logFormat: 'json' | 'pretty';
  /** LOG_VARIABLES: add the operation's variables to the per-request log line (off: they may be personal data). */
  logVariables: boolean;
  /** METRICS_OPERATION_NAMES: operation names that get their own metrics label besides the trusted documents'. */
  metricsOperationNames: string[];
}

/** The batch span processor's defaults, the specification's and the SDK's. */
const BSP_DEFAULTS = {
  OTEL_BSP_SCHEDULE_DELAY: 5_000,
  OTEL_BSP_MAX_QUEUE_SIZE: 2_048,
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 512,
  OTEL_BSP_EXPORT_TIMEOUT: 30_000,
} as const;

const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

export function readTelemetrySettings(env: Env, problems: string[]): TelemetrySettings {
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (!raw) return fallback;
    if (raw !== 'true' && raw !== 'false') {
      problems.push(`${name} must be true or false, got "${env[name]}"`);
      return fallback;
    }
    return raw === 'true';
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = env[name]?.trim().toLowerCase();
    if (!raw) return fallback;
    if (!allowed.includes(raw as T)) {
      problems.push(`${name} must be one of ${allowed.join(', ')}, got "${env[name]}"`);
      return fallback;
    }
    return raw as T;
  };

  const names = (env.METRICS_OPERATION_NAMES ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!OPERATION_NAME.test(name))
      problems.push(`METRICS_OPERATION_NAMES must list GraphQL operation names, got "${name}"`);
  }
  if (names.length > 200)
    problems.push(`METRICS_OPERATION_NAMES may list at most 200 names (each is a metrics series), got ${names.length}`);

  return {
    tracing: readTracing(env, problems),
    propagateUpstream: flag('TRACE_PROPAGATE_UPSTREAM', false),
    lookupKeys: oneOf('TRACE_LOOKUP_KEYS', ['hash', 'omit'] as const, 'hash'),
    logFormat: oneOf('LOG_FORMAT', ['json', 'pretty'] as const, 'json'),
    logVariables: flag('LOG_VARIABLES', false),
    metricsOperationNames: names.filter((name) => OPERATION_NAME.test(name)),
  };
}

function readTracing(env: Env, problems: string[]): TracingSettings | null {
  const value = (name: string) => env[name]?.trim() || undefined;
  // The SDK's switch: true turns tracing off whatever else is set.
  const disabled = value('OTEL_SDK_DISABLED')?.toLowerCase();
  if (disabled !== undefined && disabled !== 'true' && disabled !== 'false')
    problems.push(`OTEL_SDK_DISABLED must be true or false, got "${env.OTEL_SDK_DISABLED}"`);
  const exporter = value('OTEL_TRACES_EXPORTER')?.toLowerCase() ?? 'otlp';
  if (exporter !== 'otlp' && exporter !== 'none')
    problems.push(`OTEL_TRACES_EXPORTER must be otlp or none, got "${env.OTEL_TRACES_EXPORTER}"`);
  if (disabled === 'true' || exporter === 'none') return null;
  // Otherwise tracing is on exactly when an endpoint is set: no endpoint, no SDK.
  const tracesEndpoint = value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (!tracesEndpoint && !baseEndpoint) return null;

  // The specification's defaults: a signal endpoint is used as given, the base one gets /v1/traces.
  const endpoint = tracesEndpoint ?? `${baseEndpoint!.replace(/\/+$/, '')}/v1/traces`;
  const endpointName = tracesEndpoint ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      problems.push(`${endpointName} must be an http(s) URL, got "${endpoint}"`);
  } catch {
    problems.push(`${endpointName} must be an absolute http(s) URL, got "${endpoint}"`);
  }

  // The signal's own protocol wins over the general one, as in the SDK.
  const protocolName = value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocolRaw = value(protocolName) ?? 'http/protobuf';
  let protocol: OtlpProtocol = 'http/protobuf';
  if (protocolRaw === 'http/protobuf' || protocolRaw === 'http/json') protocol = protocolRaw;
  else
    problems.push(`${protocolName} must be http/protobuf or http/json (grpc is not supported), got "${protocolRaw}"`);

  const samplerRaw = (value('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').toLowerCase();
  let sampler: SamplerName = 'parentbased_always_on';
  if (SAMPLERS.includes(samplerRaw as SamplerName)) sampler = samplerRaw as SamplerName;
  else problems.push(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, got "${env.OTEL_TRACES_SAMPLER}"`);
  let samplerRatio = 1;
  const ratioRaw = value('OTEL_TRACES_SAMPLER_ARG');
  if (ratioRaw !== undefined && sampler.endsWith('traceidratio')) {
    const ratio = Number(ratioRaw);
    if (!/^\d*\.?\d+$/.test(ratioRaw) || ratio < 0 || ratio > 1)
      problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "${ratioRaw}"`);
    else samplerRatio = ratio;
  }

  const bsp = (name: keyof typeof BSP_DEFAULTS, min: number): number => {
    const raw = value(name);
    if (raw === undefined) return BSP_DEFAULTS[name];
    const number = Number(raw);
    if (!/^\d+$/.test(raw) || number < min || number > 2_147_483_647) {
      problems.push(`${name} must be a whole number from ${min}, got "${raw}"`);
      return BSP_DEFAULTS[name];
    }
    return number;
  };
  const maxQueueSize = bsp('OTEL_BSP_MAX_QUEUE_SIZE', 1);
  const maxExportBatchSize = bsp('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1);
  if (maxExportBatchSize > maxQueueSize)
    problems.push(
      `OTEL_BSP_MAX_EXPORT_BATCH_SIZE (${maxExportBatchSize}) must not be more than OTEL_BSP_MAX_QUEUE_SIZE (${maxQueueSize})`,
    );

  return {
    endpoint,
    protocol,
    sampler,
    samplerRatio,
    propagators: readPropagators(value('OTEL_PROPAGATORS'), problems),
    scheduledDelayMillis: bsp('OTEL_BSP_SCHEDULE_DELAY', 0),
    maxQueueSize,
    maxExportBatchSize,
    exportTimeoutMillis: bsp('OTEL_BSP_EXPORT_TIMEOUT', 1),
  };
}

/** OTEL_PROPAGATORS: a comma-separated list, `tracecontext,baggage` by default, `none` for none. */
function readPropagators(raw: string | undefined, problems: string[]): Propagator[] {
  if (raw === undefined) return ['tracecontext', 'baggage'];
  const names = [
    ...new Set(
      raw
        .toLowerCase()
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 1 && names[0] === 'none') return [];
  const known = names.filter((name): name is Propagator => name === 'tracecontext' || name === 'baggage');
  if (known.length !== names.length)
    problems.push(`OTEL_PROPAGATORS must list tracecontext and/or baggage, or be none, got "${raw}"`);
  return known;
}
