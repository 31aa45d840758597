import { actionNamed } from '../../src/actions/all.js';
import { Kind, parse, print, visit } from 'graphql';
import { describe, expect, it } from 'vitest';
import { costVariables, estimateCost } from '../../src/cost/estimate.js';
import { describeSuggestions, suggestFirst } from '../../src/cost/suggest.js';
import { loadExamples } from '../../src/server/examples.js';
import { schema } from '../../src/graph/index.js';
import { json } from '../support/fault-upstream.js';
import { inProcessGateway } from '../support/gateway.js';
import { forSuite, upstreamGatewayFor } from '../support/fixtures.js';
import { answered } from '../support/assertions.js';
import { TEN_COMPANIES_WITH_SYMBOLS } from '../support/samples.js';

function cost(
  query: string,
  variables?: Record<string, unknown>,
  batchSize = 50,
  operationName?: string,
): number | undefined {
  return estimateCost({ schema, document: parse(query), variables, batchSize, operationName, batchedSymbols })?.cost;
}

const CHANNEL = 'https://www.videosite.example/@sandboxstudio';
const batchedSymbols = (action: string) => actionNamed(action)?.batchedSymbols === true;

describe('the static estimate', () => {
  it.each([
    ['no lookup', '{ __typename }', 0],
    ['introspection', '{ __schema { types { name } } }', 0],
    ['one root lookup', '{ company(domain: "hubspot.com") { name ticker } }', 1],
    [
      'root lookups count 1 each, aliases included',
      '{ a: company(domain: "a.com") { name } b: company(domain: "b.com") { name } domainInfo(domain: "a.com") { domainName } }',
      3,
    ],
    [
      'company with its two links',
      '{ company(domain: "hubspot.com") { financialProfile { symbol } domainInfo { domainName } } }',
      3,
    ],
    [
      'company, its parents and their domain records',
      '{ company(domain: "x.com") { parent { domainInfo { domainName } } ultimateParent { name } } }',
      4,
    ],
    [
      'domain -> company -> financial profile',
      '{ domainInfo(domain: "apple.com") { company { financialProfile { symbol } } } }',
      3,
    ],
    ['ten companies with their financial profiles: 10 + one symbol batch', TEN_COMPANIES_WITH_SYMBOLS, 11],
    [
      'financialProfiles: distinct symbols in one batch',
      '{ a: financialProfiles(symbols: ["AAPL", "nke"]) { symbol } b: financialProfiles(symbols: ["aapl", "KO"]) { symbol } }',
      1,
    ],
    [
      'root symbols and company links share the first wave',
      '{ c: company(domain: "apple.com") { financialProfile { symbol } } f: financialProfiles(symbols: ["KO"]) { symbol } }',
      2,
    ],
    [
      'profiles -> companies (x3) -> profiles: a second symbol wave',
      '{ financialProfiles(symbols: ["HUBS", "NKE", "GOOGL"]) { company { financialProfile { symbol } } } }',
      5,
    ],
    [
      'search: 1 + 20 transcripts (without `first` the list is complete: the 20 a page holds)',
      '{ videositeSearch(query: "x") { videos { transcript { title } } } }',
      21,
    ],
    [
      'search: 1 + 5 transcripts (first: 5)',
      '{ videositeSearch(query: "x") { videos(first: 5) { transcript { title } } } }',
      6,
    ],
    [
      'search: 1 + 20 transcripts (first: 20)',
      '{ videositeSearch(query: "x") { videos(first: 20) { transcript { title } } } }',
      21,
    ],
    [
      'search: a first above the most the upstream returns counts that most',
      '{ videositeSearch(query: "x") { videos(first: 1000) { transcript { title } } } }',
      21,
    ],
    [
      'search: first: 0 makes no link calls',
      '{ videositeSearch(query: "x") { videos(first: 0) { transcript { title } } } }',
      1,
    ],
    [
      'search: transcripts and result channels',
      '{ videositeSearch(query: "x") { videos(first: 20) { transcript { title } channel { details { requestedUrl } } } } }',
      41,
    ],
    [
      'search: typed result channels',
      '{ videositeSearch(query: "x") { channels(first: 2) { details { requestedUrl } } } }',
      3,
    ],
    [
      'search shorts: without `first`, 3 shelves x 10',
      '{ videositeSearch(query: "x") { shorts { items { transcript { title } } } } }',
      31,
    ],
    [
      'search shorts: 1 shelf x 5',
      '{ videositeSearch(query: "x") { shorts(first: 1) { items(first: 5) { transcript { title } } } } }',
      6,
    ],
    [
      'search shorts: plain data below a list costs nothing, whatever its length',
      '{ videositeSearch(query: "x") { shorts { items { title } } } }',
      1,
    ],
    [
      'search shorts: 1 + 3 shelves x 10',
      '{ videositeSearch(query: "x") { shorts(first: 3) { items(first: 10) { transcript { title } } } } }',
      31,
    ],
    [
      'channel: highlighted transcript',
      `{ videositeChannel(url: "${CHANNEL}") { highlightedVideo { transcript { title } } } }`,
      2,
    ],
    [
      'channel: without `first`, 6 shelves x 12 transcripts',
      `{ videositeChannel(url: "${CHANNEL}") { videosSections { videos { transcript { title } } } } }`,
      73,
    ],
    [
      'channel: 2 shelves x 5 transcripts',
      `{ videositeChannel(url: "${CHANNEL}") { videosSections(first: 2) { videos(first: 5) { transcript { title } } } } }`,
      11,
    ],
    [
      'channel: 1 + 6 shelves x 12 transcripts',
      `{ videositeChannel(url: "${CHANNEL}") { videosSections(first: 6) { videos(first: 12) { transcript { title } } } } }`,
      73,
    ],
    [
      'the same field selected twice merges (it resolves once)',
      '{ videositeSearch(query: "x") { videos(first: 5) { transcript { title } } videos(first: 5) { transcript { text } } } }',
      6,
    ],
    [
      'aliased link fields count apart',
      '{ videositeSearch(query: "x") { videos(first: 5) { a: transcript { title } b: transcript { text } } } }',
      11,
    ],
    [
      'the realistic video page: 1 + 5 transcripts + 5 channels, 1 + 2 x 5 transcripts',
      `{ videositeSearch(query: "x") { videos(first: 5) { title transcript { text } channel { details { about { description } } } } }
         videositeChannel(url: "${CHANNEL}") { videosSections(first: 2) { videos(first: 5) { transcript { text } } } } }`,
      22,
    ],
    ['a list bounded by `first`', '{ microblogPosts(query: "x", first: 5) { text } }', 1],
  ])('%s: %s -> %i', (_name, query, expected) => {
    expect(cost(query)).toBe(expected);
  });

  it('expands fragments and inline fragments where they are spread, with variables', () => {
    const query = `
      query Videos($q: String!) { videositeSearch(query: $q) { ...Results } again: videositeSearch(query: "y") { ...Results } }
      fragment Results on VideositeSearch { videos(first: 5) { ...Watch } }
      fragment Watch on VideositeVideo { ... on VideositeVideo { transcript { title } } }`;
    expect(cost(query, { q: 'x' })).toBe(12);
  });

  it('counts symbols in canonical form: BRK.B, brk-b and BRK/B are one lookup', () => {
    expect(cost('{ financialProfiles(symbols: ["BRK.B", "brk-b", "BRK/B", "^gspc"]) { symbol } }', undefined, 1)).toBe(
      2,
    );
  });

  it('ignores inline fragments for other types', () => {
    expect(
      cost('{ videositeSearch(query: "x") { videos { ... on VideositeSectionVideo { transcript { title } } } } }'),
    ).toBe(1);
  });

  it('honours @skip and @include with variables', () => {
    const query =
      'query($skip: Boolean!) { company(domain: "x.com") { financialProfile @skip(if: $skip) { symbol } domainInfo @include(if: $skip) { domainName } } }';
    expect(cost(query, { skip: true })).toBe(2);
    expect(cost(query, { skip: false })).toBe(2);
    expect(cost('{ company(domain: "x.com") @skip(if: true) { name } }')).toBe(0);
  });

  it('counts symbol lists from variables, split by the batch size', () => {
    const query = 'query($s: [String!]!) { financialProfiles(symbols: $s) { symbol company { name } } }';
    const symbols = ['A', 'B', 'C', 'D', 'E'];
    expect(cost(query, { s: symbols }, 50)).toBe(1 + 5);
    expect(cost(query, { s: symbols }, 2)).toBe(3 + 5);
  });

  it('picks the named operation', () => {
    const document =
      '{ company(domain: "a.com") { name } } query Two { a: company(domain: "a.com") { name } b: domainInfo(domain: "a.com") { domainName } }';
    expect(cost(document.replace('{ company', 'query One { company'), undefined, 50, 'Two')).toBe(2);
  });
});

