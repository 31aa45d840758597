import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../support/gateway.js';
import { forSuite } from '../support/fixtures.js';
import { sandboxCalls } from './support.js';

/** Everything the server sends on one raw connection until it closes it, and whether it reset the connection. */
function exchange(url: string, chunks: string[], gapMs = 0): Promise<{ text: string; reset: boolean }> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    let reset = false;
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
    });
    socket.on('close', () => resolve({ text, reset }));
    void (async () => {
      for (const chunk of chunks) {
        if (socket.destroyed || !socket.writable) return;
        socket.write(chunk);
        if (gapMs) await new Promise((done) => setTimeout(done, gapMs));
      }
    })();
  });
}

/** The status and the JSON body of a raw HTTP/1.1 response text. */
function parseResponse(text: string): {
  status: number;
  headers: string;
  body: { errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
} {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    headers: head.toLowerCase(),
    body: body ? JSON.parse(body) : {},
  };
}

const longGet = (bytes: number) =>
  `GET /graphql?query=${encodeURIComponent('{ __typename }')}&pad=${'x'.repeat(bytes)} HTTP/1.1\r\nhost: gateway\r\n\r\n`;

describe('requests the HTTP parser refuses get a coded JSON answer, not a reset', () => {
  const gw = forSuite(() => startGateway({ CLIENT_RATE_LIMIT_PER_MINUTE: '0' }));

  it('a GET with a 100 KB query string, sent in one piece → 414 URI_TOO_LONG with the limit', async () => {
    const { text, reset } = await exchange(gw.url, [longGet(100_000)]);
    const res = parseResponse(text);
    expect(reset).toBe(false);
    expect(res.status).toBe(414);
    expect(res.headers).toContain('content-type: application/json');
    expect(res.headers).toContain('connection: close');
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'URI_TOO_LONG', limit: 16_384 });
    expect(res.body.errors?.[0]?.message).toMatch(/POST body/);
  });

  it('the same through fetch (undici): the client reads the answer', async () => {
    const res = await gw.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}&pad=${'x'.repeat(100_000)}`);
    expect(res.status).toBe(414);
    expect(((await res.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe(
      'URI_TOO_LONG',
    );
  });

  it('20 KB of headers → 431 HEADERS_TOO_LARGE', async () => {
    const { text, reset } = await exchange(gw.url, [
      `GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nhost: gateway\r\nx-padding: ${'y'.repeat(20_000)}\r\n\r\n`,
    ]);
    const res = parseResponse(text);
    expect(reset).toBe(false);
    expect(res.status).toBe(431);
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'HEADERS_TOO_LARGE', limit: 16_384 });
  });

  it('a long request line dripped in 1 KB pieces is answered too (431: the packet that overflows no longer shows the request line)', async () => {
    const request = longGet(30_000);
    const pieces = Array.from({ length: Math.ceil(request.length / 1024) }, (_, i) =>
      request.slice(i * 1024, (i + 1) * 1024),
    );
    const { text, reset } = await exchange(gw.url, pieces, 2);
    const res = parseResponse(text);
    expect(reset).toBe(false);
    expect([414, 431]).toContain(res.status);
    expect(['URI_TOO_LONG', 'HEADERS_TOO_LARGE']).toContain(res.body.errors?.[0]?.extensions?.code);
  });

  it('malformed HTTP → 400 BAD_REQUEST', async () => {
    const res = parseResponse((await exchange(gw.url, ['NOT HTTP AT ALL\r\n\r\n'])).text);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'BAD_REQUEST' });
  });

  it('on a kept-alive connection, the answered request stays answered and the oversized one after it gets its 414', async () => {
    const first = `POST /graphql HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: 26\r\n\r\n{"query":"{ __typename }"}`;
    const { text } = await exchange(gw.url, [first, longGet(40_000)], 200);
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 414']);
    expect(text).toContain('"__typename":"Query"');
  });

  it('the gateway keeps answering; nothing was sent upstream', async () => {
    const before = sandboxCalls(gw);
    await exchange(gw.url, [longGet(100_000)]);
    expect(sandboxCalls(gw)).toBe(before);
    const res = await gw.query('{ __typename }');
    expect(res.status).toBe(200);
  });
});

describe("the server's header limit (maxHeaderBytes)", () => {
  it('raised in the configuration: a 20 KB query string is served', async () => {
    const gw = await startGateway({}, 0, { http: { maxHeaderBytes: 65_536 } });
    try {
      const res = await gw.fetch(`/graphql?query=${encodeURIComponent('{ __typename }')}&pad=${'x'.repeat(20_000)}`, {
        headers: { 'x-graphql-yoga-csrf': '1' },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown }).data).toEqual({ __typename: 'Query' });
    } finally {
      await gw.close();
    }
  });
});
