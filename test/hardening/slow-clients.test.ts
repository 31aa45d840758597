import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { hashApiKey } from '../../src/security/api-keys.js';
import { startGateway } from '../support/gateway.js';

function open(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Everything the server sends until it closes the socket, and when it closed (ms after `from`). */
function untilClosed(socket: Socket, from: number, limitMs: number): Promise<{ text: string; afterMs: number | null }> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    const timer = setTimeout(() => resolve({ text, afterMs: null }), limitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, afterMs: Date.now() - from });
    });
  });
}

describe('slow and greedy clients', () => {
  it('closes a connection whose headers trickle past the headers timeout (slowloris)', async () => {
    const gw = await startGateway({}, 0, { http: { headersTimeoutMs: 300, requestTimeoutMs: 1000 } });
    try {
      const socket = await open(gw.url);
      const started = Date.now();
      socket.write('POST /graphql HTTP/1.1\r\nhost: x\r\n');
      const drip = setInterval(() => socket.writable && socket.write('x-drip: 1\r\n'), 50);
      const closed = await untilClosed(socket, started, 5000);
      clearInterval(drip);
      expect(closed.afterMs).not.toBeNull();
      expect(closed.text).toMatch(/^HTTP\/1\.1 408/);
      // Checked on an interval of at most a quarter of the timeout: well before Node's 30 s default.
      expect(closed.afterMs!).toBeLessThan(3000);
    } finally {
      await gw.close();
    }
  });

  it('answers 408 REQUEST_TIMEOUT to a request whose body trickles past the request timeout', async () => {
    const gw = await startGateway({}, 0, { http: { headersTimeoutMs: 200, requestTimeoutMs: 500 } });
    try {
      const socket = await open(gw.url);
      const started = Date.now();
      socket.write(
        'POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{',
      );
      const drip = setInterval(() => socket.writable && socket.write(' '), 100);
      const closed = await untilClosed(socket, started, 6000);
      clearInterval(drip);
      expect(closed.afterMs).not.toBeNull();
      expect(closed.afterMs!).toBeLessThan(4000);
      expect(closed.text).toMatch(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(closed.text.slice(closed.text.indexOf('\r\n\r\n') + 4));
      expect(body).toEqual({
        errors: [{ message: 'The request did not arrive in time.', extensions: { code: 'REQUEST_TIMEOUT' } }],
      });
      // Nothing else follows on the socket: the request never reached GraphQL handling.
      expect(closed.text.match(/HTTP\/1\.1/g)).toHaveLength(1);
    } finally {
      await gw.close();
    }
  });

  it('caps the connections one address may hold (MAX_CONNECTIONS_PER_ADDRESS); the others still answer', async () => {
    const gw = await startGateway({ MAX_CONNECTIONS_PER_ADDRESS: '3' });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 3; i += 1) sockets.push(await open(gw.url));
      const extra = await open(gw.url);
      const refused = await untilClosed(extra, Date.now(), 3000);
      expect(refused.text).toMatch(/^HTTP\/1\.1 503/);
      expect(refused.text).toContain('"code":"RATE_LIMITED"');
      for (const socket of sockets) socket.destroy();
      // Once they are closed, the address may connect again.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const res = await gw.query('{ domainInfo(domain: "example.com") { domainName } }');
      expect(res.status).toBe(200);
      expect(gw.logs.join('\n')).toContain('over its connection cap');
    } finally {
      for (const socket of sockets) socket.destroy();
      await gw.close();
    }
  });

  it('has tight defaults', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnectionsPerAddress: 256,
      maxHeaderBytes: 16_384,
    });
  });

  it.each(['/graphql', '/mcp'])(
    'answers a client without a key that drips its body 401 at once and closes the socket (%s)',
    async (path) => {
      const gw = await startGateway({ GATEWAY_API_KEY_HASHES: hashApiKey('lg_test_drip_key_0123456789abcdef') });
      try {
        const socket = await open(gw.url);
        const started = Date.now();
        socket.write(
          // Its own host: /mcp refuses a foreign Host on a loopback listener before it asks for a key.
          `POST ${path} HTTP/1.1\r\nhost: ${new URL(gw.url).host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{`,
        );
        // 1,000 bytes at one every 50 ms: the body would take 50 s, past the 30 s request timeout.
        let sent = 1;
        const drip = setInterval(() => {
          if (socket.writable && sent < 1000) {
            socket.write(' ');
            sent += 1;
          }
        }, 50);
        socket.on('error', () => undefined);
        const closed = await untilClosed(socket, started, 20_000);
        clearInterval(drip);
        expect(closed.text).toMatch(/^HTTP\/1\.1 401 /);
        expect(closed.text.toLowerCase()).toContain('connection: close');
        // Closed by the server while the client still had most of its body to send: not held for it.
        expect(closed.afterMs).not.toBeNull();
        expect(sent).toBeLessThan(500);
      } finally {
        await gw.close();
      }
    },
    30_000,
  );
});