describe('the `first:` that brings an operation under its budget', () => {
  const estimateOf = (query: string) =>
    estimateCost({ schema, document: parse(query), batchSize: 50, batchedSymbols })!;
  const suggestionsFor = (query: string, budget: number) =>
    suggestFirst({ schema, document: parse(query), batchSize: 50, batchedSymbols }, estimateOf(query), budget);
  /** The query with `first: n` written on the list at each response path (a query without fragments). */
  const withFirst = (query: string, first: Record<string, number>) => {
    const path: string[] = [];
    return print(
      visit(parse(query), {
        Field: {
          enter(node) {
            path.push(node.alias?.value ?? node.name.value);
            const n = first[path.join('.')];
            if (n === undefined) return undefined;
            const value = { kind: Kind.INT, value: String(n) } as const;
            return {
              ...node,
              arguments: [
                ...(node.arguments ?? []),
                { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'first' }, value },
              ],
            };
          },
          leave() {
            path.pop();
          },
        },
      }),
    );
  };
  const PAGE = `{ videositeSearch(query: "x") { videos { transcript { title } channel { details { requestedUrl } } } }
    videositeChannel(url: "${CHANNEL}") { videosSections { videos { transcript { title } } } } }`;

  it('lists the lists with links below them, costliest first; lists of plain data are not among them', () => {
    const estimate = estimateOf(
      `{ videositeSearch(query: "x") { shorts { items { title } } videos { transcript { title } } } }`,
    );
    expect(estimate.cost).toBe(21);
    expect(estimate.lists).toEqual([{ path: 'videositeSearch.videos', counted: 20, costBelow: 20 }]);
    expect(estimateOf(PAGE).lists.map((l) => l.path)).toEqual([
      'videositeChannel.videosSections.videos',
      'videositeChannel.videosSections',
      'videositeSearch.videos',
    ]);
  });

  it('names the largest `first` on each list that fits, and writing it gives the cost it names', () => {
    const query = `{ videositeSearch(query: "x") { videos { transcript { title } channel { details { requestedUrl } } } } }`;
    expect(estimateOf(query).cost).toBe(41);
    const suggestions = suggestionsFor(query, 30);
    expect(suggestions).toEqual([{ first: { 'videositeSearch.videos': 14 }, cost: 29 }]);
    expect(estimateOf(withFirst(query, suggestions[0]!.first)).cost).toBe(29);
  });

  it('every suggestion for the video page fits when written', () => {
    expect(estimateOf(PAGE).cost).toBe(114);
    for (const budget of [100, 50, 20, 5]) {
      const suggestions = suggestionsFor(PAGE, budget);
      expect(suggestions.length, `budget ${budget}`).toBeGreaterThan(0);
      for (const suggestion of suggestions) {
        const cost = estimateOf(withFirst(PAGE, suggestion.first)).cost;
        expect(cost).toBe(suggestion.cost);
        expect(cost).toBeLessThanOrEqual(budget);
      }
    }
  });

  it('one `first` for all the costliest lists when no single one fits; none when nothing in lists can', () => {
    const query = `{ a: videositeSearch(query: "x") { videos { transcript { title } } } b: videositeSearch(query: "y") { videos { transcript { title } } } }`;
    expect(suggestionsFor(query, 12)).toEqual([{ first: { 'a.videos': 5, 'b.videos': 5 }, cost: 12 }]);
    expect(suggestionsFor(query, 1)).toEqual([]);
    expect(describeSuggestions([])).toBe('Ask for fewer lookups or links.');
  });
});

