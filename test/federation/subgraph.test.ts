import { readFileSync } from 'node:fs';
import { type ObjectTypeDefinitionNode, parse, Kind } from 'graphql';
import { beforeEach, describe, expect, it } from 'vitest';
import { actionNamed } from '../../src/actions/all.js';
import { costVariables, estimateCost } from '../../src/cost/estimate.js';
import { subgraph } from '../../src/graph/subgraph.js';
import { printedSubgraph, SUBGRAPH_FILE } from '../../src/graph/print.js';
import { configProblems } from '../support/config.js';
import { test, upstreamGatewayFor } from '../support/fixtures.js';
import { answerLikeSandbox, asked, ENTITIES_QUERY } from './support.js';

const ENTITY_KEYS = {
  Company: 'domain',
  DomainRecord: 'requestedDomain',
  FinancialProfile: 'symbol',
  PhotosocialProfile: 'username',
  ProfessionalProfile: 'handle',
  VideositeChannel: 'requestedUrl',
  VideositeTranscript: 'requestedUrl',
};

function objectTypes(sdl: string): Map<string, ObjectTypeDefinitionNode> {
  const types = new Map<string, ObjectTypeDefinitionNode>();
  for (const definition of parse(sdl).definitions)
    if (definition.kind === Kind.OBJECT_TYPE_DEFINITION) types.set(definition.name.value, definition);
  return types;
}

const directivesOf = (node: { directives?: readonly { name: { value: string } }[] }) =>
  (node.directives ?? []).map((d) => d.name.value);

describe('the subgraph schema', () => {
  it('links Federation 2.9 and keys each entity by its natural key, which the type holds', () => {
    const sdl = printedSubgraph();
    expect(sdl).toContain(
      '@link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@cost", "@key", "@listSize", "@shareable"])',
    );
    const types = objectTypes(sdl);
    const keyed = [...types.values()].filter((type) => directivesOf(type).includes('key'));
    expect(
      Object.fromEntries(
        keyed.map((type) => [
          type.name.value,
          type.directives!.find((d) => d.name.value === 'key')!.arguments![0]!.value,
        ]),
      ),
    ).toEqual(
      Object.fromEntries(
        Object.entries(ENTITY_KEYS).map(([type, key]) => [
          type,
          { kind: Kind.STRING, value: key, block: false, loc: expect.anything() },
        ]),
      ),
    );
    for (const [type, key] of Object.entries(ENTITY_KEYS)) {
      const fields = types.get(type)!.fields!;
      // The key field is a non-null field of the entity, and the entity keeps its node id.
      expect(fields.find((field) => field.name.value === key)?.type.kind, `${type}.${key}`).toBe(Kind.NON_NULL_TYPE);
      expect(fields.some((field) => field.name.value === 'id')).toBe(true);
    }
  });

  it('value types are @shareable and free to read; entities are not shareable; lookups cost 1; bounded lists have @listSize', () => {
    const types = objectTypes(printedSubgraph());
    for (const [name, type] of types) {
      const directives = directivesOf(type);
      if (name === 'Query') expect(directives).toEqual([]);
      else if (name in ENTITY_KEYS) expect(directives).toEqual(['key']);
      else expect(directives.sort(), name).toEqual(['cost', 'shareable']);
    }
    const field = (type: string, name: string) => types.get(type)!.fields!.find((f) => f.name.value === name)!;
    const printed = (type: string, name: string) =>
      (field(type, name).directives ?? []).map(
        (d) =>
          `@${d.name.value}(${(d.arguments ?? []).map((a) => `${a.name.value}: ${JSON.stringify((a.value as { value?: unknown }).value ?? null)}`).join(', ')})`,
      );
    expect(printed('Query', 'company')).toEqual(['@cost(weight: "1")']);
    expect(printed('Company', 'financialProfile')).toEqual(['@cost(weight: "1")']);
    expect(printed('Company', 'name')).toEqual([]);
    expect(printed('Query', 'financialProfiles')).toEqual(['@cost(weight: "1")', '@listSize(assumedSize: "100")']);
    expect(printed('VideositeSearch', 'videos')[0]).toBe(
      '@listSize(assumedSize: "20", slicingArguments: null, requireOneSlicingArgument: false)',
    );
  });

  it('leaves node and nodes out unless FEDERATION_NODE_FIELDS', () => {
    expect(subgraph({ nodeFields: false }).schema.getQueryType()!.getFields().node).toBeUndefined();
    expect(subgraph({ nodeFields: false }).schema.getQueryType()!.getFields().nodes).toBeUndefined();
    const withNodes = subgraph({ nodeFields: true });
    expect(Object.keys(withNodes.schema.getQueryType()!.getFields())).toEqual(
      expect.arrayContaining(['node', 'nodes', '_entities', '_service']),
    );
    expect(withNodes.sdl).toMatch(/\): \[Node\]! @cost\(weight: 1\) @listSize\(assumedSize: 100\)/);
  });

  it('the plain schema is not touched: no @key, no @shareable, no _entities', async () => {
    const { schema } = await import('../../src/graph/index.js');
    expect(schema.getQueryType()!.getFields()._entities).toBeUndefined();
    expect(schema.getQueryType()!.getFields().node).toBeDefined();
  });
});

