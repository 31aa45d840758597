import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_TOKEN, json, startFaultUpstream, upstreamEnv, type FaultUpstream } from './support/fault-upstream.js';
import { startGateway, type TestGateway } from './support/gateway.js';

const TRANSCRIPT_400 = "The requested page doesn't exist or there are no translations available for the video.";
const QUERY = '{ domainInfo(domain: "example.com") { domainName } crmOwners(portal: "42") { id: ownerId } }';
const OWNERS = [{ id: '7', email: 'a@b.example', firstName: 'A', lastName: 'B', teams: [] }];

type Fault = (res: ServerResponse, req: IncomingMessage) => void;

/** The upstream's error envelope, with the same status in the HTTP answer and in the body. */
const envelope =
  (status: number, error: string): Fault =>
  (res) =>
    json(res, status, { status, response: null, error });

const cases: Array<{ name: string; fault: Fault; code: string; message?: RegExp; retryAfter?: number }> = [
  {
    name: 'the documented 400 envelope',
    fault: envelope(400, TRANSCRIPT_400),
    code: 'NOT_FOUND',
    message: /no translations available/,
  },
  {
    name: '400 for bad input',
    fault: envelope(400, 'Invalid domain parameter.'),
    code: 'BAD_USER_INPUT',
    message: /Invalid domain parameter/,
  },
  {
    name: '400 whose message echoes the token',
    fault: (res) => json(res, 400, { status: 400, response: null, error: `Bad request for token ${FAULT_TOKEN}` }),
    code: 'BAD_USER_INPUT',
    message: /Bad request for token \[redacted\]/,
  },
  {
    name: '400 for spent credits',
    fault: envelope(400, 'Insufficient credits.'),
    code: 'RATE_LIMITED',
    message: /credits/,
  },
  {
    name: '401',
    fault: envelope(401, 'Unauthorized'),
    code: 'UNAUTHENTICATED',
  },
  {
    name: '403',
    fault: envelope(403, 'Invalid token'),
    code: 'UNAUTHENTICATED',
    message: /ACTION_TOKEN/,
  },
  {
    name: '404',
    fault: envelope(404, 'Not found'),
    code: 'NOT_FOUND',
  },
  {
    name: '500',
    fault: envelope(500, 'Internal error'),
    code: 'UPSTREAM_UNAVAILABLE',
  },
  {
    name: '502 with an HTML page',
    fault: (res) => html(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>'),
    code: 'UPSTREAM_UNAVAILABLE',
  },
  { name: '503 without a body', fault: (res) => res.writeHead(503).end(), code: 'UPSTREAM_UNAVAILABLE' },
  { name: '504', fault: (res) => res.writeHead(504).end(), code: 'UPSTREAM_TIMEOUT' },
  {
    name: '200 with an HTML page',
    fault: (res) => html(res, 200, '<!doctype html><title>Login</title>'),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /not JSON/,
  },
  {
    name: '200 with an empty body',
    fault: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /empty body/,
  },
  {
    name: '200 with a body cut off mid-way',
    fault: (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"status": 200, "response": {"domain_na');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /cut off/,
  },
  {
    name: '200 with chunked JSON that ends early',
    fault: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status": 200, "response": {"domain_na');
    },
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /not JSON/,
  },
  {
    name: '200 with an error field',
    fault: (res) =>
      json(res, 200, { status: 200, response: { domain_name: 'x.com' }, error: 'Lookup failed upstream' }),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /Lookup failed upstream/,
  },
  {
    name: 'envelope status 500 inside HTTP 200',
    fault: (res) => json(res, 200, { status: 500, response: null, error: 'Backend down' }),
    code: 'UPSTREAM_UNAVAILABLE',
  },
  {
    name: 'envelope status 404 inside HTTP 200',
    fault: (res) => json(res, 200, { status: 404, response: null }),
    code: 'NOT_FOUND',
  },
  {
    name: 'envelope without status',
    fault: (res) => json(res, 200, { response: { domain_name: 'x.com' } }),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /no status 200/,
  },
  {
    name: 'envelope without response',
    fault: (res) => json(res, 200, { status: 200 }),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /no response/,
  },
  {
    name: 'a JSON array instead of an envelope',
    fault: (res) => json(res, 200, [1, 2]),
    code: 'UPSTREAM_BAD_RESPONSE',
  },
  {
    name: 'a response of the wrong shape',
    fault: (res) => json(res, 200, { status: 200, response: 'not an object' }),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /not an object/,
  },
  {
    name: 'a body over the size cap (with Content-Length)',
    fault: (res) => json(res, 200, { status: 200, response: { whois_raw_domain: 'x'.repeat(10_000) } }),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /4096-byte limit/,
  },
  {
    name: 'a body over the size cap (chunked, no Content-Length)',
    fault: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"status":200,"response":{"whois_raw_domain":"${'x'.repeat(3000)}`);
      res.end(`${'y'.repeat(3000)}"}}`);
    },
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /4096-byte limit/,
  },
  { name: 'a call over its deadline', fault: () => undefined, code: 'UPSTREAM_TIMEOUT', message: /within 400 ms/ },
  {
    name: 'a redirect (not followed)',
    fault: (res) => res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end(),
    code: 'UPSTREAM_BAD_RESPONSE',
    message: /unexpected status 302/,
  },
  // Last: after a 429 the gateway holds every call of this token until the retry-after ends.
  {
    name: '429 with retry-after',
    fault: (res) =>
      json(res, 429, { status: 429, response: null, error: 'Too many requests' }, { 'retry-after': '30' }),
    code: 'RATE_LIMITED',
    retryAfter: 30,
  },
];

function html(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/html' });
  res.end(body);
}

describe('every upstream outcome maps to a code; siblings still resolve; the token never leaks', () => {
  let up: FaultUpstream;
  let gw: TestGateway;
  let fault: Fault = () => undefined;
  beforeAll(async () => {
    up = await startFaultUpstream();
    up.handle((call, req, res) =>
      call.action === 'domain_info' ? fault(res, req) : json(res, 200, { status: 200, response: OWNERS }),
    );
    // The breaker would open after a run of failing cases; breaking has its own tests (test/resilience).
    gw = await startGateway(upstreamEnv(up, { UPSTREAM_TIMEOUT_MS: '400', UPSTREAM_BREAKER_FAILURES: '1000' }), 0, {
      upstream: { maxResponseBytes: 4096 },
    });
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it.each(cases)('$name → $code', async ({ fault: next, code, message, retryAfter }) => {
    fault = next;
    up.calls.length = 0;
    const logsBefore = gw.logs.length;
    const { status, body, text } = await gw.query(QUERY);
    expect(status).toBe(200);
    expect(body.data).toEqual({ domainInfo: null, crmOwners: [{ id: '7' }] });
    expect(body.errors).toHaveLength(1);
    const [error] = body.errors!;
    expect(error!.path).toEqual(['domainInfo']);
    expect(error!.extensions).toMatchObject({ code, action: 'domain_info' });
    if (message) expect(error!.message).toMatch(message);
    if (retryAfter !== undefined) expect(error!.extensions!.retryAfter).toBe(retryAfter);
    expect(up.calls.filter((call) => call.action === 'domain_info')).toHaveLength(1);
    expect(up.calls[0]!.authorization).toBe(`Bearer ${FAULT_TOKEN}`);
    expect(text).not.toContain(FAULT_TOKEN);
    expect(text).not.toMatch(/stack|at .*\.ts:\d+/);
    const newLogs = gw.logs.slice(logsBefore).join('\n');
    expect(newLogs).toContain(`"errorCodes":["${code}"]`);
    expect(newLogs).not.toContain(FAULT_TOKEN);
    expect(newLogs).not.toMatch(/Bearer/);
  });
});

describe('an upstream that cannot be reached', () => {
  it('is UPSTREAM_UNAVAILABLE', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gw = await startGateway({ ACTION_BASE_URL: `http://127.0.0.1:${port}`, ACTION_TOKEN: FAULT_TOKEN });
    try {
      const { body, text } = await gw.query('{ domainInfo(domain: "example.com") { domainName } }');
      expect(body.data).toEqual({ domainInfo: null });
      expect(body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', action: 'domain_info' });
      expect(text).not.toContain(FAULT_TOKEN);
      expect(text).not.toContain(String(port));
    } finally {
      await gw.close();
    }
  });
});

describe('an upstream body nested 100,000 deep', () => {
  it('is UPSTREAM_BAD_RESPONSE, nothing is cached, and nothing is logged at error level', async () => {
    const up = await startFaultUpstream();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    up.handle((_call, _req, res) => {
      const payload = `{"status":200,"response":{"domain_name":"example.com","name_servers":${deep}}}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
      res.end(payload);
    });
    const gw = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true' }), 0, { resilience: { maxRetries: 0 } });
    try {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const { body } = await gw.query('{ domainInfo(domain: "example.com") { domainName } }');
        expect(body.data).toEqual({ domainInfo: null });
        expect(body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', action: 'domain_info' });
        expect(body.errors![0]!.message).toMatch(/nested deeper than 100 levels/);
        // Not cached: the second request calls again.
        expect(up.calls).toHaveLength(attempt);
      }
      const lines = gw.logs.map((line) => JSON.parse(line));
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      expect(gw.logs.join('\n')).not.toMatch(/call stack|INTERNAL_SERVER_ERROR/);
    } finally {
      await gw.close();
      await up.close();
    }
  });

  it('is told apart from deep brackets inside strings', async () => {
    const { nestedDeeperThan } = await import('../src/upstream/client.js');
    expect(nestedDeeperThan(JSON.stringify({ a: '['.repeat(500), b: '\\"{{{{' }), 2)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
  });
});

describe('the base URL', () => {
  it('keeps a path prefix: {base}/v1/action/<name>', async () => {
    const up = await startFaultUpstream();
    const seen: string[] = [];
    up.handle((_call, req, res) => {
      seen.push(req.url ?? '');
      json(res, 200, { status: 200, response: OWNERS });
    });
    const gw = await startGateway({ ACTION_BASE_URL: `${up.url}/api/lookups/`, ACTION_TOKEN: up.token });
    try {
      const { body } = await gw.query('{ crmOwners(portal: "42") { id: ownerId } }');
      expect(body.errors).toBeUndefined();
      expect(seen).toEqual(['/api/lookups/v1/action/get_crm_owners']);
      expect(up.calls[0]!.body).toEqual({ crm_portal: '42' });
    } finally {
      await gw.close();
      await up.close();
    }
  });
});
