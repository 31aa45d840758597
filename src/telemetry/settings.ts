/**
 * Tracing, request-log and metrics settings, read with the rest of the configuration. Tracing is
 * configured by the standard OpenTelemetry variables (OTEL_*) and is on exactly when an OTLP endpoint
 * is set; the gateway's own choices have their own names.
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
  /** How often the batch span processor exports, in ms (5000; tests pass less). */
  scheduledDelayMillis: number;
}

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

/** How often the batch span processor exports (the specification's default); its other bounds are the SDK's defaults. */
const EXPORT_DELAY_MS = 5_000;

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
  // Tracing is on exactly when an endpoint is set: no endpoint, no SDK.
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

  const protocolRaw = value('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  let protocol: OtlpProtocol = 'http/protobuf';
  if (protocolRaw === 'http/protobuf' || protocolRaw === 'http/json') protocol = protocolRaw;
  else
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got "${protocolRaw}"`,
    );

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

  return {
    endpoint,
    protocol,
    sampler,
    samplerRatio,
    scheduledDelayMillis: EXPORT_DELAY_MS,
  };
}
