#!/usr/bin/env node
/**
 * The "accounts" subgraph: a team's own subgraph that gains Lookup Graph's data by returning only keys.
 * `Account.company` returns `{ domain }` as the sales team pasted it (a URL or a bare domain); Lookup Graph
 * reduces it to the canonical domain, so both spellings are one lookup.
 *
 *   PORT=4001 node accounts/server.mjs     prints "accounts subgraph on http://127.0.0.1:<port>/graphql"
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { ACCOUNTS } from './data.mjs';

const typeDefs = parse(readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8'));

const resolvers = {
  Query: {
    accounts: () => ACCOUNTS,
    account: (_root, { id }) => ACCOUNTS.find((account) => account.id === id) ?? null,
  },
  Account: {
    __resolveReference: (reference) => ACCOUNTS.find((account) => account.id === reference.id) ?? null,
    // Key stubs: Lookup Graph resolves every other field of these entities.
    company: (account) => ({ domain: account.website }),
    lead: (account) => (account.lead ? { handle: account.lead } : null),
  },
  Holding: {
    profile: (holding) => ({ symbol: holding.symbol }),
  },
};

export function startAccounts({ port = 0, host = '127.0.0.1' } = {}) {
  const yoga = createYoga({ schema: buildSubgraphSchema({ typeDefs, resolvers }), graphqlEndpoint: '/graphql', landingPage: false, logging: 'warn' });
  const server = createServer(yoga);
  return new Promise((resolve) => server.listen(port, host, () => resolve({ server, url: `http://${host}:${server.address().port}/graphql` })));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startAccounts({ port: Number(process.env.PORT ?? 4001) });
  console.log(`accounts subgraph on ${url}`);
}
