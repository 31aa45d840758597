import { readFileSync } from 'node:fs';
import { isListType, isNonNullType, isObjectType, isInterfaceType, type GraphQLOutputType } from 'graphql';
import { schema } from '../src/graph/index.js';
import { SANDBOX_SYMBOLS } from '../src/sandbox/samples/financial-profile.js';
import { SANDBOX_TOKEN } from '../src/sandbox/server.js';
import type { Request } from './load.js';

export const gql = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });

/** A POST to the gateway's /graphql with this query and variables. */
export const graphql = (query: string, variables?: Record<string, unknown>): Request => ({
  path: '/graphql',
  body: gql(query, variables),
});

/**
 * The same request every time, made once and encoded once: serialising a 5 KB query for every request was
 * most of the load generator's own CPU, and it shares its core with the sandbox.
 */
export function repeat(request: Request): () => Request {
  const made = { ...request, body: Buffer.from(request.body) };
  return () => made;
}

/** The default `photosocial_profile` MCP tool's operation, as a GraphQL client would send it. */
export const PHOTOSOCIAL_TOOL_DOCUMENT = readFileSync(
  new URL('../schema/mcp/photosocial-profile.graphql', import.meta.url),
  'utf8',
);

/** A JSON-RPC `tools/call` POST to /mcp as an MCP client sends it (the server is stateless: no initialize first). */
export const mcpToolCall = (name: string, args: Record<string, unknown>): Request => ({
  path: '/mcp',
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
});

/** The same call as a 2026-07-28 client sends it: the `_meta` envelope in the body, its method and name in headers. */
export const modernMcpToolCall = (name: string, args: Record<string, unknown>): Request => ({
  path: '/mcp',
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  }),
  headers: {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': name,
  },
});

/** Frontends send one document with variables; Yoga parses and validates it once. */
export const DOMAIN_DOCUMENT =
  'query Domain($domain: String!) { domainInfo(domain: $domain) { domainName isRegistered expiresOn registrar { name } nameServers } }';

/** The gateway's settings in every bench: over the sandbox at `origin`, quiet logs, no client rate limit, budget and deadline out of the way. */
export function gatewayEnvOver(origin: string): Record<string, string> {
  return {
    ACTION_BASE_URL: origin,
    ACTION_TOKEN: SANDBOX_TOKEN,
    LOG_LEVEL: 'error',
    CLIENT_RATE_LIMIT_PER_MINUTE: '0',
    COST_BUDGET: '1000',
    OPERATION_TIMEOUT_MS: '30000',
  };
}

export const FIVE_FIELD_PROFILE =
  '{ photosocialProfile(username: "bench") { username fullName followerCount isVerified biography } }';

/** A fresh read of a profile, by variable: one document, parsed and validated once. */
export const FRESH_PROFILE_DOCUMENT =
  'query Profile($username: String!) { photosocialProfile(username: $username) @fresh { username fullName followerCount isVerified biography } }';

/** Every field of the photo-social profile, nested objects included, built from the schema itself. */
export function fullProfileQuery(): string {
  const root = schema.getQueryType()!.getFields().photosocialProfile!;
  return `{ photosocialProfile(username: "bench") ${selection(root.type, 0)} }`;
}

function selection(type: GraphQLOutputType, depth: number): string {
  let named = type;
  while (isNonNullType(named) || isListType(named)) named = named.ofType;
  if (!isObjectType(named) && !isInterfaceType(named)) return '';
  if (depth > 6) return '{ __typename }';
  const fields = Object.values(named.getFields())
    .filter((field) => field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined))
    .map((field) => `${field.name} ${selection(field.type, depth + 1)}`.trim());
  return `{ ${fields.join(' ')} }`;
}

const TEN_SYMBOLS = SANDBOX_SYMBOLS.slice(0, 10);
export const TEN_SYMBOL_QUERY = `{ financialProfiles(symbols: ${JSON.stringify(TEN_SYMBOLS)}) { symbol price marketCap } }`;

/**
 * A router's `_entities` request to the subgraph (FEDERATION=true): ten representations of five entity types, as a
 * router sends them for a page of accounts (one company twice, once as a URL; one symbol in two spellings), and a
 * few fields of each. `@fresh` on `_entities` makes every lookup of it go upstream.
 */
export const ENTITIES_DOCUMENT = `query Entities($representations: [_Any!]!) {
  _entities(representations: $representations) {
    ... on Company { domain name ticker }
    ... on FinancialProfile { symbol price marketCap }
    ... on DomainRecord { requestedDomain isRegistered expiresOn }
    ... on PhotosocialProfile { username followerCount }
    ... on ProfessionalProfile { handle headline }
  }
}`;
export const TEN_REPRESENTATIONS = [
  { __typename: 'Company', domain: 'https://www.hubspot.com/' },
  { __typename: 'Company', domain: 'hubspot.com' },
  { __typename: 'Company', domain: 'nike.com' },
  { __typename: 'FinancialProfile', symbol: 'AAPL' },
  { __typename: 'FinancialProfile', symbol: 'aapl' },
  { __typename: 'FinancialProfile', symbol: 'MSFT' },
  { __typename: 'FinancialProfile', symbol: 'NKE' },
  { __typename: 'DomainRecord', requestedDomain: 'hubspot.com' },
  { __typename: 'PhotosocialProfile', username: '@natgeo' },
  { __typename: 'ProfessionalProfile', handle: 'sam-rivera' },
];
