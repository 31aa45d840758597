import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { Pool } from 'undici';

/**
 * The floor for the uncached row: bare Yoga without its body guard (the stricter baseline) whose one field
 * makes the call the gateway's `domainInfo` makes (POST /v1/action/domain_info over an undici Pool, the
 * envelope parsed) and answers the bench's five fields with plain resolvers. No cache, coalescing, input
 * checks, limits, deadlines, metrics or logs: what one uncached lookup costs on this stack before the
 * gateway does anything of its own.
 */
const upstream = new Pool(process.env.UPSTREAM_ORIGIN!, { connections: 4 });
const authorization = `Bearer ${process.env.UPSTREAM_TOKEN}`;

interface DomainRecord {
  domain_name?: string;
  domain_registered?: string;
  expiry_date?: string;
  domain_registrar?: { registrar_name?: string };
  name_servers?: string[];
}

async function domainInfo(domain: string): Promise<DomainRecord> {
  const answer = await upstream.request({
    path: '/v1/action/domain_info',
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ domain }),
  });
  const envelope = (await answer.body.json()) as { response: DomainRecord };
  return envelope.response;
}

const yoga = createYoga({
  schema: createSchema({
    typeDefs: /* GraphQL */ `
      type Registrar { name: String }
      type DomainRecord { domainName: String! isRegistered: Boolean expiresOn: String registrar: Registrar nameServers: [String!]! }
      type Query { domainInfo(domain: String!): DomainRecord }
    `,
    resolvers: {
      Query: { domainInfo: (_root: unknown, args: { domain: string }) => domainInfo(args.domain) },
      DomainRecord: {
        domainName: (record: DomainRecord) => record.domain_name,
        isRegistered: (record: DomainRecord) => record.domain_registered === 'yes',
        expiresOn: (record: DomainRecord) => record.expiry_date,
        registrar: (record: DomainRecord) => record.domain_registrar,
        nameServers: (record: DomainRecord) => record.name_servers ?? [],
      },
      Registrar: { name: (registrar: { registrar_name?: string }) => registrar.registrar_name },
    },
  }),
  logging: false,
  graphiql: false,
  maxRequestBodySize: false,
});
const server = createServer(yoga);
server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => void upstream.close().then(() => process.exit(0))));