describe('fragments spread twice at every level', () => {
  it('are collected once per selection, so a 40-fragment doubling chain costs linear time, not 2^40 walks', () => {
    const fragments = Array.from({ length: 40 }, (_, i) =>
      i < 39
        ? `fragment C${i} on Company { name ...C${i + 1} ...C${i + 1} }`
        : `fragment C${i} on Company { name domainInfo { domainName } }`,
    ).join('\n');
    const document = parse(`{ company(domain: "hubspot.com") { ...C0 } }\n${fragments}`);
    // Without the shared visited set this would not return within the test's timeout.
    expect(estimateCost({ schema, document, batchSize: 50, batchedSymbols })?.cost).toBe(2);
  });
});

describe('the variables an estimate depends on', () => {
  const names = (query: string) => [...costVariables(schema, parse(query))].sort();

  it.each([
    ['a lookup key only', 'query($d: String!) { domainInfo(domain: $d) { domainName } }', []],
    ['stock symbols', 'query($s: [String!]!, $x: Int) { financialProfiles(symbols: $s) { symbol } }', ['s']],
    [
      'symbols inside a list',
      'query($a: String!, $b: String!) { financialProfiles(symbols: [$a, "NKE", $b]) { symbol } }',
      ['a', 'b'],
    ],
    ['node ids', 'query($id: ID!, $ids: [ID!]!) { node(id: $id) { id } nodes(ids: $ids) { id } }', ['id', 'ids']],
    [
      'first, and @skip/@include, in fragments too',
      'query($q: String!, $n: Int, $on: Boolean!) { videositeSearch(query: $q) { ...V } } fragment V on VideositeSearchResult { videos(first: $n) @include(if: $on) { title } }',
      ['n', 'on'],
    ],
  ])('%s', (_name, query, expected) => {
    expect(names(query)).toEqual(expected);
  });

  it('a variable outside them changes no estimate', () => {
    const query = 'query($d: String!) { a: domainInfo(domain: $d) { company { financialProfile { symbol } } } }';
    expect(cost(query, { d: 'apple.com' })).toBe(cost(query, { d: 'nike.com' }));
  });
});

