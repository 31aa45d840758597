import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';

/**
 * The baseline: Yoga with its defaults and a one-field schema, on the same kind of server.
 * BARE_YOGA_BODY_GUARD=off removes Yoga's costly request-body guard (the gateway replaces it with a
 * cheaper one), for the stricter second baseline.
 */
const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } }),
  logging: false,
  graphiql: false,
  ...(process.env.BARE_YOGA_BODY_GUARD === 'off' ? { maxRequestBodySize: false as const } : {}),
});
const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
