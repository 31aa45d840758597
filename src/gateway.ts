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
import { createUpstream } from './upstream/index.js';

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  /** The built-in sandbox when the gateway started one (no ACTION_BASE_URL outside production). */
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

/** Builds the Yoga instance and the way upstream; does not listen. */
export async function createGateway(config: Config, logger: Logger): Promise<Gateway> {
  const upstream = await createUpstream(config, logger);
  const sandbox = upstream.sandbox;
  const deps = { config, sandbox: sandbox !== null, callAction: upstream.callAction };

  const examples = loadExamples();
  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: yogaLogger(logger),
    maskedErrors: { maskError: (error, message) => maskError(error, message) },
    context: ({ request }) => createContext(deps, { signal: request.signal }),
    graphiql: {
      title: 'Lookup Graph',
      defaultTabs: examples.map((example) => ({
        query: example.query,
        variables: example.variables ? JSON.stringify(example.variables, null, 2) : null,
      })),
    },
    renderGraphiQL,
    plugins: [healthz(), gatewayExtensions(sandbox !== null)],
  });

  return {
    yoga,
    sandbox,
    close: () => upstream.close(),
  };
}

/** `GET /healthz`: liveness, answered without touching the schema or the upstream. */
function healthz(): Plugin {
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname === '/healthz') {
        endResponse(new fetchAPI.Response(JSON.stringify({ status: 'ok' }), { headers: { 'content-type': 'application/json' } }));
      } else if (url.pathname === '/') {
        endResponse(new fetchAPI.Response(null, { status: 302, headers: { location: '/graphql' } }));
      }
    },
  };
}

/** Reports on every response whether the upstream is the sandbox and how many upstream calls it made. */
function gatewayExtensions(sandbox: boolean): Plugin<GatewayContext> {
  const stamp = (result: { extensions?: Record<string, unknown> }, upstreamCalls: number) => ({
    ...result,
    extensions: { ...result.extensions, gateway: { sandbox, upstreamCalls } },
  });
  return {
    onExecute({ args }) {
      const context = args.contextValue;
      return {
        onExecuteDone({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) setResult(stamp(result, context.usage.upstreamCalls));
        },
      };
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      if (!result.extensions?.gateway) setResult(stamp(result, 0));
    },
  };
}
