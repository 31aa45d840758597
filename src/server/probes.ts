import type { Plugin } from 'graphql-yoga';
import type { CacheStatus } from '../cache/index.js';
import type { UpstreamStatus } from '../upstream/index.js';
import { VERSION } from './version.js';

/**
 * Liveness and readiness (`/healthz`, `/readyz`), for load balancers and Kubernetes probes.
 *
 * - `/healthz` is liveness: 200 while the process runs its event loop, in every state, with the version.
 * - `/readyz` is readiness: 503 while starting (and, with REDIS_URL, until the cache backend has
 *   answered once) and while draining after SIGTERM. While the process sheds lookups for load it is
 *   `overloaded` (so too while new operations are refused for the event loop's delay), still 200: each shed lookup is already refused cheaply (OVERLOADED, 503 and
 *   Retry-After), and a replica taken out for load hands it to the others, which saturate in turn
 *   until none is left. An open breaker, a spent upstream budget or a Redis outage after start-up make
 *   it `degraded`, also 200: they hit every replica alike. `overloaded` wins over `degraded`.
 */

type Phase = 'starting' | 'serving' | 'draining';

export interface Readiness {
  phase(): Phase;
  /** The HTTP server listens: ready as soon as the cache backend (if any) has answered. */
  serving(): void;
  /** SIGTERM: out of the load balancer from now on. */
  draining(): void;
}

export function createReadiness(): Readiness {
  let phase: Phase = 'starting';
  return {
    phase: () => phase,
    serving: () => {
      if (phase === 'starting') phase = 'serving';
    },
    draining: () => {
      phase = 'draining';
    },
  };
}

/** The per-client rate limiter's backend and whether it answers (src/security, REDIS_URL). */
export interface ClientRateLimitStatus {
  /** workers: counted once for every worker of WORKERS > 1, by their primary (no REDIS_URL). */
  backend: 'off' | 'memory' | 'workers' | 'redis';
  healthy: boolean;
  lastError?: string | null;
  since?: string;
}

export interface ReadyReport {
  status: 'ready' | 'degraded' | 'starting' | 'draining' | 'overloaded';
  ready: boolean;
  /** Why it is not plainly ready, as short codes (only in the detailed body). */
  reasons: string[];
}

/** Judges readiness from the phase, the cache's and upstream's state and the signing keys (JWT_*); never touches the upstream. */
export function readinessReporter(
  readiness: Readiness,
  cacheStatus: () => CacheStatus,
  upstreamStatus: () => UpstreamStatus,
  clientRateLimit?: () => ClientRateLimitStatus,
  eventLoopBehind: () => boolean = () => false,
  identity?: () => { loaded: boolean; healthy: boolean },
): () => ReadyReport {
  let cacheAnswered = false;
  return () => {
    const cache = cacheStatus();
    cacheAnswered ||= cache.healthy;
    const upstream = upstreamStatus();
    const phase = readiness.phase();
    if (phase === 'draining') return { status: 'draining', ready: false, reasons: ['draining'] };
    if (phase === 'starting' || !cacheAnswered)
      return { status: 'starting', ready: false, reasons: cacheAnswered ? ['starting'] : ['cache-not-answering-yet'] };
    // No signing key was ever loaded: no token can be checked yet. Once one was, an unreachable provider only degrades.
    const keys = identity?.();
    if (keys && !keys.loaded) return { status: 'starting', ready: false, reasons: ['identity-keys-not-loaded'] };
    const reasons: string[] = [];
    if (keys && !keys.healthy) reasons.push('identity-provider-unreachable');
    const behind = eventLoopBehind();
    if (behind) reasons.push('event-loop-delay');
    if (upstream.overload.overloaded) reasons.push('shedding-load');
    for (const [action, breaker] of Object.entries(upstream.breakers))
      if (breaker.state !== 'closed') reasons.push(`breaker-${breaker.state}:${action}`);
    if (upstream.rateLimit.holding) reasons.push('upstream-rate-limited');
    // A cluster with some masters out (failing over) is partly reachable: their keys are skipped, the rest are cached.
    if (!cache.healthy)
      reasons.push(cache.cluster?.unreachable.length ? 'cache-partly-unreachable' : 'cache-unreachable');
    // The rate limiter fails open while its Redis is out: degraded, still serving.
    if (clientRateLimit && !clientRateLimit().healthy) reasons.push('client-rate-limit-unreachable');
    return {
      status: upstream.overload.overloaded || behind ? 'overloaded' : reasons.length ? 'degraded' : 'ready',
      ready: true,
      reasons,
    };
  };
}

export interface ProbeOptions {
  ready: () => ReadyReport;
  cacheStatus: () => CacheStatus;
  upstreamStatus: () => UpstreamStatus;
  /** The per-client rate limiter's state, shown in the detailed /healthz body. */
  clientRateLimit?: () => ClientRateLimitStatus;
  /** Whether this listener shows the cache and upstream state and serves /metrics (off on the public port in production). */
  detailed: boolean;
  /** The Prometheus text and its content type, when this listener serves /metrics. */
  metrics?: () => Promise<{ text: string; contentType: string }>;
}

/** The answer to a probe path, or null for any other path. */
export async function probeResponse(
  pathname: string,
  method: string,
  options: ProbeOptions,
): Promise<{ status: number; headers: Record<string, string>; body: string } | null> {
  const json = (status: number, body: unknown) => ({
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  });
  if (pathname === '/healthz') {
    return json(
      200,
      options.detailed
        ? {
            status: 'ok',
            version: VERSION,
            cache: options.cacheStatus(),
            ...(options.clientRateLimit ? { clientRateLimit: options.clientRateLimit() } : {}),
            upstream: options.upstreamStatus(),
          }
        : { status: 'ok', version: VERSION },
    );
  }
  if (pathname === '/readyz') {
    const report = options.ready();
    return json(report.ready ? 200 : 503, options.detailed ? report : { status: report.status });
  }
  if (pathname === '/metrics' && method === 'GET' && options.metrics) {
    const { text, contentType } = await options.metrics();
    return { status: 200, headers: { 'content-type': contentType }, body: text };
  }
  return null;
}

/**
 * The probes on the public port: /healthz, /readyz, and /metrics where it serves them (not in
 * production, where /metrics is a 404 and lives on METRICS_PORT). `/` sends a browser to GraphiQL.
 */
export function useProbes(options: ProbeOptions): Plugin {
  return {
    // Synchronous for every other path: an async hook would put each GraphQL request through a promise.
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (url.pathname === '/graphql') return;
      return probeResponse(url.pathname, request.method, options).then((answer) => {
        if (answer) endResponse(new fetchAPI.Response(answer.body, { status: answer.status, headers: answer.headers }));
        else if (url.pathname === '/metrics' && !options.detailed) {
          endResponse(new fetchAPI.Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } }));
        } else if (url.pathname === '/') {
          endResponse(new fetchAPI.Response(null, { status: 302, headers: { location: '/graphql' } }));
        }
      });
    },
  };
}
