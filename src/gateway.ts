import { actionNamed } from './actions/all.js';
import { useGraphQlJit } from './server/graphql-jit.js';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { GatewayContext } from './operation/context.js';
import { graphiqlTabs, loadExamples } from './server/examples.js';
import { useCompression } from './server/compression.js';
import { useBoundedErrors } from './server/error-bound.js';
import { maskError } from './kernel/graphql-errors.js';
import { yogaLogger } from './kernel/logger.js';
import type { Sandbox } from './sandbox/server.js';
import { schema } from './graph/index.js';
import type { UpstreamStatus } from './upstream/index.js';
import { stateGauges } from './server/status/gauges.js';
import { cacheGauges, Metrics, upstreamGauges, useIncrementalOutcomes } from './telemetry/metrics.js';
import { useVariableCheck } from './server/variable-check.js';
import {
  createReadiness,
  useProbes,
  readinessReporter,
  type ClientRateLimitStatus,
  type Readiness,
  type ReadyReport,
} from './server/probes.js';
import type { CacheStatus, LookupCache } from './cache/index.js';
import { createSecurity, type Security } from './security/index.js';
import { useCostLimit } from './cost/plugin.js';
import { useCacheControl } from './cache/cache-control.js';
import { useGatewayExtensions } from './server/gateway-extensions.js';
import { useRefusalsAsJson } from './server/refusal-as-json.js';
import { AnsweredOperations, useAnsweredOperations } from './cache/answered.js';
import { ResultMemo, useRememberedResults } from './cache/result-memo.js';
import { OperationLabels } from './telemetry/operation-label.js';
import { useRequestLog } from './telemetry/request-log.js';
import { startTracing } from './telemetry/tracing.js';
import { useIncrementalDelivery, usesIncrementalDelivery } from './incremental/index.js';
import { createRequestPath, type RequestPath } from './request-path.js';
import { createQuotas } from './quota/index.js';
import { useQuota } from './quota/plugin.js';
import { EventLoopDelay, useEventLoopShedding } from './server/event-loop.js';
import { lazyMcp, type LazyMcp } from './mcp/lazy.js';
import { GRAPHQL_PATH } from './kernel/graphql-path.js';
import { LivePolls } from './cache/live-polls.js';
import { createLiveQueries, type LiveQueries } from './operation/live.js';

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  /** The built-in sandbox when the gateway started one (no ACTION_BASE_URL outside production). */
  sandbox: Sandbox | null;
  /** The cross-request cache every lookup goes through. */
  cache: LookupCache;
  /** Which cache backs the lookups and whether it answers. */
  cacheStatus(): CacheStatus;
  /** The upstream's rate-limit budget, breakers, in-flight and queued calls (for /healthz and metrics). */
  upstreamStatus(): UpstreamStatus;
  /** The per-client rate limiter's backend and whether it answers (for /healthz). */
  clientRateLimit(): ClientRateLimitStatus;
  /** Starting, serving or draining: the listener (main.ts) moves it on; /readyz reads it. */
  readiness: Readiness;
  /** What /readyz answers now. */
  ready(): ReadyReport;
  /** The Prometheus metrics, for the METRICS_PORT listener. */
  metrics: Metrics;
  /** The MCP server's tools and endpoint (/mcp, and the stdio entry src/mcp.ts), loaded when first used; null with MCP_ENABLED=false. */
  mcp: LazyMcp | null;
  /** The live queries (@live) this process keeps open: ended with a final result when it shuts down. */
  live: LiveQueries;
  close(): Promise<void>;
}

/** Builds the Yoga instance and the way upstream; does not listen. */
/** HOST names this machine only: /mcp then accepts loopback and same-origin origins as well as CORS_ORIGINS. */
const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');

