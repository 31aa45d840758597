import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';

export interface RecordedCall {
  action: string;
  body: Record<string, any>;
  authorization: string | undefined;
}

export type FaultHandler = (call: RecordedCall, req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FaultUpstream {
  url: string;
  token: string;
  calls: RecordedCall[];
  /** What the next calls get; by default a 200 envelope echoing the body. */
  handle(handler: FaultHandler): void;
  close(): Promise<void>;
}

export const FAULT_TOKEN = 'test-upstream-token-SECRET-1234567890';

/** A test upstream that records every call and answers however the test says, faults included. */
export async function startFaultUpstream(): Promise<FaultUpstream> {
  const calls: RecordedCall[] = [];
  const sockets = new Set<Socket>();
  let handler: FaultHandler = (call, _req, res) => json(res, 200, { status: 200, response: call.body });

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, any> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = {};
    }
    const call = {
      action: (req.url ?? '').replace(/^.*\/v1\/action\//, ''),
      body,
      authorization: req.headers.authorization,
    };
    calls.push(call);
    await handler(call, req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: FAULT_TOKEN,
    calls,
    handle: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** Gateway settings that point it at a fault upstream. */
export function upstreamEnv(upstream: FaultUpstream, extra: Record<string, string> = {}): Record<string, string> {
  // Upstream behaviour is under test: no cross-request cache unless a test asks for one.
  return { ACTION_BASE_URL: upstream.url, ACTION_TOKEN: upstream.token, CACHE_ENABLED: 'false', ...extra };
}

/**
 * Answers every call as the built-in sandbox would (each action's sample answer), except the calls
 * `fail` picks: those get an HTTP 500 (UPSTREAM_UNAVAILABLE, not retried).
 */
export function answerLikeSandbox(
  up: FaultUpstream,
  fail: (call: RecordedCall) => boolean = () => false,
  /** Headers on each answer (e.g. the upstream's rate-limit budget). */
  headers: () => Record<string, string> = () => ({}),
): void {
  up.handle((call, _req, res) => {
    const answer = SANDBOX_ACTIONS[call.action];
    if (!answer) return json(res, 404, { status: 404, response: null, error: "The requested page doesn't exist." });
    if (fail(call)) return json(res, 500, { status: 500, response: null, error: 'Internal error' }, headers());
    json(res, 200, { status: 200, ...answer.respond(call.body) }, headers());
  });
}

/** A fault upstream that answers like the built-in sandbox (see answerLikeSandbox). */
export async function startSandboxLikeUpstream(): Promise<FaultUpstream> {
  const up = await startFaultUpstream();
  answerLikeSandbox(up);
  return up;
}
