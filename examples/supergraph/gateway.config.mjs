/**
 * Hive Gateway's settings for the example supergraph (read by `hive-gateway` from this folder). Lookup Graph
 * admits a request by its API key (`x-api-key`) or bearer token, and counts rate limits per client by it,
 * so the router forwards those headers from the client to the `lookup` subgraph (and to no other).
 */
import { defineConfig } from '@graphql-hive/gateway';

const FORWARDED_TO_LOOKUP = ['x-api-key', 'authorization'];

export const gatewayConfig = defineConfig({
  propagateHeaders: {
    fromClientToSubgraphs({ request, subgraphName }) {
      if (subgraphName !== 'lookup') return {};
      const headers = {};
      for (const name of FORWARDED_TO_LOOKUP) {
        const value = request.headers.get(name);
        if (value) headers[name] = value;
      }
      return headers;
    },
  },
});
