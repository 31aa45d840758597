import { useGraphQlJit } from '@envelop/graphql-jit';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createContext, type GatewayContext } from './context.js';
import { loadExamples } from './examples.js';
import { maskError } from './graphql-errors.js';
import { yogaLogger } from './logger.js';
import type { Sandbox } from './sandbox/server.js';
import { schema } from './schema/index.js';
import { createUpstream, type Upstream, type UpstreamStatus } from './upstream/index.js';
import { Metrics, upstreamGauges } from './metrics.js';
import { variableCheck } from './variable-check.js';
import { createLookupCache, type CacheStatus, type LookupCache } from './cache/index.js';
import { createSecurity } from './security/index.js';
import { costReportOf } from './cost/meter.js';
import { costLimit } from './cost/plugin.js';
import { incrementalDelivery, usesIncrementalDelivery } from './incremental/index.js';

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
  close(): Promise<void>;
}

/** Builds the Yoga instance and the way upstream; does not listen. */
export async function createGateway(config: Config, logger: Logger): Promise<Gateway> {
  // The gauges read the upstream's status at scrape time; the upstream reports each call to the metrics.
  let upstream: Upstream | undefined;
  const metrics = new Metrics(upstreamGauges(() => upstream!.status()));
  upstream = await createUpstream(config, logger, metrics.observeCall);
  const sandbox = upstream.sandbox;
  const { cache, status: cacheStatus } = await createLookupCache(config.cache, logger, metrics.observeLookup);
  const defaultToken = config.upstream.token ?? sandbox!.token;
  const deps = { config, sandbox: sandbox !== null, callAction: metrics.instrument(upstream.callAction), cache, defaultToken };

  const security = await createSecurity(config.security, logger);
  const examples = loadExamples();
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: yogaLogger(logger),
    maskedErrors: { maskError: (error, message) => maskError(error, message), isDev: false },
    context: ({ request }) => createContext(deps, { signal: request.signal, upstreamToken: security.upstreamTokenFor(request) }),
    ...security.yogaOptions,
    graphiql: config.security.graphiql && {
      title: 'Lookup Graph',
      defaultTabs: examples.map((example) => ({
        query: example.query,
        variables: example.variables ? JSON.stringify(example.variables, null, 2) : null,
      })),
    },
    renderGraphiQL,
    plugins: [healthz(cacheStatus, () => upstream.status()), ...security.plugins, gatewayExtensions(sandbox !== null), metrics.plugin(), variableCheck(), ...incrementalDelivery(maskError), costLimit({ budget: config.costBudget, batchSize: config.financialBatchSize }),
      // Operations with @defer/@stream run on Yoga's own executor, which delivers incrementally
      // (src/incremental); every other operation keeps graphql-jit.
      useGraphQlJit({}, { enableIf: (args) => !usesIncrementalDelivery(args.document) }),
    ],
  });

  return {
    yoga,
    sandbox,
    cache,
    cacheStatus,
    upstreamStatus: () => upstream.status(),
    async close() {
      // One failing to close must not keep the others (and their sockets) open.
      await Promise.allSettled([upstream.close(), cache.close(), security.close()]);
    },
  };
}

/** `GET /healthz`: liveness, the state of the cache and of the way upstream, answered without touching the upstream. */
function healthz(cacheStatus: () => CacheStatus, upstreamStatus: () => UpstreamStatus): Plugin {
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname === '/healthz') {
        const body = { status: 'ok', cache: cacheStatus(), upstream: upstreamStatus() };
        endResponse(new fetchAPI.Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
      } else if (url.pathname === '/') {
        endResponse(new fetchAPI.Response(null, { status: 302, headers: { location: '/graphql' } }));
      }
    },
  };
}

/** Reports on every response whether the upstream is the sandbox and how many upstream calls it made. */
function gatewayExtensions(sandbox: boolean): Plugin<GatewayContext> {
  const stamp = (result: { extensions?: Record<string, unknown> }, usage: GatewayContext['usage'] | null) => ({
    ...result,
    extensions: {
      ...result.extensions,
      gateway: {
        sandbox,
        upstreamCalls: usage?.upstreamCalls ?? 0,
        // The operation's estimated cost in upstream calls and the budget it was held to (src/cost).
        cost: usage ? costReportOf(usage) : null,
        // Per lookup: where its value came from (cache, upstream, or another request's call).
        lookups: usage?.lookups ?? [],
      },
    },
  });
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      return {
        onExecuteDone({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) {
            setResult(stamp(result, context.usage));
            return undefined;
          }
          // Incremental delivery: the usage is final once nothing is left to send, so the last
          // payload (hasNext: false) carries it; the earlier ones carry none.
          return {
            onNext({ result: payload, setResult: setPayload }) {
              if ('hasNext' in payload && payload.hasNext === false) setPayload(stamp(payload, context.usage));
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