export async function createGateway(config: Config, logger: Logger): Promise<Gateway> {
  // The sandbox is chosen here, once: with no ACTION_BASE_URL (refused in production by config.ts). Its
  // sample data is loaded only then.
  const sandbox = config.upstream.baseUrl
    ? null
    : await import('./sandbox/server.js').then(({ startSandbox }) =>
        startSandbox({ latency: config.sandboxLatency, movingMarket: config.sandboxMarket === 'moving' }),
      );
  const target = sandbox
    ? { baseUrl: new URL(sandbox.url), token: sandbox.token }
    : { baseUrl: config.upstream.baseUrl!, token: config.upstream.token! };
  // The gauges read the upstream's status and the caches' sizes at scrape time; the upstream reports each call to the metrics.
  let path: RequestPath | undefined;
  let memo: ResultMemo | null = null;
  let security: Security | undefined;
  const batchedSymbols = (action: string) => actionNamed(action)?.batchedSymbols === true;
  const metrics = new Metrics(batchedSymbols, [
    ...upstreamGauges(() => path!.upstream.status()),
    ...cacheGauges(() => [...path!.cache.parts(), ...(memo?.parts() ?? []), ...(security?.documentCacheParts() ?? [])]),
    ...stateGauges({
      ready: () => ready(),
      cacheStatus: () => path!.cacheStatus(),
      clientRateLimit: () => security?.rateLimitStatus?.() ?? { backend: 'off', healthy: true },
      eventLoopBehind: () => eventLoop.behind(),
    }),
  ]);
  // Every named client of the keys file has its series from the start, and its quota's limit.
  metrics.knownClients(
    [...config.security.auth.accounts.values()].flatMap(({ name, quota }) =>
      name ? [{ name, quota: quota === undefined ? config.quota.defaultQuota : quota }] : [],
    ),
  );
  // Tracing off (no OTEL endpoint): no SDK loaded, and none of the span hooks is installed.
  const tracing = await startTracing(config.telemetry, config.cache.keySecret);
  const spans = tracing.enabled ? await import('./telemetry/spans.js') : null;
  path = await createRequestPath({ config, logger, target, metrics, tracing });
  const { cache, cacheStatus, upstream } = path;
  // The operations each request is answered with, executed or remembered: what the response's headers, extensions and log line describe.
  const answered = new AnsweredOperations();
  // Remembered results, tracing on or off: with tracing on a replay is told on its request's span (telemetry/spans.ts, traceReplay).
  memo =
    cache.remembersResults && config.cache.resultsMaxBytes > 0
      ? new ResultMemo(cache, config.cache.resultsMaxBytes)
      : null;

  security = await createSecurity(config.security, logger, config.cache.redisGuard, metrics.observeKeySetFetch);
  const anyKeyQuota = [...config.security.auth.accounts.values(), ...config.security.auth.names.values()].some(
    (account) => account.quota,
  );
  const quotas = await createQuotas(
    config.quota,
    anyKeyQuota,
    logger,
    config.cache.redisGuard,
    security.accountOf,
    metrics.observeQuota,
  );
  // @live: each watched lookup polled once per interval for every watcher (src/cache/live-polls.ts).
  const polls = new LivePolls(cache, config.live.intervalMs, metrics.observeLivePoll);
  const live = createLiveQueries({
    polls,
    settings: config.live,
    again: path.contextAgain,
    logger,
    sandbox: sandbox !== null,
    observe: metrics.observeLive,
  });
  const examples = loadExamples();
  const readiness = createReadiness();
  const ready = readinessReporter(
    readiness,
    cacheStatus,
    () => upstream.status(),
    security.rateLimitStatus,
    () => eventLoop.behind(),
    security.identityStatus ?? undefined,
  );
  // FEDERATION=true: the same schema served as a Federation v2 subgraph (src/server/federation.ts).
  const federation = config.federation.enabled
    ? await import('./server/federation.js').then((m) => m.federated(config.federation))
    : null;
  // MCP (src/mcp): tools are GraphQL operations, each call one request through this same Yoga. Its SDK is
  // loaded on the first /mcp request, or at start when a setting asks for MCP (src/mcp/lazy.ts).
  const mcp: LazyMcp | null = config.mcp.enabled
    ? await lazyMcp(
        {
          settings: config.mcp,
          security: config.security,
          schema: federation?.schema ?? schema,
          refusalOf: security.refusalOf,
          countMessage: security.countMessage,
          countedAlready: security.countedAlready,
          logger,
          loopback: isLoopbackHost(config.host),
          sandbox: sandbox !== null,
          fetch: (request, serverContext): Promise<Response> | Response =>
            yoga.fetch(request, serverContext as Record<string, unknown>),
          fetchAPI: () => yoga.fetchAPI,
        },
        config.mcp.atStart,
      )
    : null;
  // Measured from here: the start-up's own synchronous work (the schemas built above) is not a backlog of requests.
  const eventLoop = new EventLoopDelay(config.ops.eventLoopDelayLimitMs);
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: federation?.schema ?? schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    logging: yogaLogger(logger),
    maskedErrors: { maskError: (error, message) => maskError(error, message, config.production), isDev: false },
    context: (initial) =>
      path.contextFor({
        signal: () => initial.request.signal,
        upstreamToken: security.upstreamTokenFor(initial.request),
        client: security.clientFor(initial.request, initial),
        payer: quotas?.payerOf(initial.request) ?? null,
      }),
    ...security.yogaOptions,
    graphiql: config.security.graphiql && {
      title: 'Lookup Graph',
      defaultTabs: graphiqlTabs(examples),
    },
    // Loaded on the first GraphiQL request: the module is a 9 MB page that costs ~40 MB of memory, which a
    // gateway nobody opens GraphiQL on (production, an API behind a frontend) never pays.
    renderGraphiQL: (options) =>
      import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options)),
    plugins: [
      // /mcp: a tool call's GraphQL request takes the MCP request's place here, so every plugin below sees it.
      ...(mcp ? [mcp.endpoint] : []),
      // Tracing off (no OTEL endpoint): none of the span hooks is installed.
      ...(tracing.enabled && spans ? [spans.useTracing(tracing, target.baseUrl)] : []),
      useRequestLog({
        logger,
        labels: new OperationLabels(config.security.trustedDocuments, config.telemetry.metricsOperationNames),
        observe: metrics.observeRequest,
        logVariables: config.telemetry.logVariables,
        answered,
        clientOf: (request) => security.accountOf(request)?.name ?? null,
      }),
      useAnsweredOperations(answered),
      // In production the public port shows no internals and serves no /metrics (see METRICS_PORT).
      useProbes({
        ready,
        cacheStatus,
        upstreamStatus: () => upstream.status(),
        clientRateLimit: security.rateLimitStatus,
        detailed: !config.production,
        metrics: config.production ? undefined : metrics.exposition,
      }),
      // In order: refusal statuses, CORS, CSRF, auth, rate limit, body, batch and input sizes, persisted or trusted documents, limits (src/security/index.ts).
      ...security.plugins,
      // After the security checks (CORS headers on the refusal, the client known), before the body is read.
      ...(config.ops.eventLoopDelayLimitMs > 0
        ? [useEventLoopShedding(eventLoop, config.ops.eventLoopDelayLimitMs)]
        : []),
      useRefusalsAsJson(),
      useGatewayExtensions(sandbox !== null, answered),
      useCacheControl({ shareable: config.security.auth.mode === 'none', answered }),
      useIncrementalOutcomes(metrics),
      useVariableCheck(),
      ...useIncrementalDelivery((error, message) => maskError(error, message, config.production)),
      useCostLimit({ budget: config.costBudget, batchSize: config.financialBatchSize, batchedSymbols }),
      // After the estimate (an operation over the whole quota is refused) and after extensions.gateway is stamped.
      ...(quotas ? [useQuota(quotas)] : []),
      ...(federation?.plugins ?? []),
      // Operations with @defer/@stream run on Yoga's own executor, which delivers incrementally
      // (src/incremental); every other operation keeps graphql-jit.
      useGraphQlJit({}, { enableIf: (args) => !usesIncrementalDelivery(args.document) }),
      // Answers a repeat of an operation made from the cache alone at onParams; after jit, whose results it records.
      ...(memo
        ? [
            useRememberedResults(memo, {
              fingerprintOf: (request) => path.fingerprintFor(security.upstreamTokenFor(request)),
              answered,
              countReplay: metrics.observeReplay,
              ...(spans ? { traced: spans.traceReplay } : {}),
            }),
          ]
        : []),
      // After jit and the remembered results: a live query's every execution goes through the executor jit chose.
      live.plugin,
      // After the plugins that read each error of an execution (the refusal status): at most 100 listed.
      useBoundedErrors(),
      // After every plugin that changes a result: a tool call's result is handed to its tool unserialised.
      ...(mcp ? [mcp.toolRequests] : []),
      // Last: it compresses the response every other plugin has finished (headers included).
      useCompression(),
    ],
  });

  return {
    yoga,
    sandbox,
    cache,
    cacheStatus,
    upstreamStatus: () => upstream.status(),
    clientRateLimit: security.rateLimitStatus,
    readiness,
    ready,
    metrics,
    mcp,
    live,
    async close() {
      // One failing to close must not keep the others (and their sockets) open.
      eventLoop.close();
      live.endAll();
      polls.close();
      await Promise.allSettled([path.close(), security.close(), quotas?.close(), sandbox?.close()]);
      // Last, so the spans of the final requests are exported.
      await tracing.close().catch((error: unknown) => logger.warn({ err: error }, 'flushing the last spans failed'));
    },
  };
}
