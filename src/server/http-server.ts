import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from 'pino';

/** The HTTP server's protections against slow and greedy clients (HTTP_* and MAX_CONNECTIONS_PER_ADDRESS). */
export interface HttpServerSettings {
  /** A client must send all request headers within this (slowloris). */
  headersTimeoutMs: number;
  /** ...and the whole request, body included, within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (announced to clients as `Keep-Alive: timeout=`). */
  keepAliveTimeoutMs: number;
  /** Open connections one address may hold; more are answered 503 and closed. 0: no cap (behind a proxy). */
  maxConnectionsPerAddress: number;
}

const OVER_CAP = JSON.stringify({ errors: [{ message: 'Too many connections from this address; retry shortly.', extensions: { code: 'RATE_LIMITED' } }] });

type Int = (name: string, fallback: number, min: number, max: number) => number;

export function readHttpServerSettings(int: Int, problems: string[]): HttpServerSettings {
  const settings = {
    headersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnectionsPerAddress: int('MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
  };
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  return settings;
}

export interface HttpServer {
  server: Server;
  /** True once drain() has started: every response says `Connection: close`. */
  draining(): boolean;
  /**
   * Stops taking connections and lets the open ones finish: every response from now on (those in
   * flight included) carries `Connection: close`, so no client sends another request on a socket
   * about to close. Idle keep-alive sockets are left to the keep-alive timeout the clients were told
   * (closing them now would race a request a client is sending on one); whatever is still open after
   * `graceMs` is closed. Resolves when no connection is left.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * The node:http server every entry point uses (src/main.ts, the tests): tight header and request
 * timeouts, a per-address connection cap, and a drain that never advertises keep-alive.
 */
export function createHttpServer(handler: RequestListener, settings: HttpServerSettings, logger?: Logger): HttpServer {
  let draining = false;
  const open = new Set<ServerResponse>();
  const perAddress = new Map<string, number>();
  let refusedLogged = 0;

  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      // Node checks the two timeouts on this interval (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 4))),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      if (draining) res.setHeader('connection', 'close');
      open.add(res);
      res.once('close', () => open.delete(res));
      handler(req, res);
    },
  );

  server.on('connection', (socket: Socket) => {
    if (settings.maxConnectionsPerAddress <= 0) return;
    const address = socket.remoteAddress ?? 'unknown';
    const count = (perAddress.get(address) ?? 0) + 1;
    if (count > settings.maxConnectionsPerAddress) {
      // Rate-limited logging: a flood must not become a log flood.
      const now = Date.now();
      if (now - refusedLogged > 10_000) {
        refusedLogged = now;
        logger?.warn({ connectionCap: settings.maxConnectionsPerAddress }, 'an address is over its connection cap; its extra connections are refused');
      }
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\nretry-after: 1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(OVER_CAP)}\r\n\r\n${OVER_CAP}`,
      );
      return;
    }
    perAddress.set(address, count);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });

  return {
    server,
    draining: () => draining,
    drain(graceMs) {
      if (draining) return Promise.resolve();
      draining = true;
      // Responses whose headers are not out yet go out with `Connection: close` too.
      for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        // net.Server#close: stop listening and wait for the connections to end. http.Server#close
        // would also close idle keep-alive sockets at once, racing requests clients are sending on them.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
