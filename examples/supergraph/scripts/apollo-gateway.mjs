#!/usr/bin/env node
/**
 * Apollo Gateway (@apollo/gateway on @apollo/server) serving a composed supergraph, the second router the
 * suite runs Lookup Graph behind. Like gateway.config.mjs for Hive Gateway, it forwards the client's API key
 * headers to the `lookup` subgraph and to no other.
 *
 *   node scripts/apollo-gateway.mjs supergraph.graphql 4003     prints "Apollo Gateway on http://127.0.0.1:4003/"
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

const FORWARDED_TO_LOOKUP = ['x-api-key', 'authorization'];

class ForwardingDataSource extends RemoteGraphQLDataSource {
  willSendRequest({ request, context }) {
    if (!this.forwardsKeys) return;
    for (const name of FORWARDED_TO_LOOKUP) {
      const value = context.headers?.[name];
      if (typeof value === 'string') request.http.headers.set(name, value);
    }
  }
}

const [file, port = '4003'] = process.argv.slice(2);
const gateway = new ApolloGateway({
  supergraphSdl: readFileSync(file, 'utf8'),
  buildService: ({ name, url }) => new ForwardingDataSource({ url, forwardsKeys: name === 'lookup' }),
});
const server = new ApolloServer({ gateway });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(port), host: '127.0.0.1' },
  context: async ({ req }) => ({ headers: req.headers }),
});
console.log(`Apollo Gateway on ${url}`);
