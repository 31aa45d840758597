import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCalls } from '../support/assertions.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { startIssuer, type TestIssuer } from '../support/oidc-issuer.js';
import { freePort } from '../support/processes.js';
import { call, textOf } from '../mcp/support.js';

const AGENT = { id: 'research-agent', secret: 'research-agent-secret-0123456789' };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('/mcp as an OAuth 2.1 resource server', () => {
  let issuer: TestIssuer;
  let gw: RunningGateway;
  let resource: string;
  beforeAll(async () => {
    issuer = await startIssuer([AGENT]);
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    gw = await startGateway(
      {
        JWT_ISSUER: issuer.issuer,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        JWT_REQUIRED_SCOPE: 'lookups',
        CLIENT_RATE_LIMIT_PER_MINUTE: '0',
      },
      port,
    );
  });
  afterAll(async () => {
    await gw?.close();
    await issuer?.close();
  });

  it('publishes its protected resource metadata (RFC 9728), path-suffixed and at the root', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await gw.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        resource,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['lookups'],
        bearer_methods_supported: ['header'],
        resource_name: 'Lookup Graph',
      });
    }
  });

  it('answers a request without a token 401 with a challenge that names the metadata', async () => {
    const res = await gw.fetch('/mcp', { method: 'POST', headers: MCP_HEADERS, body: LIST });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer realm="lookup-graph", resource_metadata="${gw.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("the SDK's own client goes from the 401 to a token to a tool call, with no key handed out", async () => {
    const before = issuer.fetches.jwks;
    const calls = sandboxCalls(gw);
    const client = new Client({ name: 'lookup-graph-test', version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({
      clientId: AGENT.id,
      clientSecret: AGENT.secret,
      // The SDK's client-credentials flow asks for the scope its client metadata names.
      scope: 'lookups',
      expectedIssuer: issuer.issuer,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider }));
    try {
      const result = await call(client, 'domain_info', { domain: 'agent.example' });
      expect(result.isError ?? false).toBe(false);
      expect(textOf(result)).toContain('agent.example');
      expect(sandboxCalls(gw) - calls).toBe(1);
      // The token the SDK obtained names this server's MCP resource as its audience.
      const token = authProvider.tokens()!.access_token;
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
      expect(claims).toMatchObject({ aud: resource, client_id: AGENT.id, scope: 'lookups' });
      expect(issuer.fetches.jwks - before).toBe(0);
      expect(gw.logs.some((text) => JSON.parse(text).request?.client === AGENT.id)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('a token for another audience is refused, with no upstream call', async () => {
    const before = sandboxCalls(gw);
    const token = await issuer.token(AGENT, 'https://another-resource.example/mcp');
    const res = await gw.fetch('/mcp', {
      method: 'POST',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'domain_info', arguments: { domain: 'elsewhere.example' } },
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="lookup-graph", error="invalid_token", error_description="[^"]*audience[^"]*", resource_metadata="/,
    );
    expect(sandboxCalls(gw) - before).toBe(0);
  });
});