describe('settings', () => {
  it('FEDERATION and FEDERATION_NODE_FIELDS are checked at start-up', () => {
    expect(configProblems({ FEDERATION: 'true' })).toEqual([]);
    expect(configProblems({ FEDERATION: 'true', FEDERATION_NODE_FIELDS: 'true' })).toEqual([]);
    expect(configProblems({ FEDERATION: 'yes' })).toEqual(['FEDERATION must be true or false, got "yes"']);
    expect(configProblems({ FEDERATION_NODE_FIELDS: 'true' })).toEqual([
      expect.stringContaining('FEDERATION_NODE_FIELDS applies only with FEDERATION=true'),
    ]);
  });

  it('a subgraph with a trusted-documents list is refused: a router sends operations it plans itself', () => {
    const file = new URL('../../examples/web/persisted-documents.json', import.meta.url).pathname;
    expect(configProblems({ FEDERATION: 'true', TRUSTED_DOCUMENTS_FILE: file })).toEqual([
      expect.stringContaining('cannot be combined with TRUSTED_DOCUMENTS_FILE'),
    ]);
  });
});

describe('without FEDERATION', () => {
  test('/graphql serves the plain schema: no _service, no _entities', async ({ sandbox }) => {
    const res = await sandbox.query('{ _service { sdl } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('_entities through the same loaders, cache and budget (FEDERATION=true)', () => {
  const rig = upstreamGatewayFor({ FEDERATION: 'true' });
  beforeEach(() => {
    rig.up.calls.length = 0;
    answerLikeSandbox(rig.up);
  });

  it('_service { sdl } answers the printed subgraph SDL', async () => {
    const res = await rig.gw.query('{ _service { sdl } }');
    expect(`${res.body.data!._service.sdl}\n`).toBe(readFileSync(SUBGRAPH_FILE, 'utf8'));
  });

  it('every entity resolves from a reference holding only its key, written in any form its root argument accepts', async () => {
    const representations = [
      { __typename: 'Company', domain: 'https://www.HubSpot.com/pricing?utm_source=x' },
      { __typename: 'DomainRecord', requestedDomain: 'WWW.Example.com.' },
      { __typename: 'FinancialProfile', symbol: '$nke' },
      { __typename: 'PhotosocialProfile', username: '@NatGeo' },
      { __typename: 'ProfessionalProfile', handle: 'https://www.professionalnet.example/in/Sam-Rivera/details/' },
      { __typename: 'VideositeChannel', requestedUrl: 'videosite.example/@SandboxStudio/videos' },
      { __typename: 'VideositeTranscript', requestedUrl: 'https://m.videosite.example/shorts/dQw4w9WgXcQ' },
    ];
    const res = await rig.gw.query(
      ENTITIES_QUERY(`
        ... on Company { domain name }
        ... on DomainRecord { requestedDomain isRegistered }
        ... on FinancialProfile { symbol companyName }
        ... on PhotosocialProfile { username }
        ... on ProfessionalProfile { handle }
        ... on VideositeChannel { requestedUrl }
        ... on VideositeTranscript { requestedUrl }`),
      { representations },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!._entities).toEqual([
      { __typename: 'Company', domain: 'hubspot.com', name: 'Hubspot' },
      { __typename: 'DomainRecord', requestedDomain: 'example.com', isRegistered: true },
      { __typename: 'FinancialProfile', symbol: 'NKE', companyName: 'NIKE, Inc.' },
      { __typename: 'PhotosocialProfile', username: 'natgeo' },
      { __typename: 'ProfessionalProfile', handle: 'sam-rivera' },
      { __typename: 'VideositeChannel', requestedUrl: 'https://www.videosite.example/@sandboxstudio' },
      { __typename: 'VideositeTranscript', requestedUrl: 'https://www.videosite.example/watch?v=dQw4w9WgXcQ' },
    ]);
    // One call per entity, each with the canonical key the root field would send.
    expect(rig.up.calls.map((call) => [call.action, call.body]).sort()).toEqual(
      [
        ['company_financial_profile', { company: 'NKE' }],
        ['domain_info', { domain: 'example.com' }],
        ['get_company_object', { domain: 'hubspot.com' }],
        ['get_photosocial_profile', { username: 'natgeo' }],
        ['get_professionalnet_profile', { profile_handle: 'sam-rivera' }],
        ['get_videosite_channel', { url: 'https://www.videosite.example/@sandboxstudio' }],
        ['get_videosite_transcript', { url: 'https://www.videosite.example/watch?v=dQw4w9WgXcQ' }],
      ].sort(),
    );
  });

  it('one company written four ways is one call, and every symbol (asked and linked) goes in one financial call', async () => {
    const representations = [
      { __typename: 'Company', domain: 'https://www.hubspot.com/' },
      { __typename: 'Company', domain: 'hubspot.com' },
      { __typename: 'Company', domain: 'HubSpot.com.' },
      { __typename: 'Company', domain: 'www.hubspot.com/pricing' },
      { __typename: 'Company', domain: 'nike.com' },
      { __typename: 'FinancialProfile', symbol: 'aapl' },
      { __typename: 'FinancialProfile', symbol: '$AAPL' },
      { __typename: 'FinancialProfile', symbol: 'msft' },
    ];
    const res = await rig.gw.query(
      ENTITIES_QUERY('... on Company { domain financialProfile { symbol } } ... on FinancialProfile { symbol price }'),
      {
        representations,
      },
    );
    expect(res.body.errors).toBeUndefined();
    const entities = res.body.data!._entities;
    expect(entities.slice(0, 4).map((e: { domain: string }) => e.domain)).toEqual([
      'hubspot.com',
      'hubspot.com',
      'hubspot.com',
      'hubspot.com',
    ]);
    expect(entities[4].financialProfile).toEqual({ symbol: 'NKE' });
    expect(entities[6]).toEqual({ __typename: 'FinancialProfile', symbol: 'AAPL', price: 228.52 });
    expect(asked(rig.up, 'get_company_object', 'domain').sort()).toEqual(['hubspot.com', 'nike.com']);
    const financial = asked(rig.up, 'company_financial_profile', 'company');
    expect(financial).toHaveLength(1);
    expect(financial[0]!.split(', ').sort()).toEqual(['AAPL', 'HUBS', 'MSFT', 'NKE']);
    // The estimate read the representations: 2 companies + 1 symbol batch, exactly what was paid.
    expect(res.body.extensions!.gateway).toMatchObject({ upstreamCalls: 3, cost: { estimated: 3 } });
  });

  it('a malformed or unknown representation is null with its coded error at its index; the others resolve', async () => {
    const representations = [
      { __typename: 'Company', domain: 'nike.com' },
      { __typename: 'Account', id: '1' },
      { __typename: 'Company' },
      { __typename: 'Company', domain: 42 },
      { __typename: 'Company', domain: 'not a domain' },
      { __typename: 'FinancialProfile', symbol: 'NOT;A;SYMBOL' },
      'Company',
      { domain: 'nike.com' },
    ];
    const res = await rig.gw.query(ENTITIES_QUERY('... on Company { name }'), { representations });
    expect(res.body.data!._entities).toEqual([
      { __typename: 'Company', name: 'Nike' },
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    // The list keeps one item per representation, in order, however fast each one failed (a router matches them by index).
    const errors: Record<string, [string, string]> = Object.fromEntries(
      res.body.errors!.map((error) => [error.path![1], [error.extensions!.code, error.message]]),
    );
    expect(Object.keys(errors)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    for (const [code] of Object.values(errors)) expect(code).toBe('BAD_USER_INPUT');
    expect(errors[1]![1]).toMatch(
      /"Account" is not an entity of this subgraph; its entities are Company, DomainRecord, FinancialProfile/,
    );
    expect(errors[2]![1]).toBe('A Company representation needs its key "domain" as a string');
    expect(errors[4]![1]).toMatch(/"domain" must be a domain name/);
    expect(errors[5]![1]).toMatch(/"symbol" must hold stock symbols/);
    expect(asked(rig.up, 'get_company_object', 'domain')).toEqual(['nike.com']);
    expect(rig.up.calls).toHaveLength(1);
  });

  it('a failing lookup nulls only its own entity, with its coded error', async () => {
    answerLikeSandbox(rig.up, (call) => call.body.domain === 'nike.com');
    const representations = [
      { __typename: 'Company', domain: 'hubspot.com' },
      { __typename: 'Company', domain: 'nike.com' },
      { __typename: 'FinancialProfile', symbol: 'AAPL' },
    ];
    const res = await rig.gw.query(ENTITIES_QUERY('... on Company { name } ... on FinancialProfile { symbol }'), {
      representations,
    });
    expect(res.body.data!._entities).toEqual([
      { __typename: 'Company', name: 'Hubspot' },
      null,
      { __typename: 'FinancialProfile', symbol: 'AAPL' },
    ]);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        path: ['_entities', 1],
        extensions: expect.objectContaining({ code: 'UPSTREAM_UNAVAILABLE' }),
      }),
    ]);
  });

  it('60 distinct companies are refused with COST_LIMIT_EXCEEDED before any call', async () => {
    const representations = Array.from({ length: 60 }, (_, i) => ({
      __typename: 'Company',
      domain: `company-${i}.example`,
    }));
    // Repeats of one company in other spellings add nothing.
    representations.push({ __typename: 'Company', domain: 'https://www.company-0.example/' });
    const res = await rig.gw.query(ENTITIES_QUERY('... on Company { name }'), { representations });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({ code: 'COST_LIMIT_EXCEEDED', cost: 60, budget: 50 }),
      }),
    ]);
    expect(rig.up.calls).toHaveLength(0);
  });

  it("frontends' own operations run on the same endpoint; node and nodes are left out", async () => {
    const res = await rig.gw.query('{ company(domain: "www.hubspot.com") { name financialProfile { symbol } } }');
    expect(res.body.data).toEqual({ company: { name: 'Hubspot', financialProfile: { symbol: 'HUBS' } } });
    const node = await rig.gw.query('{ node(id: "x") { id } }');
    expect(node.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers a federated trace (ftv1) only when the router asks for one', async () => {
    const query = ENTITIES_QUERY('... on Company { name }');
    const representations = [{ __typename: 'Company', domain: 'hubspot.com' }];
    const traced = await rig.gw.query(query, { representations }, { 'apollo-federation-include-trace': 'ftv1' });
    expect(traced.body.data!._entities).toEqual([{ __typename: 'Company', name: 'Hubspot' }]);
    expect(traced.body.extensions!.ftv1).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const plain = await rig.gw.query(query, { representations });
    expect(plain.body.extensions!.ftv1).toBeUndefined();
  });
});

