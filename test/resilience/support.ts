import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect, onTestFinished } from 'vitest';
import { splice } from '../support/tcp.js';
import {
  FAULT_TOKEN,
  json,
  startFaultUpstream,
  upstreamEnv,
  type FaultUpstream,
  type RecordedCall,
} from '../support/fault-upstream.js';
import type { Config } from '../../src/config.js';
import { startGateway, type GraphQLResponse, type RunningGateway, type TestGateway } from '../support/gateway.js';

export { FAULT_TOKEN, json };
export { sleep, until } from '../support/wait.js';

/** Small settings so the suite stays fast; each test overrides what it exercises. */
const FAST = { UPSTREAM_TIMEOUT_MS: '300' };
/** Short back-offs (the constant is 100 ms) and a breaker that stays open for the whole test. */
const FAST_RESILIENCE: Partial<Config['resilience']> = { retryBackoffMs: 20, breakerCooldownMs: 60_000 };

let seq = 0;
/** A fresh domain per lookup, so that no cache or loader can answer it without the upstream. */
export function domain(): string {
  seq += 1;
  return `d${seq}-${Date.now()}.example.com`;
}

export const domainQuery = (name = domain()) => `{ domainInfo(domain: "${name}") { domainName } }`;

/** A 200 envelope for domain_info / get_crm_owners. */
export function ok(call: RecordedCall, res: ServerResponse, headers: Record<string, string> = {}) {
  if (call.action === 'get_crm_owners') {
    json(
      res,
      200,
      { status: 200, response: [{ id: '7', email: 'a@b.example', firstName: 'A', lastName: 'B', teams: [] }] },
      headers,
    );
  } else {
    json(res, 200, { status: 200, response: { domain_name: call.body.domain ?? 'x' } }, headers);
  }
}

export interface Rig {
  up: FaultUpstream;
  gw: RunningGateway;
  /** Calls the upstream handler is working on right now, and the most ever at once. */
  load: { now: number; peak: number; answered: number };
  domainCalls(): number;
  close(): Promise<void>;
}

type Handler = (call: RecordedCall, req: IncomingMessage, res: ServerResponse) => unknown;

/** A fault upstream that measures its own concurrency, and a gateway in front of it; both closed when the test ends. */
export async function rig(
  env: Record<string, string>,
  handler: Handler = (call, _req, res) => ok(call, res),
  resilience: Partial<Config['resilience']> = {},
): Promise<Rig & { handle(h: Handler): void }> {
  const up = await startFaultUpstream();
  const load = { now: 0, peak: 0, answered: 0 };
  let current = handler;
  up.handle(async (call, req, res) => {
    load.now += 1;
    load.peak = Math.max(load.peak, load.now);
    res.on('close', () => {
      load.now -= 1;
      if (res.writableEnded) load.answered += 1;
    });
    await current(call, req, res);
  });
  const gw = await startGateway({ ...upstreamEnv(up), ...FAST, ...env }, 0, {
    resilience: { ...FAST_RESILIENCE, ...resilience },
  });
  const running: Rig & { handle(h: Handler): void } = {
    up,
    gw,
    load,
    handle: (h) => {
      current = h;
    },
    domainCalls: () => up.calls.filter((call) => call.action === 'domain_info').length,
    async close() {
      expectNoSecrets(gw);
      await gw.close();
      await up.close();
    },
  };
  onTestFinished(() => running.close());
  return running;
}

/** Posts the domain query to `gw` with a signal, so the test can go away mid-request: `abort()` ends it (the promise then holds the error). */
export function abortableQuery(gw: RunningGateway): { response: Promise<unknown>; abort(): void } {
  const controller = new AbortController();
  const response = gw
    .fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: domainQuery() }),
      signal: controller.signal,
    })
    .catch((error: unknown) => error);
  return { response, abort: () => controller.abort() };
}

/** Runs a query and measures how long the gateway took to answer it. */
export async function timed(run: () => Promise<GraphQLResponse>): Promise<GraphQLResponse & { ms: number }> {
  const started = performance.now();
  const response = await run();
  return { ...response, ms: performance.now() - started };
}

export function codeOf(response: GraphQLResponse, path = 'domainInfo'): Record<string, any> | undefined {
  return response.body.errors?.find((error) => error.path?.[0] === path)?.extensions;
}

/** The upstream token and its bearer header appear in no response and no log line. */
export function expectNoSecrets(gw: TestGateway, ...texts: string[]) {
  const logs = gw.logs.join('\n');
  expect(logs).not.toContain(FAULT_TOKEN);
  expect(logs).not.toMatch(/Bearer/);
  for (const text of texts) {
    expect(text).not.toContain(FAULT_TOKEN);
    expect(text).not.toMatch(/Bearer/);
  }
}

export async function healthz(gw: TestGateway): Promise<Record<string, any>> {
  const res = await gw.fetch(`/healthz`);
  return (await res.json()) as Record<string, any>;
}

/**
 * A TCP front for the upstream that resets the first `resets` connections during the handshake
 * (before the client could write a byte) and pipes the others through.
 */
export async function resettingFront(
  target: string,
  resets: number,
): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const port = Number(new URL(target).port);
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  let left = resets;
  const server: Server = createServer((socket) => {
    state.connections += 1;
    if (left > 0) {
      left -= 1;
      socket.resetAndDestroy();
      return;
    }
    sockets.add(socket);
    const upstream = connect(port, '127.0.0.1');
    sockets.add(upstream);
    splice(socket, upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
