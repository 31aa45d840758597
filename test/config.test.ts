import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configProblems } from './support/config.js';
import { loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('defaults to the sandbox on port 4000 outside production', () => {
    const config = loadConfig({});
    expect(config.upstream.baseUrl).toBeNull();
    expect(config.port).toBe(4000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.upstream.timeoutMs).toBe(10_000);
  });

  it('reads the upstream settings', () => {
    const config = loadConfig({
      ACTION_BASE_URL: 'https://api.example.com/base',
      ACTION_TOKEN: ' t0k ',
      PORT: '8080',
      UPSTREAM_TIMEOUT_MS: '2500',
    });
    expect(config.upstream.baseUrl?.href).toBe('https://api.example.com/base');
    expect(config.upstream.token).toBe('t0k');
    expect(config.port).toBe(8080);
    expect(config.upstream.timeoutMs).toBe(2500);
  });

  it('stops production start-up without the upstream settings, naming them', () => {
    expect(configProblems({ NODE_ENV: 'production' })).toEqual([
      'ACTION_BASE_URL is required when NODE_ENV=production (the built-in sandbox is for development only)',
      'ACTION_TOKEN is required when NODE_ENV=production',
      'GATEWAY_API_KEY_HASHES or GATEWAY_API_KEYS_FILE is required when NODE_ENV=production (or JWT_ISSUER or JWT_JWKS_URL for signed tokens; or set GATEWAY_AUTH=forward, or GATEWAY_AUTH=none to open the gateway deliberately)',
    ]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ UPSTREAM_TIMEOUT_MS: '-5' }, 'UPSTREAM_TIMEOUT_MS must be a whole number from 50 to 120000, got "-5"'],
    [{ ACTION_BASE_URL: 'ftp://x.example', ACTION_TOKEN: 't' }, 'ACTION_BASE_URL must use http or https, got "ftp:"'],
    [
      { ACTION_BASE_URL: 'not a url', ACTION_TOKEN: 't' },
      'ACTION_BASE_URL must be an absolute http(s) URL, got "not a url"',
    ],
    [
      { ACTION_BASE_URL: 'https://user:pw@api.example.com', ACTION_TOKEN: 't' },
      'ACTION_BASE_URL must not contain credentials; put the token in ACTION_TOKEN',
    ],
    [
      { ACTION_BASE_URL: 'https://api.example.com' },
      'ACTION_TOKEN is required when ACTION_BASE_URL is set (the upstream bearer token)',
    ],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
  ])('rejects %j', (env, problem) => {
    expect(configProblems(env)).toEqual([problem]);
  });

  it('reports every bad setting at once', () => {
    expect(configProblems({ PORT: 'x', COST_BUDGET: '0' })).toHaveLength(2);
  });

  it("CACHE_TTL_SECONDS sets the actions' TTLs and, with not_found=, how long a NOT_FOUND is remembered", () => {
    const cache = loadConfig({ CACHE_TTL_SECONDS: 'domain_info=3600,not_found=5' }).cache;
    expect(cache.ttlMs.domain_info).toBe(3_600_000);
    expect(cache.notFoundTtlMs).toBe(5_000);
    expect(loadConfig({}).cache.notFoundTtlMs).toBe(60_000);
    expect(configProblems({ CACHE_TTL_SECONDS: 'not_found=90000' })).toEqual([
      'CACHE_TTL_SECONDS entries must be <action>=<seconds> with a known action, or not_found=<seconds> (0 to 86400), got "not_found=90000"',
    ]);
  });

  it('a former setting still set changes nothing and is named for the start-up warning, never refused', () => {
    const config = loadConfig({ UPSTREAM_MAX_RETRIES: '7', ENABLE_GRAPHIQL: 'yes' });
    expect(config.resilience.maxRetries).toBe(2);
    expect(config.retired).toEqual(['UPSTREAM_MAX_RETRIES', 'ENABLE_GRAPHIQL']);
    expect(loadConfig({}).retired).toEqual([]);
  });

  it('every setting the changelog lists as removed, fixed or merged is named for the start-up warning when set', () => {
    const changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
    const lists = [
      /- Settings no operator tunes are constants[^\n]*/.exec(changelog)![0],
      /- `COMPRESS_MIN_BYTES`[\s\S]*?\n\n/.exec(changelog)![0],
    ].join('\n');
    // Every setting named in those entries, but the ones that remain (the settings they were merged into).
    const remaining = new Set([
      'REDIS_KEY_PREFIX',
      'SANDBOX_LATENCY',
      'CACHE_TTL_SECONDS',
      'ENABLE_INTROSPECTION',
      'HOST',
      'PORT',
      'UPSTREAM_MAX_IN_FLIGHT',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      // The standard OpenTelemetry variables, read again with the SDK's names and defaults.
      'OTEL_BSP_SCHEDULE_DELAY',
      'OTEL_BSP_MAX_QUEUE_SIZE',
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
      'OTEL_BSP_EXPORT_TIMEOUT',
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
      'OTEL_TRACES_EXPORTER',
      'OTEL_SDK_DISABLED',
    ]);
    const former = [...new Set([...lists.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!))].filter(
      (name) => !remaining.has(name),
    );
    expect(former.length).toBeGreaterThanOrEqual(40);
    const config = loadConfig(Object.fromEntries(former.map((name) => [name, '1'])));
    expect(config.retired.sort()).toEqual(former.sort());
  });

  it('UPSTREAM_MAX_IN_FLIGHT sizes the per-client and per-action shares; the other upstream internals are constants', () => {
    const config = loadConfig({ UPSTREAM_MAX_IN_FLIGHT: '8' });
    expect(config.resilience).toMatchObject({
      maxInFlight: 8,
      maxInFlightPerClient: 4,
      maxInFlightPerAction: 6,
      maxRetries: 2,
      maxQueued: 100,
    });
  });
});
