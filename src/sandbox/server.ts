import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DETACHED_IMAGES, type SampleImages, sampleImages } from './data/images.js';
import { SANDBOX_ACTIONS } from './answers.js';
import { SandboxInputError } from './input-error.js';
import { imageAt } from './images.js';
import { latencyOf, type SandboxLatency } from './latency.js';

export interface SandboxOptions {
  /** The bearer token the sandbox accepts. */
  token?: string;
  /** Delay before every answer, to imitate the real service's latency. */
  latencyMs?: number;
  /** Delay per action (src/sandbox/latency.ts); takes the place of `latencyMs`. */
  latency?: SandboxLatency;
  /** Requests per minute before it answers 429, as the live service's account limit does. */
  rateLimitPerMinute?: number;
  /** Values that move from call to call (stock prices), for live queries to show (SANDBOX_MARKET=moving). */
  movingMarket?: boolean;
}

export interface Sandbox {
  url: string;
  token: string;
  /** Action calls answered so far, by action name (for tests and benchmarks). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

export const SANDBOX_TOKEN = 'sandbox-token';

const MAX_BODY_BYTES = 64 * 1024;

/**
 * A local action service with the contract's envelope, bearer check, 400 envelope, rate-limit
 * headers and complete sample data that reacts to its input, for development, tests and benchmarks.
 */
export async function startSandbox(options: SandboxOptions = {}, port = 0, host = '127.0.0.1'): Promise<Sandbox> {
  const token = options.token ?? SANDBOX_TOKEN;
  const latency: SandboxLatency = options.latency ?? { defaultMs: options.latencyMs ?? 0, byAction: {} };
  const limit = options.rateLimitPerMinute ?? 100_000;
  const calls = new Map<string, number>();
  let windowStart = Date.now();
  let used = 0;
  // Known once the server listens: image URLs are absolute, on this sandbox's own origin.
  let images: SampleImages = DETACHED_IMAGES;

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, { status: 500, response: null, error: 'Internal sandbox error.' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if ((req.method === 'GET' || req.method === 'HEAD') && req.url?.startsWith('/images/')) return sendImage(req, res);
    const match = /^\/v1\/action\/([a-z_]+)$/.exec(req.url ?? '');
    const action = match ? SANDBOX_ACTIONS[match[1]!] : undefined;
    if (req.method !== 'POST' || !match || !action) {
      req.resume();
      return send(res, 404, { status: 404, response: null, error: "The requested page doesn't exist." });
    }
    const raw = await readBody(req);
    const delayMs = latencyOf(latency, match[1]!);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));

    const now = Date.now();
    if (now - windowStart >= 60_000) {
      windowStart = now;
      used = 0;
    }
    const resetSeconds = Math.ceil((windowStart + 60_000 - now) / 1000);
    res.setHeader('ratelimit-limit', String(limit));
    res.setHeader('ratelimit-reset', String(resetSeconds));
    res.setHeader('ratelimit-reset-date', new Date(windowStart + 60_000).toUTCString());
    if (used >= limit) {
      res.setHeader('ratelimit-remaining', '0');
      res.setHeader('retry-after', String(resetSeconds));
      return send(res, 429, { status: 429, response: null, error: 'Too many requests.' });
    }
    used += 1;
    res.setHeader('ratelimit-remaining', String(limit - used));

    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(res, 403, { status: 403, response: null, error: 'Invalid or missing access token.' });
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw === null ? '' : raw);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      return send(res, 400, { status: 400, response: null, error: 'The request body must be a JSON object.' });
    }
    const missing = action.required.filter(
      (field) => body[field] === undefined || body[field] === null || body[field] === '',
    );
    if (missing.length > 0) {
      return send(res, 400, { status: 400, response: null, error: `Missing required field: ${missing.join(', ')}.` });
    }
    const before = calls.get(match[1]!) ?? 0;
    calls.set(match[1]!, before + 1);
    try {
      send(res, 200, { status: 200, ...action.respond(body, images, options.movingMarket ? before : undefined) });
    } catch (error) {
      if (!(error instanceof SandboxInputError)) throw error;
      send(res, 400, { status: 400, response: null, error: error.message });
    }
  }

  // Exclusive: in a worker of WORKERS > 1 each worker keeps its own sandbox (and token), not one shared port.
  await new Promise<void>((resolve) => server.listen({ port, host, exclusive: true }, resolve));
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  images = sampleImages(url);
  return {
    url,
    token,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An image of the samples (./images.ts): no token, no rate limit, cacheable, as an image CDN is. */
function sendImage(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  const png = imageAt(new URL(req.url ?? '/', 'http://sandbox').pathname);
  if (!png) return send(res, 404, { status: 404, response: null, error: "The requested page doesn't exist." });
  res.writeHead(200, {
    'content-type': 'image/png',
    'content-length': png.length,
    'cache-control': 'public, max-age=86400, immutable',
  });
  res.end(req.method === 'HEAD' ? undefined : png);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}
