import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTypeNames } from '../../src/actions/node.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

/** One operation that reaches an object of every Node type, with its id and one field to compare. */
const EVERY_NODE = /* GraphQL */ `{
  company(domain: "hubspot.com") { __typename id name financialProfile { __typename id symbol } }
  domainInfo(domain: "example.com") { __typename id domainName }
  photosocialProfile(username: "natgeo") { __typename id username }
  professionalnetProfile(handle: "sam-rivera") { __typename id fullName }
  videositeChannel(url: "https://www.videosite.example/@sandboxstudio") {
    __typename id
    highlightedVideo { __typename id videoId title }
    videosSections { videos { __typename id videoId title } }
  }
  videositeTranscript(url: "https://www.videosite.example/watch?v=hL9xPq2ZkTs") { __typename id title video { __typename id videoId } }
  videositeSearch(query: "engineering") { __typename id query videos { __typename id videoId title } shorts { items { __typename id videoId title } } }
  news(query: "gateways") { __typename id query organicResults { __typename id title } }
  crmOwners(portal: "139981") { __typename id ownerId email }
  microblogPosts(query: "graphql", first: 3) { __typename id uri }
}`;

function collect(value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) collect(item, out);
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.id === 'string' && typeof object.__typename === 'string') out.push(object);
    for (const child of Object.values(object)) collect(child, out);
  }
  return out;
}

describe('Node identity', () => {
  it('gives every Node type an id that node(id:) fetches back, through the cache', async () => {
    const first = await gw.query(EVERY_NODE);
    expect(first.body.errors).toBeUndefined();
    const objects = collect(first.body.data);
    const types = new Set(objects.map((o) => o.__typename));
    expect([...types].sort()).toEqual(nodeTypeNames());
    // Ids are unique per object.
    const byId = new Map(objects.map((o) => [o.id as string, o]));
    expect(new Set(objects.map((o) => `${o.__typename}:${o.id}`)).size).toBe(byId.size);

    for (const object of byId.values()) {
      const fields = Object.keys(object).filter((key) => typeof object[key] !== 'object' || object[key] === null);
      const round = await gw.query(
        `query($id: ID!) { node(id: $id) { ... on ${object.__typename} { ${fields.join(' ')} } } }`,
        { id: object.id },
      );
      expect(round.body.errors, `${object.__typename}`).toBeUndefined();
      expect(round.body.data!.node).toEqual(Object.fromEntries(fields.map((key) => [key, object[key]])));
      // Refetched from the cross-request cache: no upstream call.
      expect(round.body.extensions!.gateway.upstreamCalls).toBe(0);
    }
  });

  it('distinct inputs get distinct ids and upstream identities; the same thing by two paths one id', async () => {
    const res = await gw.query(`{
      a: company(domain: "hubspot.com") { id companyId microblog { accountId } }
      b: company(domain: "stripe.com") { id companyId microblog { accountId } }
      p: financialProfiles(symbols: ["HUBS"]) { id company { id } }
    }`);
    const { a, b, p } = res.body.data!;
    expect(a.id).not.toBe(b.id);
    expect(a.companyId).not.toBe(b.companyId);
    expect(a.microblog.accountId).not.toBe(b.microblog.accountId);
    expect(p[0].company.id).toBe(a.id);
  });

  it('nodes(ids:) keeps order, errors per index, and costs one lookup per distinct lookup', async () => {
    const ids = (
      await gw.query(
        '{ a: company(domain: "acme.com") { id } b: company(domain: "globex.com") { id } f: financialProfiles(symbols: ["AAPL", "NKE"]) { id } }',
      )
    ).body.data!;
    const list = [ids.b.id, ids.a.id, ids.a.id, ids.f[0].id, ids.f[1].id];
    const res = await gw.query('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: list });
    expect(res.body.data!.nodes.map((n: { id: string }) => n.id)).toEqual(list);
    // Two companies and one batch of two symbols.
    expect(res.body.extensions!.gateway.cost.estimated).toBe(3);
  });

  it('a malformed id is BAD_USER_INPUT before any call; an unknown one is NOT_FOUND', async () => {
    for (const id of [
      'nonsense!',
      Buffer.from('Company:not json').toString('base64url'),
      Buffer.from('Nope:["x","y"]').toString('base64url'),
      Buffer.from('Company:["get_company_object","HubSpot.COM"]').toString('base64url'),
    ]) {
      const res = await gw.query('query($id: ID!) { node(id: $id) { id } }', { id });
      expect(res.body.errors?.[0]?.extensions?.code, id).toBe('BAD_USER_INPUT');
      expect(res.body.extensions!.gateway.upstreamCalls).toBe(0);
    }
    const real = (await gw.query('{ news(query: "ids") { organicResults { id } } }')).body.data!.news.organicResults[0]
      .id as string;
    const [typename, rest] = [
      Buffer.from(real, 'base64url').toString().split(':')[0],
      JSON.parse(Buffer.from(real, 'base64url').toString().slice('NewsArticle:'.length)),
    ];
    const gone = Buffer.from(
      `${typename}:${JSON.stringify([rest[0], rest[1], 'https://gone.example/article'])}`,
    ).toString('base64url');
    const res = await gw.query('query($id: ID!) { node(id: $id) { id } }', { id: gone });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('client files', () => {
  it('schema/client/*.json are what schema:print writes from the code', async () => {
    const { readFileSync } = await import('node:fs');
    const { CLIENT_FILES } = await import('../../src/graph/print.js');
    for (const [file, content] of Object.entries(CLIENT_FILES))
      expect(readFileSync(file, 'utf8'), file).toBe(content());
  });
});
