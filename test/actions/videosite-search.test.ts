import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { json, startFaultUpstream, upstreamEnv } from '../support/fault-upstream.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { rejectsBeforeUpstream } from '../support/assertions.js';

const VIDEO = 'id: videoId link title viewCount';
const THUMBNAIL = 'thumbnail { url staticUrl richUrl }';
const EVERY_FIELD = `
  query suggestions additionalFields
  searchInformation { totalResults }
  searchParameters { query engine countryCode languageCode }
  shorts { title position items { ${VIDEO} position ${THUMBNAIL} } }
  videos {
    ${VIDEO} position description length lengthSeconds publishedTime badges ${THUMBNAIL}
    channel { id: channelId title link isVerified ${THUMBNAIL} }
  }`;

const calls = (gw: RunningGateway) => gw.gateway.sandbox!.calls.get('run_videosite_search') ?? 0;
const IMG = 'https://i.videosite-img.example';

function still(url: string) {
  return { url, staticUrl: url, richUrl: null };
}

describe('videositeSearch against the sandbox', () => {
  it('resolves every field of a search', async ({ sandbox: gw }) => {
    const { status, body } = await gw.query(`{ videositeSearch(query: "  sourdough   bread ") { ${EVERY_FIELD} } }`);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const studio = {
      id: 'UCsandboxStudio0000000001',
      title: 'Sandbox Studio',
      link: 'https://www.videosite.example/@sandboxstudio',
      isVerified: true,
      thumbnail: still('https://yt3.videosite-img.example/avatar/sandboxstudio=s68-c-k'),
    };
    expect(body.data!.videositeSearch).toEqual({
      query: 'sourdough bread',
      suggestions: ['sourdough bread explained', 'sourdough bread for beginners', 'sourdough bread documentary'],
      additionalFields: null,
      searchInformation: { totalResults: 2873000000 },
      searchParameters: { query: 'sourdough bread', engine: 'videosite', countryCode: 'us', languageCode: 'en' },
      shorts: [
        {
          title: 'Shorts',
          position: 2,
          items: [
            {
              id: 'sH0rT1aBcDe',
              link: 'https://www.videosite.example/shorts/sH0rT1aBcDe',
              title: 'sourdough bread in 30 seconds',
              viewCount: 3912004,
              position: 1,
              thumbnail: still(`${IMG}/vi/sH0rT1aBcDe/oardefault.jpg`),
            },
            {
              id: 'sH0rT2fGhIj',
              link: 'https://www.videosite.example/shorts/sH0rT2fGhIj',
              title: 'The sourdough bread trick nobody tells you',
              viewCount: 14000000000,
              position: 2,
              thumbnail: still(`${IMG}/vi/sH0rT2fGhIj/oardefault.jpg`),
            },
          ],
        },
      ],
      videos: [
        {
          id: 'vId0001aBcD',
          link: 'https://www.videosite.example/watch?v=vId0001aBcD',
          title: 'sourdough bread: the complete guide',
          viewCount: 14000000000,
          position: 1,
          description: 'Everything you need to know about sourdough bread, from the basics to the details experts argue about.',
          length: '54:47',
          lengthSeconds: 3287,
          publishedTime: '2 months ago',
          badges: ['4K', 'CC'],
          thumbnail: {
            url: `${IMG}/vi/vId0001aBcD/hq720.jpg`,
            staticUrl: `${IMG}/vi/vId0001aBcD/hq720.jpg`,
            richUrl: `${IMG}/an_webp/vId0001aBcD/mqdefault_6s.webp`,
          },
          channel: studio,
        },
        {
          id: 'vId0002eFgH',
          link: 'https://www.videosite.example/watch?v=vId0002eFgH',
          title: 'I tried sourdough bread for 30 days',
          viewCount: 987654,
          position: 2,
          description: 'A month-long experiment with sourdough bread. Chapters in the description.',
          length: '1:02:03',
          lengthSeconds: 3723,
          publishedTime: '1 year ago',
          badges: [],
          thumbnail: still(`${IMG}/vi/vId0002eFgH/hq720.jpg`),
          channel: {
            id: 'UCsandboxVlogs00000000002',
            title: 'Sandbox Vlogs',
            link: 'https://www.videosite.example/@sandboxvlogs',
            isVerified: false,
            thumbnail: still('https://yt3.videosite-img.example/avatar/sandboxvlogs=s68-c-k'),
          },
        },
        {
          id: 'qW3eR7tY1uI',
          link: 'https://www.videosite.example/watch?v=qW3eR7tY1uI&pp=ygUHc2FuZGJveA%3D%3D',
          title: 'sourdough bread in 4 minutes',
          viewCount: 41207,
          position: 3,
          description: 'The short version of sourdough bread.',
          length: '4:05',
          lengthSeconds: 245,
          publishedTime: '3 days ago',
          badges: ['New'],
          thumbnail: {
            url: `${IMG}/vi/qW3eR7tY1uI/hq720.jpg`,
            staticUrl: `${IMG}/vi/qW3eR7tY1uI/hq720.jpg`,
            richUrl: `${IMG}/an_webp/qW3eR7tY1uI/mqdefault_6s.webp`,
          },
          channel: studio,
        },
      ],
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('makes one upstream call for the same query asked twice in one operation, white space aside', async ({ sandbox: gw }) => {
    const before = calls(gw);
    const { body } = await gw.query('{ a: videositeSearch(query: "rye  flour") { query } b: videositeSearch(query: " rye flour ") { suggestions } }');
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ a: { query: 'rye flour' }, b: { suggestions: ['rye flour explained', 'rye flour for beginners', 'rye flour documentary'] } });
    expect(calls(gw) - before).toBe(1);
  });

  it.for([
    ['', 'must not be empty'],
    [' \t ', 'must not be empty'],
    ['q'.repeat(501), 'at most 500'],
    ['bread\u0007', 'control characters'],
  ])('rejects query %j before any upstream call', async ([query, message], { sandbox: gw }) => {
    await rejectsBeforeUpstream(
      gw,
      'query($q: String!) { videositeSearch(query: $q) { query } }',
      { q: query },
      { field: 'videositeSearch', argument: 'query', message },
    );
  });

  it('accepts a query of exactly 500 characters', async ({ sandbox: gw }) => {
    const { body } = await gw.query('query($q: String!) { videositeSearch(query: $q) { query } }', { q: 'q'.repeat(500) });
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeSearch.query).toHaveLength(500);
  });
});

describe('videositeSearch against upstream variants', () => {
  it('reads every thumbnail form, odd lengths and extra keys', async () => {
    const up = await startFaultUpstream();
    up.handle((_call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: {
          search_information: { total_results: '12,345' },
          shorts: [
            {
              section_title: 'Shorts',
              items: [
                { id: 's1', thumbnail: { static: 'https://i.example/s1.jpg' } },
                { id: 's2', thumbnail: 'not a url' },
              ],
            },
          ],
          videos: [
            {
              id: 'v1',
              length: '0:59',
              thumbnail: 'https://i.example/v1.jpg',
              badges: ['4K', 7, null],
              channel: { thumbnail: '//yt3.example/c.jpg', is_verified: 'yes' },
            },
            { id: 'v2', length: '', thumbnail: { rich: 'https://i.example/v2.webp' }, channel: 'junk' },
            { id: 'v3', length: '12:34:56:78', thumbnail: { static: null, rich: null } },
            { id: 'v4', length: ' 7:08 ', thumbnail: ['https://i.example/v4.jpg'] },
          ],
          channels: [
            { title: 'A channel result', link: 'videosite.example/@AChannel/videos', handle: '@AChannel', subscribers: '1,200,000', is_verified: true },
            'junk',
          ],
          country: 'US',
          suggestions: 'not a list',
        },
      }),
    );
    const gwUp = await startGateway(upstreamEnv(up));
    try {
      const { body } = await gwUp.query(`{ videositeSearch(query: "variants") { ${EVERY_FIELD} channels { title link handle isVerified subscriberCount } } }`);
      expect(body.errors).toBeUndefined();
      const s = body.data!.videositeSearch;
      // `channels` is typed (a junk entry is dropped); other unmodelled keys stay in additionalFields.
      expect(s).toMatchObject({
        query: 'variants',
        suggestions: [],
        additionalFields: { country: 'US' },
        searchInformation: { totalResults: 12345 },
        searchParameters: null,
      });
      expect(s.channels).toEqual([{ title: 'A channel result', link: null, handle: '@AChannel', isVerified: true, subscriberCount: 1_200_000 }]);
      expect(s.shorts[0].items.map((i: any) => i.thumbnail)).toEqual([still('https://i.example/s1.jpg'), null]);
      expect(s.videos.map((v: any) => [v.id, v.lengthSeconds, v.thumbnail])).toEqual([
        ['v1', 59, still('https://i.example/v1.jpg')],
        ['v2', null, { url: 'https://i.example/v2.webp', staticUrl: null, richUrl: 'https://i.example/v2.webp' }],
        ['v3', null, null],
        ['v4', 428, null],
      ]);
      expect(s.videos[0].badges).toEqual(['4K']);
      expect(s.videos[0].channel).toEqual({ id: null, title: null, link: null, isVerified: null, thumbnail: still('https://yt3.example/c.jpg') });
      expect(s.videos[1].channel).toBeNull();
      expect(up.calls).toEqual([expect.objectContaining({ action: 'run_videosite_search', body: { query: 'variants' } })]);
    } finally {
      await gwUp.close();
      await up.close();
    }
  });

  it('answers UPSTREAM_BAD_RESPONSE when `response` is an array', async () => {
    const up = await startFaultUpstream();
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: [] }));
    const gwUp = await startGateway(upstreamEnv(up));
    try {
      const { body } = await gwUp.query('{ videositeSearch(query: "x") { query } }');
      expect(body.data).toEqual({ videositeSearch: null });
      expect(body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', action: 'run_videosite_search' });
    } finally {
      await gwUp.close();
      await up.close();
    }
  });
});
