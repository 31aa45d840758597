import type { Plugin } from 'graphql-yoga';
import type { PublicResource, TokenSettings } from './settings.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint, as the MCP authorization
 * specification asks of a resource server: the resource (PUBLIC_URL + /mcp, the audience its tokens must
 * name), the authorization server that issues them (JWT_ISSUER), the scope it requires and how a token is
 * sent. Served at the path-suffixed address the 401's `resource_metadata` names
 * (`/.well-known/oauth-protected-resource/mcp`) and at the root form clients fall back to. Public and
 * the same for everyone: any origin may read it (browser-based MCP clients), without credentials.
 */
export function useProtectedResourceMetadata(resource: PublicResource, tokens: TokenSettings): Plugin {
  const suffix = new URL(resource.mcpResource).pathname;
  const paths = new Set([WELL_KNOWN, `${WELL_KNOWN}${suffix}`, `${WELL_KNOWN}/mcp`]);
  const body = JSON.stringify({
    resource: resource.mcpResource,
    ...(tokens.issuer ? { authorization_servers: [tokens.issuer] } : {}),
    ...(tokens.requiredScope ? { scopes_supported: [tokens.requiredScope] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Lookup Graph',
  });
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, OPTIONS',
    'access-control-allow-headers': 'mcp-protocol-version',
  };
  return {
    // Synchronous: every other request passes by without a promise.
    onRequest({ url, request, endResponse, fetchAPI }) {
      if (!paths.has(url.pathname)) return;
      if (request.method === 'OPTIONS') return endResponse(new fetchAPI.Response(null, { status: 204, headers: cors }));
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, OPTIONS', ...cors } }));
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : body, {
          status: 200,
          headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600', ...cors },
        }),
      );
    },
  };
}
