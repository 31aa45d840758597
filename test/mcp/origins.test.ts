import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { startGateway } from '../support/gateway.js';

const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

describe('/mcp on loopback: which origins and hosts may use it (DNS rebinding)', () => {
  const gw = forSuite(() => startGateway({ CORS_ORIGINS: 'https://app.example.com' }));
  /** A POST over the wire with these headers (undici lets a test set Host, as a rebinding page's browser does). */
  const post = async (headers: Record<string, string>) => {
    const res = await request(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: PING,
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  };
  const own = () => new URL(gw.url).host;

  it('accepts the same origin and loopback origins on any port', async () => {
    for (const origin of [`http://${own()}`, 'http://localhost:5173', 'http://127.0.0.1:1', 'http://[::1]:8080']) {
      const { status, text } = await post({ origin });
      expect(status, `${origin}: ${text}`).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ id: 1, result: {} });
    }
  });

  it('accepts an origin of CORS_ORIGINS, refuses any other', async () => {
    expect((await post({ origin: 'https://app.example.com' })).status).toBe(200);
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null']) {
      const { status, text } = await post({ origin });
      expect(status, origin).toBe(403);
      expect(text).toMatch(/Origin may not use the MCP endpoint/);
    }
  });

  it('refuses a Host that is not loopback (a rebinding page sends its own name)', async () => {
    const port = new URL(gw.url).port;
    const { status, text } = await post({ host: `evil.example:${port}` });
    expect(status).toBe(403);
    expect(text).toMatch(/Host \(evil\.example:\d+\) may not use the MCP endpoint/);
    expect((await post({ host: `localhost:${port}` })).status).toBe(200);
    // A host of CORS_ORIGINS is the gateway's own public name: accepted.
    expect((await post({ host: 'app.example.com' })).status).toBe(200);
  });
});
