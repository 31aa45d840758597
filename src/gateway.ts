import type { RequestListener } from 'node:http';
import { useGraphQlJit } from '@envelop/graphql-jit';
import type { DocumentNode } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { GatewayContext } from './context.js';
import { loadExamples } from './examples.js';
import { compression } from './compression.js';
import { DocumentCache } from './document-cache.js';
import { maskError } from './graphql-errors.js';
import { yogaLogger } from './logger.js';
import { startSandbox, type Sandbox } from './sandbox/server.js';
import { schema } from './schema/index.js';
import type { UpstreamStatus } from './upstream/index.js';
import { cacheGauges, Metrics, upstreamGauges } from './metrics.js';
import { variableCheck } from './variable-check.js';
import { createReadiness, probesPlugin, readinessReporter, type ClientRateLimitStatus, type Readiness, type ReadyReport } from './probes.js';
import type { CacheStatus, LookupCache } from './cache/index.js';
import { createSecurity } from './security/index.js';
import { costLimit } from './cost/plugin.js';
import { cacheControl, publicReport } from './cache/cache-control.js';
import { ResultMemo, rememberedResults } from './cache/result-memo.js';
import { OperationLabels } from './telemetry/operation-label.js';
import { requestLog } from './telemetry/request-log.js';
import { tracingPlugin } from './telemetry/spans.js';
import { startTracing } from './telemetry/tracing.js';
import { incrementalDelivery, usesIncrementalDelivery } from './incremental/index.js';
import { createRequestPath, type RequestPath } from './request-path.js';
import { parsedParams } from './parsed-params.js';
import { replayRoute } from './replay-route.js';
import type { Operation } from './operation.js';

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  /** What the HTTP server serves: repeats of remembered operations answered before Yoga (src/replay-route.ts), the rest by Yoga. */
  handler: RequestListener;
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
  /** The Prometheus registry, for the METRICS_PORT listener. */
  metrics: Metrics;
  close(): Promise<void>;
}

