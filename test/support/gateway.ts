import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { type Config, loadConfig } from '../../src/config.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { createLogger } from '../../src/kernel/logger.js';
import { createHttpServer } from '../../src/server/http-server.js';

export interface GraphQLResponse {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, any> | null;
    errors?: Array<{ message: string; path?: Array<string | number>; extensions?: Record<string, any> }>;
    extensions?: Record<string, any>;
  };
  text: string;
}

/** A gateway the test talks to: in process through `yoga.fetch`, or over HTTP (`RunningGateway`). */
export interface TestGateway {
  gateway: Gateway;
  /** Every log line the gateway wrote, as raw JSON text. */
  logs: string[];
  /** A request to a path of the gateway (`/graphql`, `/healthz`, ...). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  query(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GraphQLResponse>;
  post(body: string, headers?: Record<string, string>): Promise<GraphQLResponse>;
  close(): Promise<void>;
}

/** A gateway behind the real node:http server on a real port. */
export interface RunningGateway extends TestGateway {
  url: string;
}

type DeepPartial<T> = T extends Map<unknown, unknown> | unknown[] | URL
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * Values no setting reads (the constants of src/upstream/resilience/constants.ts, the HTTP server's
 * timeouts, the Redis probe interval ...), passed to the gateway in its configuration, merged over
 * what the environment gave.
 */
export type Tuning = DeepPartial<Config>;

const plain = (value: unknown): value is Record<string, unknown> =>
  Object.prototype.toString.call(value) === '[object Object]';
function merged(base: unknown, over: unknown): unknown {
  if (!plain(base) || !plain(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merged(base[key], value);
  return out;
}

/** The configuration the environment gives, with `tuning` merged over it. */
function tunedConfig(env: Record<string, string | undefined>, tuning: Tuning = {}): Config {
  return merged(loadConfig(env), tuning) as Config;
}

async function createTestGateway(env: Record<string, string>, tuning: Tuning = {}) {
  const config = tunedConfig({ LOG_LEVEL: 'debug', ...env }, tuning);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink, [config.upstream.token]);
  return { config, logger, logs, gateway: await createGateway(config, logger) };
}

/** query/post over a fetch function: a JSON POST to /graphql, its status, headers, parsed body and text. */
function graphqlClient(fetchPath: TestGateway['fetch']): Pick<TestGateway, 'query' | 'post'> {
  const post = async (body: string, headers: Record<string, string> = {}): Promise<GraphQLResponse> => {
    const res = await fetchPath('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...headers,
      },
      body,
    });
    const text = await res.text();
    let parsed: GraphQLResponse['body'] = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = {};
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return { post, query: (query, variables, headers) => post(JSON.stringify({ query, variables }), headers) };
}

/**
 * The real gateway in this process, asked through `yoga.fetch`: every plugin of the one pipeline, no
 * socket. For tests where HTTP adds nothing. With no ACTION_BASE_URL in `env` it starts the built-in sandbox.
 */
export async function inProcessGateway(env: Record<string, string> = {}, tuning: Tuning = {}): Promise<TestGateway> {
  const { gateway, logs } = await createTestGateway(env, tuning);
  gateway.readiness.serving();
  const fetchPath: TestGateway['fetch'] = async (path, init) =>
    gateway.yoga.fetch(`http://127.0.0.1${path}`, init as Parameters<typeof gateway.yoga.fetch>[1]);
  return { gateway, logs, fetch: fetchPath, ...graphqlClient(fetchPath), close: () => gateway.close() };
}

/**
 * Starts the real gateway on a real port (a free one unless `port` is given: a test that restarts a gateway
 * behind a router keeps its address). With no ACTION_BASE_URL in `env` it starts the built-in sandbox,
 * exactly as `npm start` does.
 */
export async function startGateway(
  env: Record<string, string> = {},
  port = 0,
  tuning: Tuning = {},
): Promise<RunningGateway> {
  const { config, logger, logs, gateway } = await createTestGateway(env, tuning);
  const server: Server = createHttpServer(gateway.yoga, config.http, logger).server;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  gateway.readiness.serving();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchPath: TestGateway['fetch'] = (path, init) => fetch(`${url}${path}`, init);

  return {
    url,
    gateway,
    logs,
    fetch: fetchPath,
    ...graphqlClient(fetchPath),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
    },
  };
}

/** Bytes of the raw REST payload the sandbox sends for one action, to compare response sizes with. */
export async function restPayloadBytes(
  gw: TestGateway,
  action: string,
  body: Record<string, unknown>,
): Promise<number> {
  const sandbox = gw.gateway.sandbox!;
  const res = await fetch(`${sandbox.url}/v1/action/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`the sandbox answered ${action} with ${res.status}`);
  return Buffer.byteLength(await res.text());
}
