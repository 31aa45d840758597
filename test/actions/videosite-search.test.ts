import { beforeEach, describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { json } from '../support/fault-upstream.js';
import { answered, answersWithCalls, itRejectsBeforeUpstream } from '../support/assertions.js';

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

function still(url: string) {
  return { url, staticUrl: url, richUrl: null };
}

describe('videositeSearch against the sandbox', () => {
  it('resolves every field of a search', async ({ sandbox: gw }) => {
    const { body } = await answered(gw, `{ videositeSearch(query: "  sourdough   bread ") { ${EVERY_FIELD} } }`);
    // The sandbox's videos picked by the query, each with its own title, counts, date and channel; the first and third are Sandbox Studio's, the third also on its shelf.
    const images = `${gw.gateway.sandbox!.url}/images`;
    const thumbnail = (id: string) => `${images}/thumbnail/videosite-${id.toLowerCase()}.png`;
    const channel = (handle: string, id: string, title: string, isVerified: boolean) => ({
      id,
      title,
      link: `https://www.videosite.example/@${handle}`,
      isVerified,
      thumbnail: still(`${images}/avatar/videosite-${handle}.png`),
    });
    const animated = (id: string) => ({
      url: thumbnail(id),
      staticUrl: thumbnail(id),
      richUrl: `${images}/thumbnail/videosite-${id.toLowerCase()}-preview.png`,
    });
    expect(body.data!.videositeSearch).toEqual({
      query: 'sourdough bread',
      suggestions: ['sourdough bread explained', 'sourdough bread for beginners', 'sourdough bread documentary'],
      additionalFields: null,
      searchInformation: { totalResults: 49229135 },
      searchParameters: { query: 'sourdough bread', engine: 'videosite', countryCode: 'us', languageCode: 'en' },
      shorts: [
        {
          title: 'Shorts',
          position: 2,
          items: [
            {
              id: 'tvyrf_PAJUZ',
              link: 'https://www.videosite.example/shorts/tvyrf_PAJUZ',
              title: 'How Glass Bottles Are Made',
              viewCount: 7126134264,
              position: 1,
              thumbnail: still(thumbnail('tvyrf_PAJUZ')),
            },
            {
              id: '2bHX_TtgFP7',
              link: 'https://www.videosite.example/shorts/2bHX_TtgFP7',
              title: 'Building a Bridge in 24 Hours',
              viewCount: 277907,
              position: 2,
              thumbnail: still(thumbnail('2bHX_TtgFP7')),
            },
          ],
        },
      ],
      videos: [
        {
          id: 'f-kzpSsGT0u',
          link: 'https://www.videosite.example/watch?v=f-kzpSsGT0u',
          title: 'How a Zipper Is Made',
          viewCount: 23514,
          position: 1,
          description:
            'How is a zipper made? We visit a factory that makes four million a day. Found for "sourdough bread".',
          length: '15:27',
          lengthSeconds: 927,
          publishedTime: '1 year ago',
          badges: [],
          thumbnail: animated('f-kzpSsGT0u'),
          channel: channel('sandboxstudio', 'UCsandboxStudio0000000001', 'Sandbox Studio', true),
        },
        {
          id: 'GxCTwsWdFxS',
          link: 'https://www.videosite.example/watch?v=GxCTwsWdFxS',
          title: 'How Glass Bottles Are Made',
          viewCount: 75989,
          position: 2,
          description:
            'From sand to bottle in under a minute: a glassworks from the inside. Found for "sourdough bread".',
          length: '19:55',
          lengthSeconds: 1195,
          publishedTime: '4 years ago',
          badges: [],
          thumbnail: still(thumbnail('GxCTwsWdFxS')),
          channel: channel('sandboxvlogs', 'UCsandboxVlogs00000000002', 'Sandbox Vlogs', false),
        },
        {
          id: 'RIUSIIulSwM',
          link: 'https://www.videosite.example/watch?v=RIUSIIulSwM&pp=ygUHc2FuZGJveA%3D%3D',
          title: 'How Pencils Are Made',
          viewCount: 1703164,
          position: 3,
          description:
            'A pencil is two pieces of wood and a stick of graphite. Making one is harder. Found for "sourdough bread".',
          length: '42:18',
          lengthSeconds: 2538,
          publishedTime: '8 months ago',
          badges: ['4K', 'CC'],
          thumbnail: animated('RIUSIIulSwM'),
          channel: channel('sandboxstudio', 'UCsandboxStudio0000000001', 'Sandbox Studio', true),
        },
      ],
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('makes one upstream call for the same query asked twice in one operation, white space aside', async ({
    sandbox: gw,
  }) => {
    await answersWithCalls(
      gw,
      'run_videosite_search',
      '{ a: videositeSearch(query: "rye  flour") { query } b: videositeSearch(query: " rye flour ") { suggestions } }',
      {
        a: { query: 'rye flour' },
        b: { suggestions: ['rye flour explained', 'rye flour for beginners', 'rye flour documentary'] },
      },
    );
  });

  itRejectsBeforeUpstream('videositeSearch', 'query', 'query', [
    ['', 'must not be empty'],
    [' \t ', 'must not be empty'],
    ['q'.repeat(501), 'at most 500'],
    ['bread\u0007', 'control characters'],
  ]);

  it('accepts a query of exactly 500 characters', async ({ sandbox: gw }) => {
    const { body } = await gw.query('query($q: String!) { videositeSearch(query: $q) { query } }', {
      q: 'q'.repeat(500),
    });
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeSearch.query).toHaveLength(500);
  });
});

describe('videositeSearch against upstream variants', () => {
  const { up, gw: gwUp } = upstreamGatewayFor();
  beforeEach(() => {
    up.calls.length = 0;
  });

  it('reads every thumbnail form, odd lengths and extra keys', async () => {
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
            {
              title: 'A channel result',
              link: 'videosite.example/@AChannel/videos',
              handle: '@AChannel',
              subscribers: '1,200,000',
              is_verified: true,
            },
            'junk',
          ],
          country: 'US',
          suggestions: 'not a list',
        },
      }),
    );
    const { body } = await gwUp.query(
      `{ videositeSearch(query: "variants") { ${EVERY_FIELD} channels { title link handle isVerified subscriberCount } } }`,
    );
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
    expect(s.channels).toEqual([
      { title: 'A channel result', link: null, handle: '@AChannel', isVerified: true, subscriberCount: 1_200_000 },
    ]);
    expect(s.shorts[0].items.map((i: any) => i.thumbnail)).toEqual([still('https://i.example/s1.jpg'), null]);
    expect(s.videos.map((v: any) => [v.id, v.lengthSeconds, v.thumbnail])).toEqual([
      ['v1', 59, still('https://i.example/v1.jpg')],
      ['v2', null, { url: 'https://i.example/v2.webp', staticUrl: null, richUrl: 'https://i.example/v2.webp' }],
      ['v3', null, null],
      ['v4', 428, null],
    ]);
    expect(s.videos[0].badges).toEqual(['4K']);
    expect(s.videos[0].channel).toEqual({
      id: null,
      title: null,
      link: null,
      isVerified: null,
      thumbnail: still('https://yt3.example/c.jpg'),
    });
    expect(s.videos[1].channel).toBeNull();
    expect(up.calls).toEqual([
      expect.objectContaining({ action: 'run_videosite_search', body: { query: 'variants' } }),
    ]);
  });

  it('answers UPSTREAM_BAD_RESPONSE when `response` is an array', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: [] }));
    const { body } = await gwUp.query('{ videositeSearch(query: "x") { query } }');
    expect(body.data).toEqual({ videositeSearch: null });
    expect(body.errors![0]!.extensions).toMatchObject({
      code: 'UPSTREAM_BAD_RESPONSE',
      action: 'run_videosite_search',
    });
  });
});