describe('the cost limit over HTTP', () => {
  const gw = forSuite(() => inProcessGateway({ CACHE_ENABLED: 'false' }));
  const totalCalls = () => [...gw.gateway.sandbox!.calls.values()].reduce((a, b) => a + b, 0);

  it('rejects an operation over the budget before any upstream call: COST_LIMIT_EXCEEDED, HTTP 400, cost and budget', async () => {
    const before = totalCalls();
    const { status, body } = await gw.query(`{
      videositeSearch(query: "zippers") { videos(first: 20) { transcript { title } channel { details { requestedUrl } } } }
      videositeChannel(url: "${CHANNEL}") { videosSections(first: 6) { videos(first: 12) { transcript { title } } } }
    }`);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.extensions).toEqual({
      code: 'COST_LIMIT_EXCEEDED',
      cost: 114,
      budget: 50,
      suggestions: [{ first: { 'videositeChannel.videosSections.videos': 1 }, cost: 48 }],
    });
    expect(body.errors![0]!.message).toBe(
      'This operation could make up to 114 upstream calls, more than the budget of 50. To fit, ask `first: 1` on videositeChannel.videosSections.videos (estimate 48); or ask for fewer lookups or links.',
    );
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 0, cost: { estimated: 114, budget: 50 } });
    expect(totalCalls()).toBe(before);
  });

  it('counts variables: the same document passes or fails by its variables', async () => {
    const query = 'query($s: [String!]!) { financialProfiles(symbols: $s) { symbol company { name } } }';
    const fits = await gw.query(query, { s: ['HUBS', 'NKE'] });
    expect(fits.status).toBe(200);
    expect(fits.body.errors).toBeUndefined();
    expect(fits.body.extensions!.gateway).toMatchObject({ upstreamCalls: 3, cost: { estimated: 3, budget: 50 } });

    const before = totalCalls();
    const tooMany = await gw.query(query, { s: Array.from({ length: 50 }, (_, i) => `S${i}`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors![0]!.extensions).toEqual({ code: 'COST_LIMIT_EXCEEDED', cost: 51, budget: 50 });
    expect(totalCalls()).toBe(before);
  });

  it('one estimate serves every value of a variable it does not depend on: each request is held to the budget and reports it', async () => {
    // Fifteen lookups with their links, all keyed by the same variable: over the budget of 50 whatever $d is.
    const query = `query($d: String!) { ${Array.from({ length: 15 }, (_, i) => `l${i}: domainInfo(domain: $d) { company { domainInfo { domainName } parent { name } } }`).join(' ')} }`;
    const estimated = cost(query, { d: 'apple.com' })!;
    expect(estimated).toBeGreaterThan(50);
    const before = totalCalls();
    // A value that does not coerce is refused before the estimate, and leaves nothing behind for the others.
    const bad = await gw.query(query, { d: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors![0]!.message).toContain('$d');
    for (const d of ['apple.com', 'nike.com', 'hubspot.com']) {
      const { status, body } = await gw.query(query, { d });
      expect(status).toBe(400);
      expect(body.errors![0]!.extensions).toEqual({ code: 'COST_LIMIT_EXCEEDED', cost: estimated, budget: 50 });
      expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 0, cost: { estimated, budget: 50 } });
    }
    expect(totalCalls()).toBe(before);

    const fits = 'query($d: String!) { domainInfo(domain: $d) { company { name } } }';
    for (const d of ['apple.com', 'nike.com']) {
      const { body } = await gw.query(fits, { d });
      expect(body.errors).toBeUndefined();
      expect(body.extensions!.gateway).toMatchObject({ cost: { estimated: 2, budget: 50 } });
    }
  });

  it('reports the estimate and the calls made on every response', async () => {
    const { body } = await gw.query(`{ company(domain: "hubspot.com") { financialProfile { company { name } } } }`);
    expect(body.errors).toBeUndefined();
    // Estimated 3 (company, financial, company); made 2: the profile's company is hubspot.com again.
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 2, cost: { estimated: 3, budget: 50 } });
  });

  it('reports a null cost when the operation never ran', async () => {
    const { status, body } = await gw.query('{ company(domain: ');
    expect(status).toBe(400);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 0, cost: null });
  });
});