/** Builds the Yoga instance and the way upstream; does not listen. */
export async function createGateway(config: Config, logger: Logger): Promise<Gateway> {
  // The sandbox is chosen here, once: with no ACTION_BASE_URL (refused in production by config.ts).
  const sandbox = config.upstream.baseUrl ? null : await startSandbox({ latency: config.sandboxLatency });
  const target = sandbox ? { baseUrl: new URL(sandbox.url), token: sandbox.token } : { baseUrl: config.upstream.baseUrl!, token: config.upstream.token! };
  // The gauges read the upstream's status and the caches' sizes at scrape time; the upstream reports each call to the metrics.
  let path: RequestPath | undefined;
  let memo: ResultMemo | null = null;
  const metrics = new Metrics([...upstreamGauges(() => path!.upstream.status()), ...cacheGauges(() => [...path!.cache.parts(), ...(memo?.parts() ?? [])])]);
  // Tracing off (no OTEL endpoint): no SDK loaded, and none of the span hooks is installed.
  const tracing = await startTracing(config.telemetry, config.cache.keySecret);
  path = await createRequestPath({ config, logger, target, sandbox: sandbox !== null, metrics, tracing });
  const { cache, cacheStatus, upstream } = path;
  const requestLogOptions = {
    logger,
    labels: new OperationLabels(config.security.trustedDocuments, config.telemetry.metricsOperationNames),
    observe: metrics.observeRequest,
    logVariables: config.telemetry.logVariables,
  };
  const telemetryPlugins = [...(tracing.enabled ? [tracingPlugin(tracing)] : []), requestLog(requestLogOptions)];
  // Remembered results: not with tracing on, where every lookup has its span.
  memo = cache.remembersResults && !tracing.enabled && config.cache.resultsMaxBytes > 0 ? new ResultMemo(cache, config.cache.resultsMaxBytes) : null;
  const documents = new DocumentCache<DocumentNode>(1024);
  const shareable = config.security.auth.mode === 'none';

  const security = await createSecurity(config.security, logger, config.cache.redisGuard);
  const examples = loadExamples();
  const readiness = createReadiness();
  const ready = readinessReporter(readiness, cacheStatus, () => upstream.status(), security.rateLimitStatus);
  // In production the public port shows no internals and serves no /metrics (see METRICS_PORT).
  const probes = probesPlugin({
    ready,
    cacheStatus,
    upstreamStatus: () => upstream.status(),
    clientRateLimit: security.rateLimitStatus,
    detailed: !config.production,
  });
  // FEDERATION=true: the same schema served as a Federation v2 subgraph (src/federation).
  const federation = config.federation.enabled ? await import('./federation/index.js').then((m) => m.federated(config.federation)) : null;
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema: federation?.schema ?? schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: yogaLogger(logger),
    maskedErrors: { maskError: (error, message) => maskError(error, message), isDev: false },
    // Parsed documents found without hashing the whole query text of every request (src/document-cache.ts).
    parserAndValidationCache: { documentCache: documents, errorCache: new DocumentCache(1024) },
    context: (initial) =>
      path.contextFor({
        signal: () => initial.request.signal,
        upstreamToken: security.upstreamTokenFor(initial.request),
        client: security.clientFor(initial.request, initial),
      }),
    ...security.yogaOptions,
    graphiql: config.security.graphiql && {
      title: 'Lookup Graph',
      defaultTabs: examples.map((example) => ({
        query: example.query,
        variables: example.variables ? JSON.stringify(example.variables, null, 2) : null,
      })),
    },
    // Loaded on the first GraphiQL request: the module is a 9 MB page that costs ~40 MB of memory, which a
    // gateway nobody opens GraphiQL on (production, an API behind a frontend) never pays.
    renderGraphiQL: (options) => import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options)),
    plugins: [
      // The body the replay route parsed, when it hands the request on (src/replay-route.ts).
      parsedParams(),
      ...telemetryPlugins,
      probes,
      ...security.plugins,
      gatewayExtensions(sandbox !== null),
      cacheControl({ shareable }),
      metrics.plugin(),
      variableCheck(),
      ...incrementalDelivery(maskError),
      costLimit({ budget: config.costBudget, batchSize: config.financialBatchSize }),
      ...(federation?.plugins ?? []),
      // Operations with @defer/@stream run on Yoga's own executor, which delivers incrementally
      // (src/incremental); every other operation keeps graphql-jit.
      useGraphQlJit({}, { enableIf: (args) => !usesIncrementalDelivery(args.document) && !federation?.withoutJit(args.document) }),
      // After jit, whose executor it wraps: repeats of an operation answered from the cache alone.
      ...(memo ? [rememberedResults(memo, () => metrics.observeReplay('yoga'))] : []),
      // Last: it compresses the response every other plugin has finished (headers included).
      ...(config.compressMinBytes > 0 ? [compression(config.compressMinBytes)] : []),
    ],
  });

  const handler: RequestListener = memo
    ? replayRoute(
        {
          memo,
          documents,
          security,
          fingerprint: (upstreamToken) => cache.fingerprint(upstreamToken ?? target.token),
          report: (replay) => gatewayReport(sandbox !== null, { upstreamCalls: 0, cost: replay.cost, lookups: replay.lookups }),
          shareable,
          compressMinBytes: config.compressMinBytes,
          requestLog: requestLogOptions,
          metrics,
        },
        yoga,
      )
    : yoga;

  return {
    yoga,
    handler,
    sandbox,
    cache,
    cacheStatus,
    upstreamStatus: () => upstream.status(),
    clientRateLimit: security.rateLimitStatus,
    readiness,
    ready,
    metrics,
    async close() {
      // One failing to close must not keep the others (and their sockets) open.
      await Promise.allSettled([path.close(), security.close(), sandbox?.close()]);
      // Last, so the spans of the final requests are exported.
      await tracing.close().catch((error: unknown) => logger.warn({ err: error }, 'flushing the last spans failed'));
    },
  };
}

/** `extensions.gateway` of one operation's response. */
export function gatewayReport(sandbox: boolean, operation: Pick<Operation, 'upstreamCalls' | 'cost' | 'lookups'> | null) {
  return {
    sandbox,
    upstreamCalls: operation?.upstreamCalls ?? 0,
    // The operation's estimated cost in upstream calls and the budget it was held to (src/cost).
    cost: operation?.cost ?? null,
    // Per lookup: where its value came from (cache, upstream, or another request's call) and its age in seconds.
    lookups: (operation?.lookups ?? []).map(publicReport),
  };
}

/** Reports on every response whether the upstream is the sandbox and how many upstream calls it made. */
function gatewayExtensions(sandbox: boolean): Plugin<GatewayContext> {
  const report = (operation: Operation | null) => gatewayReport(sandbox, operation);
  const stamp = (result: { extensions?: Record<string, unknown> }, operation: Operation | null) => ({
    ...result,
    extensions: { ...result.extensions, gateway: report(operation) },
  });
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      return {
        onExecuteDone({ result }) {
          if (!(Symbol.asyncIterator in result)) {
            // The execution's own result object, made for this request alone: extended in place, not
            // copied (measured: a copy cost ~7 µs of a cached request's 64).
            (result as { extensions?: Record<string, unknown> }).extensions = { ...result.extensions, gateway: report(context.operation) };
            return undefined;
          }
          // Incremental delivery: the usage is final once nothing is left to send, so the last
          // payload (hasNext: false) carries it; the earlier ones carry none.
          return {
            onNext({ result: payload, setResult: setPayload }) {
              if ('hasNext' in payload && payload.hasNext === false) setPayload(stamp(payload, context.operation));
            },
          };
        },
      };
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (!result.extensions?.gateway) setResult(stamp(result, null));
    },
  };
}
