import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/processes.js';
import { subgraph } from '../../src/graph/subgraph.js';
import { SUBGRAPH_FILE } from '../../src/graph/print.js';
import { compose, installSupergraphExample, SUPERGRAPH } from './router.js';

/**
 * Another team's subgraph as they are in practice: Relay's `node`/`nodes` and its own Node interface, and
 * a value type that Lookup Graph has too (the same shape, shareable on both sides).
 */
const CATALOG = `
extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@shareable"])

interface Node { id: ID! }

type Query {
  node(id: ID!): Node
  nodes(ids: [ID!]!): [Node]!
  products: [Product!]!
}

type Product implements Node @key(fields: "id") {
  id: ID!
  name: String!
  priceRange: PriceRange
  "The maker's company, resolved by Lookup Graph."
  maker: Company
}

type PriceRange @shareable {
  low: Float!
  high: Float!
}

type Company @key(fields: "domain", resolvable: false) {
  domain: String!
}
`;

describe('composition with other subgraphs (both composers)', () => {
  let dir: string;
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const composeFiles = (files: Record<string, string>) =>
    compose(
      Object.entries(files).flatMap(([name, path]) => ['--subgraph', `${name}=http://127.0.0.1:9/graphql=${path}`]),
    );

  beforeAll(() => {
    installSupergraphExample();
    dir = mkdtempSync(join(tmpdir(), 'lookup-graph-composition-'));
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('schema/subgraph.graphql composes with the accounts subgraph that references its entities by key', async () => {
    const report = await composeFiles({ lookup: SUBGRAPH_FILE, accounts: join(SUPERGRAPH, 'accounts/schema.graphql') });
    expect(report).toMatchObject({ ok: true, composers: { guild: true, apollo: true }, errors: [] });
  });

  it('composes beside a subgraph with its own node/nodes and a value type of the same shape, because node/nodes are left out', async () => {
    const report = await composeFiles({
      lookup: SUBGRAPH_FILE,
      accounts: join(SUPERGRAPH, 'accounts/schema.graphql'),
      catalog: file('catalog.graphql', CATALOG),
    });
    expect(report).toMatchObject({ ok: true, composers: { guild: true, apollo: true }, errors: [] });
  });

  it('with FEDERATION_NODE_FIELDS the two node fields collide, as docs/federation.md warns', async () => {
    const withNodes = file('lookup-with-nodes.graphql', subgraph({ nodeFields: true }).sdl);
    const alone = await composeFiles({ lookup: withNodes, accounts: join(SUPERGRAPH, 'accounts/schema.graphql') });
    expect(alone.ok).toBe(true);
    const beside = await composeFiles({ lookup: withNodes, catalog: file('catalog.graphql', CATALOG) });
    expect(beside.composers).toEqual({ guild: false, apollo: false });
    expect(beside.errors.join('\n')).toMatch(/Query\.node/);
  });

  it("docs/federation.md's stub subgraph composes with Lookup Graph, and its client query is valid against the supergraph", async () => {
    const gql = [...readFileSync(join(ROOT, 'docs/federation.md'), 'utf8').matchAll(/^```gql\n([\s\S]*?)^```$/gm)].map(
      (m) => m[1]!,
    );
    const stub = gql.find((block) => block.startsWith('extend schema'))!;
    const query = gql.find((block) => block.startsWith('query '))!;
    const out = join(dir, 'docs-supergraph.graphql');
    const report = await compose([
      '--subgraph',
      `lookup=http://127.0.0.1:9/graphql=${SUBGRAPH_FILE}`,
      '--subgraph',
      `accounts=http://127.0.0.1:9/graphql=${file('docs-accounts.graphql', stub)}`,
      '--out',
      out,
    ]);
    expect(report).toMatchObject({ ok: true, composers: { guild: true, apollo: true } });
    const supergraph = buildSchema(readFileSync(out, 'utf8'), { assumeValidSDL: true });
    expect(validate(supergraph, parse(query)).map((error) => error.message)).toEqual([]);
  });
});