describe('the runtime counter', () => {
  const { up, gw } = upstreamGatewayFor({ CACHE_ENABLED: 'false', COST_BUDGET: '21' });

  it('a list longer than `first` is cut at `first`: the calls made stay within the estimate', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `video${String(i).padStart(5, '0')}`);
    up.handle((call, _req, res) => {
      if (call.action === 'run_videosite_search') {
        return json(res, 200, {
          status: 200,
          response: {
            videos: ids.map((id, i) => ({ id, position: i + 1, link: `https://www.videosite.example/watch?v=${id}` })),
          },
        });
      }
      const id = new URL(String(call.body.url)).searchParams.get('v');
      return json(res, 200, { status: 200, response: `Title of ${id}\nText of ${id}`, metadata: { id } });
    });
    const { body } = await answered(
      gw,
      '{ videositeSearch(query: "long") { videos(first: 20) { id: videoId transcript { title } } } }',
    );
    const videos = body.data!.videositeSearch.videos as Array<{ id: string; transcript: { title: string } | null }>;
    expect(videos.map((v) => v.transcript)).toEqual(ids.slice(0, 20).map((id) => ({ title: `Title of ${id}` })));
    expect(up.calls).toHaveLength(21);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 21, cost: { estimated: 21, budget: 21 } });
  });

  it('a negative `first` is BAD_USER_INPUT on the list, and nothing below it is called', async () => {
    up.calls.length = 0;
    const { body } = await gw.query(
      '{ videositeSearch(query: "long") { videos(first: -1) { transcript { title } } } }',
    );
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'first' });
    expect(body.errors![0]!.message).toContain('"first" must be 0 or more, got -1');
    expect(up.calls.map((c) => c.action)).toEqual(['run_videosite_search']);
  });

  it('without `first` every item comes back, and plain data below it costs nothing', async () => {
    up.calls.length = 0;
    const { body } = await gw.query('{ videositeSearch(query: "long") { videos { id: videoId title } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeSearch.videos).toHaveLength(30);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 1, cost: { estimated: 1, budget: 21 } });
  });

  it('a list longer than the upstream usually returns comes back whole; the budget still holds: lookups past it are COST_LIMIT_EXCEEDED', async () => {
    up.calls.length = 0;
    // The estimate counts the 20 videos a result page holds (21 calls, the budget); this upstream sends 30.
    const { body } = await gw.query(
      '{ videositeSearch(query: "long") { videos { id: videoId transcript { title } } } }',
    );
    const videos = body.data!.videositeSearch.videos as Array<{ id: string; transcript: { title: string } | null }>;
    expect(videos).toHaveLength(30);
    expect(videos.filter((v) => v.transcript !== null)).toHaveLength(20);
    expect(body.errors).toHaveLength(10);
    for (const error of body.errors!)
      expect(error.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', action: 'get_videosite_transcript' });
    expect(up.calls).toHaveLength(21);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 21, cost: { estimated: 21, budget: 21 } });
  });
});

describe('the example operations of the graph', () => {
  const gw = forSuite(() => inProcessGateway({ CACHE_ENABLED: 'false' }));

  it.each([
    ['20-company-graph', 4, 3],
    ['21-video-graph', 13, 7],
    ['22-video-page', 22, 9],
  ])('%s: estimated %i, makes %i calls against the sandbox', async (name, estimated, made) => {
    const example = loadExamples().find((e) => e.name === name)!;
    const { body } = await gw.query(example.query, example.variables ?? undefined);
    expect(body.errors).toBeUndefined();
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: made, cost: { estimated, budget: 50 } });
  });
});
