import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { json } from '../support/fault-upstream.js';
import type { TestGateway } from '../support/gateway.js';
import { answered, answersWithCalls, rejectsBeforeUpstream } from '../support/assertions.js';

const ARTICLE = 'position title link snippet source date favicon thumbnail';
const EVERY_FIELD = `
  query dateRange
  organicResults { ${ARTICLE} }
  pagination { current next hasNextPage otherPages { page url } otherPagesByNumber }
  searchInformation { detectedLocation queryDisplayed timeTakenDisplayed totalResults }
  searchParameters { device engine countryCode languageCode location locationUsed query searchDomain }`;

const PAGE = (start: number, qdr = 'd') =>
  `https://www.search.example/search?q=rust%20language&tbm=nws&tbs=qdr:${qdr}&start=${start}`;

function sendText(res: ServerResponse, text: string) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Width and height from a PNG data URI's IHDR chunk. */
function pngSize(dataUri: string): [number, number] {
  const bytes = Buffer.from(dataUri.slice(dataUri.indexOf(',') + 1), 'base64');
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('news against the sandbox', () => {
  const calls = (gw: TestGateway) => gw.gateway.sandbox!.calls.get('get_search_news') ?? 0;

  it('resolves every field of a search, with the 24-hour window by default', async ({ sandbox: gw }) => {
    const { body } = await answered(gw, `{ news(query: "  rust    language ") { ${EVERY_FIELD} } }`);
    const news = body.data!.news;
    expect(news.query).toBe('rust language');
    expect(news.dateRange).toBe('PAST_DAY');

    expect(news.organicResults).toHaveLength(10);
    const first = news.organicResults[0];
    expect(first).toMatchObject({
      position: 1,
      title: 'rust language: what we know so far',
      link: 'https://www.coastalherald.example/2026/11/20/rust-language-1',
      snippet: 'The latest on rust language, with reporting from our correspondents and the key facts in one place.',
      source: 'Coastal Herald', // which outlet leads depends on the query
      date: '12 minutes ago',
    });
    expect(first.favicon).toHaveLength(4254);
    expect(first.favicon.startsWith('data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAA')).toBe(true);
    expect(first.favicon.endsWith('f9flR1IVgrPAAAAABJRU5ErkJggg==')).toBe(true);
    expect(pngSize(first.favicon)).toEqual([32, 32]);
    expect(first.thumbnail).toHaveLength(5346);
    expect(first.thumbnail.startsWith('data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACQAAAAkCAIAAA')).toBe(true);
    expect(first.thumbnail.endsWith('oQ5A0ygAAAAASUVORK5CYII=')).toBe(true);
    expect(pngSize(first.thumbnail)).toEqual([36, 36]);

    const last = news.organicResults[9];
    expect(last).toMatchObject({
      position: 10,
      title: 'What rust language means for you',
      link: 'https://gbr.example/2026/11/20/rust-language-10',
      snippet: 'A practical guide to how rust language could affect prices, services and everyday decisions.',
      source: 'Global Business Review',
      date: '21 hours ago',
    });
    expect(last.thumbnail.endsWith('AHam3akAAAAASUVORK5CYII=')).toBe(true);
    expect(news.organicResults.map((a: { position: number }) => a.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(news.organicResults.map((a: { date: string }) => a.date)).toEqual([
      '12 minutes ago',
      '47 minutes ago',
      '1 hour ago',
      '2 hours ago',
      '3 hours ago',
      '5 hours ago',
      '8 hours ago',
      '11 hours ago',
      '16 hours ago',
      '21 hours ago',
    ]);
    // Results of the same publisher share its favicon; every thumbnail is its own picture.
    expect(news.organicResults[5].favicon).toBe(first.favicon);
    expect(new Set(news.organicResults.map((a: { thumbnail: string }) => a.thumbnail)).size).toBe(10);

    expect(news.pagination).toEqual({
      current: 1,
      next: 'https://www.search.example/search?q=rust%20language&tbm=nws&tbs=qdr:d&start=10',
      hasNextPage: true,
      otherPages: [
        { page: 2, url: PAGE(10) },
        { page: 3, url: PAGE(20) },
        { page: 4, url: PAGE(30) },
        { page: 5, url: PAGE(40) },
        { page: 6, url: PAGE(50) },
        { page: 7, url: PAGE(60) },
        { page: 8, url: PAGE(70) },
        { page: 9, url: PAGE(80) },
        { page: 10, url: PAGE(90) },
      ],
      otherPagesByNumber: {
        '2': PAGE(10),
        '3': PAGE(20),
        '4': PAGE(30),
        '5': PAGE(40),
        '6': PAGE(50),
        '7': PAGE(60),
        '8': PAGE(70),
        '9': PAGE(80),
        '10': PAGE(90),
      },
    });
    expect(news.searchInformation).toEqual({
      detectedLocation: 'United States',
      queryDisplayed: 'rust language',
      timeTakenDisplayed: 0.28,
      totalResults: 1248500000,
    });
    expect(news.searchParameters).toEqual({
      device: 'desktop',
      engine: 'search_news',
      countryCode: 'us',
      languageCode: 'en',
      location: 'United States',
      locationUsed: 'United States',
      query: 'rust language',
      searchDomain: 'www.search.example',
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('searches the window asked for', async ({ sandbox: gw }) => {
    const { body } = await gw.query(
      '{ news(query: "rust language", dateRange: PAST_MONTH) { dateRange organicResults { date } pagination { next } searchInformation { totalResults } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.news).toMatchObject({
      dateRange: 'PAST_MONTH',
      pagination: { next: PAGE(10, 'm') },
      searchInformation: { totalResults: 2464000000 },
    });
    expect(body.data!.news.organicResults.slice(0, 4)).toEqual([
      { date: '1 day ago' },
      { date: '3 days ago' },
      { date: '5 days ago' },
      { date: '1 week ago' },
    ]);
  });

  it('sends only the selected fields: without favicon and thumbnail the response is a small fraction of the size', async ({
    sandbox: gw,
  }) => {
    const lean = await gw.query(
      '{ news(query: "solar power", dateRange: PAST_WEEK) { organicResults { position title link source date } } }',
    );
    const full = await gw.query(
      '{ news(query: "solar power", dateRange: PAST_WEEK) { organicResults { position title link source date favicon thumbnail } } }',
    );
    expect(lean.body.errors).toBeUndefined();
    expect(full.body.errors).toBeUndefined();
    const leanBytes = Buffer.byteLength(lean.text);
    const fullBytes = Buffer.byteLength(full.text);
    console.log(`news response bytes: without favicon/thumbnail ${leanBytes}, with them ${fullBytes}`);
    expect(lean.text).not.toContain('data:image');
    expect(fullBytes).toBeGreaterThan(90_000);
    expect(leanBytes).toBeLessThan(3_000);
    expect(leanBytes * 30).toBeLessThan(fullBytes);
  });

  it('makes one upstream call for the same search written differently, and one per window', async ({ sandbox: gw }) => {
    await answersWithCalls(
      gw,
      'get_search_news',
      `{
      a: news(query: "wind  farms", dateRange: PAST_WEEK) { query }
      b: news(query: " wind \u00a0 farms ", dateRange: PAST_WEEK) { searchParameters { query } }
      c: news(query: "wind farms", dateRange: PAST_DAY) { dateRange }
    }`,
      { a: { query: 'wind farms' }, b: { searchParameters: { query: 'wind farms' } }, c: { dateRange: 'PAST_DAY' } },
      2,
    );
  });

  it('accepts a query of exactly 500 characters', async ({ sandbox: gw }) => {
    const { body } = await gw.query('query($q: String!) { news(query: $q) { query } }', { q: 'n'.repeat(500) });
    expect(body.errors).toBeUndefined();
    expect(body.data!.news.query).toHaveLength(500);
  });

  it.for([
    ['an empty query', '', 'must not be empty'],
    ['a blank query', '   \t ', 'must not be empty'],
    ['a 501-character query', 'x'.repeat(501), 'at most 500'],
    ['a query with a control character', 'bad\u0000query', 'control characters'],
  ])('rejects %s before any upstream call', async ([_label, query, message], { sandbox: gw }) => {
    await rejectsBeforeUpstream(
      gw,
      'query($q: String!) { news(query: $q) { query } }',
      { q: query },
      { field: 'news', argument: 'query', message },
    );
  });

  it.for([['"24h"'], ['LAST_YEAR'], ['null']])(
    'rejects dateRange %s before any upstream call',
    async ([range], { sandbox: gw }) => {
      const before = calls(gw);
      const { body } = await gw.query(`{ news(query: "x", dateRange: ${range}) { query } }`);
      expect(body.data).toBeUndefined();
      expect(body.errors![0]!.message).toMatch(/NewsDateRange/);
      expect(calls(gw)).toBe(before);
    },
  );
});

describe('news against a recorded upstream', () => {
  const { up, gw } = upstreamGatewayFor();
  afterEach(() => {
    up.calls.length = 0;
  });

  it('sends the 24-hour window when dateRange is not given', async () => {
    up.handle((_call, _req, res) => json(res, 503, { status: 503, response: null, error: 'Down.' }));
    const { body } = await gw.query('{ news(query: "default range") { query } }');
    expect(body.data).toEqual({ news: null });
    expect(up.calls).toHaveLength(1);
    expect(up.calls[0]!.action).toBe('get_search_news');
    expect(up.calls[0]!.body.date_range).toBe('24h');
    expect(up.calls[0]!.body).toEqual({ query: 'default range', date_range: '24h' });
  });

  it.each([
    ['PAST_DAY', '24h'],
    ['PAST_WEEK', '7d'],
    ['PAST_MONTH', '30d'],
  ])('dateRange %s is sent upstream as %s', async (range, upstream) => {
    up.handle((call, _req, res) =>
      json(res, 200, { status: 200, response: { organic_results: [], search_parameters: { q: call.body.query } } }),
    );
    const { body } = await gw.query(
      `query($r: NewsDateRange!) { news(query: "ranges", dateRange: $r) { dateRange organicResults { title } searchParameters { query } } }`,
      { r: range },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.news).toEqual({ dateRange: range, organicResults: [], searchParameters: { query: 'ranges' } });
    expect(up.calls.map((call) => call.body)).toEqual([{ query: 'ranges', date_range: upstream }]);
  });

  it('orders other pages by number whatever order the JSON text has, and skips entries that are not pages', async () => {
    const url = (n: string) => `https://www.search.example/search?q=p&start=${n}`;
    const keys = ['10', '2', '9', '3', '1x', '8', '4', '7', '0', '5', '6', 'next'];
    const otherPages = `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(url(key))}`).join(',')},"11":"javascript:alert(1)"}`;
    up.handle((_call, _req, res) =>
      sendText(res, `{"status":200,"response":{"pagination":{"current":1,"other_pages":${otherPages}}}}`),
    );
    const { body } = await gw.query(
      '{ news(query: "pages", dateRange: PAST_WEEK) { pagination { current next hasNextPage otherPages { page url } otherPagesByNumber } } }',
    );
    expect(body.errors).toBeUndefined();
    const pagination = body.data!.news.pagination;
    expect(pagination.otherPages.map((p: { page: number }) => p.page)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pagination.otherPages[8]).toEqual({ page: 10, url: 'https://www.search.example/search?q=p&start=10' });
    expect(pagination.otherPages[0]).toEqual({ page: 2, url: 'https://www.search.example/search?q=p&start=2' });
    expect(pagination).toMatchObject({ current: 1, next: null, hasNextPage: false });
    // The raw object keeps every entry, the ones left out of otherPages included.
    expect(Object.keys(pagination.otherPagesByNumber)).toHaveLength(13);
    expect(pagination.otherPagesByNumber).toMatchObject({
      '1x': url('1x'),
      next: url('next'),
      '11': 'javascript:alert(1)',
    });
  });

  it('reads the brand-named search domain key, and wrong-typed values as null without failing siblings', async () => {
    up.handle((_call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: {
          organic_results: [
            {
              position: '1',
              title: 'Kept',
              link: 'not a url',
              date: 5,
              favicon: '',
              thumbnail: null,
              source: ['x'],
              snippet: 'Also kept',
            },
            'not an article',
            { position: 2, title: 'Second', link: 'https://news.example/2' },
          ],
          pagination: 'none',
          search_information: {
            total_results: '12',
            time_taken_displayed: 'fast',
            detected_location: 'Canada',
            query_displayed: 7,
          },
          search_parameters: { google_domain: 'www.brand.example', q: 'brand', gl: 'ca', hl: 'fr' },
        },
      }),
    );
    const { body } = await gw.query(`{ news(query: "brand", dateRange: PAST_WEEK) { ${EVERY_FIELD} } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.news).toEqual({
      query: 'brand',
      dateRange: 'PAST_WEEK',
      organicResults: [
        {
          position: null,
          title: 'Kept',
          link: null,
          snippet: 'Also kept',
          source: null,
          date: null,
          favicon: '',
          thumbnail: null,
        },
        {
          position: 2,
          title: 'Second',
          link: 'https://news.example/2',
          snippet: null,
          source: null,
          date: null,
          favicon: null,
          thumbnail: null,
        },
      ],
      pagination: null,
      searchInformation: {
        detectedLocation: 'Canada',
        queryDisplayed: null,
        timeTakenDisplayed: null,
        totalResults: null,
      },
      searchParameters: {
        device: null,
        engine: null,
        countryCode: 'ca',
        languageCode: 'fr',
        location: null,
        locationUsed: null,
        query: 'brand',
        searchDomain: 'www.brand.example',
      },
    });
  });

  it('answers an empty result object with an empty list and nulls', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: {} }));
    const { body } = await gw.query(
      '{ news(query: "nothing") { organicResults { title } pagination { current } searchInformation { totalResults } searchParameters { query } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.news).toEqual({
      organicResults: [],
      pagination: null,
      searchInformation: null,
      searchParameters: null,
    });
  });

  it('reports a response that is not an object as UPSTREAM_BAD_RESPONSE', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: [] }));
    const { body } = await gw.query('{ news(query: "array") { query } }');
    expect(body.data).toEqual({ news: null });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', action: 'get_search_news' });
  });
});
