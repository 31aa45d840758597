/** Where the gateway serves GraphQL. */
export const GRAPHQL_PATH = '/graphql';

/**
 * Whether a request is for GraphQL: by the URL the server parsed, or by the request's own URL once a
 * plugin has put a GraphQL request in its place (an MCP tool call), as Yoga itself tells them apart.
 */
export function isGraphQLRequest(request: Request, url: URL): boolean {
  return url.pathname === GRAPHQL_PATH || request.url.endsWith(GRAPHQL_PATH);
}