describe('_entities and the cross-request cache (FEDERATION=true, cache on)', () => {
  const rig = upstreamGatewayFor({ FEDERATION: 'true', CACHE_ENABLED: 'true' });
  beforeEach(() => answerLikeSandbox(rig.up));

  it("answers a repeat from the cache, with the lookups' Cache-Control", async () => {
    const query = ENTITIES_QUERY('... on Company { name } ... on FinancialProfile { price }');
    const representations = [
      { __typename: 'Company', domain: 'apple.com' },
      { __typename: 'FinancialProfile', symbol: 'KO' },
    ];
    const first = await rig.gw.query(query, { representations });
    expect(first.body.extensions!.gateway.upstreamCalls).toBe(2);
    // The financial profile's TTL (120 s) is the shortest.
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=1[12]\d$/);
    const calls = rig.up.calls.length;
    const again = await rig.gw.query(query, {
      representations: [{ __typename: 'Company', domain: 'https://apple.com/' }, representations[1]],
    });
    expect(again.body.data).toEqual(first.body.data);
    expect(rig.up.calls.length).toBe(calls);
    expect(again.body.extensions!.gateway.upstreamCalls).toBe(0);
  });
});

describe('the estimate of _entities reads the representations', () => {
  const { schema } = subgraph({ nodeFields: false });
  const batchedSymbols = (action: string) => actionNamed(action)?.batchedSymbols === true;
  const estimate = (selection: string, representations: unknown[]) =>
    estimateCost({
      schema,
      document: parse(ENTITIES_QUERY(selection)),
      variables: { representations },
      batchSize: 50,
      batchedSymbols,
    })?.cost;
  const companies = (...domains: string[]) => domains.map((domain) => ({ __typename: 'Company', domain }));

  it.each([
    [
      'distinct canonical keys per type',
      '... on Company { name }',
      companies('https://www.hubspot.com/', 'hubspot.com', 'nike.com'),
      2,
    ],
    [
      'links below count once per distinct key',
      '... on Company { domainInfo { domainName } }',
      companies('hubspot.com', 'HUBSPOT.COM', 'nike.com'),
      4,
    ],
    [
      'financial links join one batch',
      '... on Company { financialProfile { symbol } }',
      companies('a.com', 'b.com', 'c.com'),
      4,
    ],
    [
      'symbols: one batch however many',
      '... on FinancialProfile { symbol }',
      ['aapl', 'AAPL', '$nke', 'MSFT'].map((symbol) => ({ __typename: 'FinancialProfile', symbol })),
      1,
    ],
    [
      'below symbols: a link per distinct symbol',
      '... on FinancialProfile { company { name } }',
      ['aapl', 'AAPL', 'nke'].map((symbol) => ({ __typename: 'FinancialProfile', symbol })),
      3,
    ],
    [
      'malformed and unknown representations cost nothing',
      '... on Company { name }',
      [
        { __typename: 'Nope', domain: 'a.com' },
        { __typename: 'Company' },
        { __typename: 'Company', domain: 'not a domain' },
        'x',
        7,
      ],
      0,
    ],
  ])('%s', (_name, selection, representations, cost) => {
    expect(estimate(selection, representations as unknown[])).toBe(cost);
  });

  it('representations written inline count too, and are among the variables an estimate depends on', () => {
    const inline = parse(
      '{ _entities(representations: [{ __typename: "Company", domain: "a.com" }, { __typename: "Company", domain: "b.com" }]) { __typename } }',
    );
    expect(estimateCost({ schema, document: inline, batchSize: 50, batchedSymbols })?.cost).toBe(2);
    expect([...costVariables(schema, parse(ENTITIES_QUERY('... on Company { name }')))]).toEqual(['representations']);
  });
});
