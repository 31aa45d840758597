import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from 'pino';

/** The HTTP server's protections against slow and greedy clients (HTTP_KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS_PER_ADDRESS, and constants). */
export interface HttpServerSettings {
  /** A client must send all request headers within this (slowloris). */
  headersTimeoutMs: number;
  /** ...and the whole request, body included, within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (announced to clients as `Keep-Alive: timeout=`). */
  keepAliveTimeoutMs: number;
  /** Open connections one address may hold; more are answered 503 and closed. 0: no cap (behind a proxy). */
  maxConnectionsPerAddress: number;
  /** Bytes of a request's request line and headers together; more are answered 414 or 431. */
  maxHeaderBytes: number;
}

/** A complete HTTP/1.1 response with the gateway's JSON error body, written on the socket itself (no request object exists). */
function rawErrorResponse(
  status: number,
  reason: string,
  code: string,
  message: string,
  extra: { headers?: string; limit?: number } = {},
): string {
  const body = JSON.stringify({
    errors: [{ message, extensions: { code, ...(extra.limit !== undefined ? { limit: extra.limit } : {}) } }],
  });
  return `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\n${extra.headers ?? ''}content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const OVER_CAP = rawErrorResponse(
  503,
  'Service Unavailable',
  'RATE_LIMITED',
  'Too many connections from this address; retry shortly.',
  {
    headers: 'retry-after: 1\r\n',
  },
);

/** A request line: a method token and a space, as the parser saw it at the start of a packet. */
const REQUEST_LINE_START = /^[A-Z]+ /;

/**
 * The answer to a request Node's HTTP parser refused before any handler saw it (the server's
 * `clientError`), or null when there is nobody to answer (the client has gone).
 */
function clientErrorResponse(
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  maxHeaderBytes: number,
): string | null {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW': {
      // Node counts the request line and the headers together. The packet that overflowed starts with
      // the request line, with no line end within the limit, when the request line alone is too long.
      const packet = error.rawPacket;
      const lineEnd = packet ? packet.indexOf('\r\n') : -1;
      const requestLine = packet !== undefined && REQUEST_LINE_START.test(packet.subarray(0, 16).toString('latin1'));
      if (requestLine && (lineEnd === -1 || lineEnd > maxHeaderBytes)) {
        return rawErrorResponse(
          414,
          'URI Too Long',
          'URI_TOO_LONG',
          `The request line is longer than ${maxHeaderBytes} bytes: send the operation in a POST body (or as a persisted query).`,
          { limit: maxHeaderBytes },
        );
      }
      return rawErrorResponse(
        431,
        'Request Header Fields Too Large',
        'HEADERS_TOO_LARGE',
        `The request line and headers are larger than ${maxHeaderBytes} bytes.`,
        {
          limit: maxHeaderBytes,
        },
      );
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return rawErrorResponse(408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request did not arrive in time.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return rawErrorResponse(
        413,
        'Payload Too Large',
        'PAYLOAD_TOO_LARGE',
        'The chunk extensions of the request body are too large.',
      );
    default:
      return rawErrorResponse(400, 'Bad Request', 'BAD_REQUEST', 'The request is not valid HTTP/1.1.');
  }
}

/** How long a refused connection stays open to read what the client is still sending, so closing it does not reset the answer away. */
const REFUSED_LINGER_MS = 1_000;

type Int = (name: string, fallback: number, min: number, max: number) => number;

/** Request headers must arrive within this (against slow-header attacks). */
const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included, must arrive within this. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The request line and headers together, in bytes: Node's own default; a longer GET belongs in a POST body or a persisted query. */
const MAX_HEADER_BYTES = 16_384;

export function readHttpServerSettings(int: Int): HttpServerSettings {
  return {
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnectionsPerAddress: int('MAX_CONNECTIONS_PER_ADDRESS', 256, 0, 1_000_000),
    maxHeaderBytes: MAX_HEADER_BYTES,
  };
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
 * timeouts, a per-address connection cap, a coded JSON answer to every request the HTTP parser refuses
 * (oversized request line or headers, malformed HTTP, timeouts), and a drain that never advertises keep-alive.
 */
export function createHttpServer(handler: RequestListener, settings: HttpServerSettings, logger?: Logger): HttpServer {
  let draining = false;
  const open = new Set<ServerResponse>();
  const perAddress = new Map<string, number>();
  /** Responses in progress per connection: a refusal is written only on a connection with none (or, for a body that timed out, none begun). */
  const responding = new WeakMap<Socket, Set<ServerResponse>>();
  const refused = new WeakSet<Socket>();
  let refusedLogged = 0;

  const server = createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      maxHeaderSize: settings.maxHeaderBytes,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      // Node checks the two timeouts on this interval (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 4))),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      if (draining) res.setHeader('connection', 'close');
      open.add(res);
      const socket = req.socket;
      const inProgress = responding.get(socket) ?? new Set<ServerResponse>();
      responding.set(socket, inProgress.add(res));
      res.once('close', () => {
        open.delete(res);
        inProgress.delete(res);
      });
      handler(req, res);
    },
  );

  // Node's default answers without a body and destroys the socket at once, which resets the connection
  // while the client is still sending (a long GET): the client sees no answer at all. Here the answer
  // is the gateway's JSON error, the connection is half-closed, and what the client still sends is
  // read and dropped for a moment before the socket closes.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // The parser reports every later packet of a refused request too: read and dropped until the socket closes.
    if (refused.has(socket)) return;
    // Gone, or in the middle of a response (pipelined requests): no room for an answer. A body that timed
    // out belongs to the one request in progress, whose response has not begun: the 408 is its answer.
    const inProgress = responding.get(socket);
    const room =
      !inProgress?.size ||
      (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && inProgress.size === 1 && ![...inProgress][0]!.headersSent);
    const response = socket.writable && room ? clientErrorResponse(error, settings.maxHeaderBytes) : null;
    if (!response) {
      socket.destroy();
      return;
    }
    refused.add(socket);
    socket.end(response);
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  });

  server.on('connection', (socket: Socket) => {
    if (settings.maxConnectionsPerAddress <= 0) return;
    const address = socket.remoteAddress ?? 'unknown';
    const count = (perAddress.get(address) ?? 0) + 1;
    if (count > settings.maxConnectionsPerAddress) {
      // Rate-limited logging: a flood must not become a log flood.
      const now = Date.now();
      if (now - refusedLogged > 10_000) {
        refusedLogged = now;
        logger?.warn(
          { connectionCap: settings.maxConnectionsPerAddress },
          'an address is over its connection cap; its extra connections are refused',
        );
      }
      socket.end(OVER_CAP);
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
