import { beforeEach, describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { sampleHex } from '../../src/sandbox/data/identity.js';
import { json } from '../support/fault-upstream.js';
import { answered, answersWithCalls, itRejectsBeforeUpstream } from '../support/assertions.js';

const VIDEO = 'id: videoId link title viewCount';
const THUMBNAIL = 'url staticUrl richUrl';
const EVERY_FIELD = `
  requestedUrl additionalFields
  channel {
    id: channelId title handle description avatarUrl bannerUrl firstLink firstLinkUrl keywords keywordList tags
    isFamilySafe subscriberCount videoCount additionalFields
  }
  about { description joinedDate joinedDateText links { title link url } subscriberCount videoCount viewCount additionalFields }
  highlightedVideo { ${VIDEO} description publishedTime }
  videosSections { title videos { ${VIDEO} position length lengthSeconds publishedTime thumbnail { ${THUMBNAIL} } } }
  searchMetadata { id: fetchId status createdAt createdAtText htmlUrl jsonUrl requestUrl parsingTimeTaken requestTimeTaken totalTimeTaken }
  searchParameters { channelId channelHandle engine countryCode languageCode }`;

function sectionVideo(
  images: string,
  position: number,
  id: string,
  title: string,
  length: string,
  lengthSeconds: number,
  publishedTime: string,
  viewCount: number,
) {
  const thumbnail = `${images}/thumbnail/videosite-${id.toLowerCase()}.png`;
  return {
    id,
    link: `https://www.videosite.example/watch?v=${id}`,
    title,
    viewCount,
    position,
    length,
    lengthSeconds,
    publishedTime,
    thumbnail: { url: thumbnail, staticUrl: thumbnail, richUrl: null },
  };
}

describe('videositeChannel against the sandbox', () => {
  it('resolves every field of a channel asked by handle', async ({ sandbox: gw }) => {
    const url = 'https://www.videosite.example/@bridge-builders';
    const { body } = await answered(gw, `{ videositeChannel(url: "${url}") { ${EVERY_FIELD} } }`);
    // Derived from the handle: its counts, dates, links and pictures; its shelves hold the sandbox's videos.
    const images = `${gw.gateway.sandbox!.url}/images`;
    expect(body.data!.videositeChannel).toEqual({
      requestedUrl: url,
      additionalFields: null,
      channel: {
        id: 'UCmgXU3ZKfi7kiySWGVtMuwx',
        title: 'Bridge Builders',
        handle: '@bridge-builders',
        description: 'Bridge Builders makes long-form documentaries about how everyday things are engineered.',
        avatarUrl: `${images}/avatar/videosite-bridgebuilders.png`,
        bannerUrl: `${images}/banner/videosite-bridgebuilders.png`,
        firstLink: 'instagram.com/bridgebuilders',
        firstLinkUrl: 'https://instagram.com/bridgebuilders',
        keywords: 'engineering documentary "how it works" science "behind the scenes"',
        keywordList: ['engineering', 'documentary', 'how it works', 'science', 'behind the scenes'],
        tags: ['Engineering', 'Documentary', 'Science'],
        isFamilySafe: true,
        subscriberCount: 87694326,
        videoCount: 1752,
        additionalFields: null,
      },
      about: {
        description:
          'Bridge Builders makes long-form documentaries about how everyday things are engineered.\n\nNew videos every other Friday.',
        joinedDate: '2014-08-09',
        joinedDateText: 'Joined Aug 9, 2014',
        links: [
          { title: 'Instagram', link: 'instagram.com/bridgebuilders', url: 'https://instagram.com/bridgebuilders' },
          { title: 'Merch', link: 'https://shop.bridgebuilders.example/', url: 'https://shop.bridgebuilders.example/' },
          {
            title: 'Patreon',
            link: 'https://www.patreon.example/bridgebuilders',
            url: 'https://www.patreon.example/bridgebuilders',
          },
        ],
        subscriberCount: 87694326,
        videoCount: 1752,
        viewCount: 9558681534,
        additionalFields: null,
      },
      highlightedVideo: {
        id: 'SnGnt0DVIge',
        link: 'https://www.videosite.example/watch?v=SnGnt0DVIge',
        title: 'How Pencils Are Made',
        viewCount: 2452870,
        description: 'A pencil is two pieces of wood and a stick of graphite. Making one is harder.',
        publishedTime: '1 year ago',
      },
      videosSections: [
        {
          title: 'Videos',
          videos: [
            sectionVideo(images, 1, 'DQvjRiXAu2y', 'How Wind Turbines Are Built', '59:53', 3593, '3 years ago', 6716),
            sectionVideo(
              images,
              2,
              '9mDM0ahOG7x',
              'Building a Bridge in 24 Hours',
              '58:04',
              3484,
              '9 months ago',
              151377,
            ),
            sectionVideo(
              images,
              3,
              'G9gNEfIoNb1',
              'Why Subway Tunnels Do Not Flood',
              '1:01:57',
              3717,
              '7 years ago',
              3032998481,
            ),
          ],
        },
        {
          title: 'Popular videos',
          videos: [
            sectionVideo(images, 1, 'SnGnt0DVIge', 'How Pencils Are Made', '57:23', 3443, '1 year ago', 2452870),
          ],
        },
      ],
      searchMetadata: {
        // The sandbox makes the fetch id from the URL it receives: the canonical channel URL, here `url` itself.
        id: sampleHex(`channel-fetch:${url}`, 24),
        status: 'Success',
        createdAt: '2026-11-20T14:03:27.000Z',
        createdAtText: '2026-11-20T14:03:27Z',
        htmlUrl: 'https://serp.upstream.example/searches/6f1c2b7e0a/channel.html',
        jsonUrl: 'https://serp.upstream.example/searches/6f1c2b7e0a/channel.json',
        requestUrl: url,
        parsingTimeTaken: 0.41,
        requestTimeTaken: 1.87,
        totalTimeTaken: 2.28,
      },
      searchParameters: {
        channelId: '@bridge-builders',
        channelHandle: '@bridge-builders',
        engine: 'videosite_channel',
        countryCode: 'us',
        languageCode: 'en',
      },
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('reads a channel asked by id: the lookup parameter is the id and has no handle', async ({ sandbox: gw }) => {
    const { body } = await gw.query(
      '{ videositeChannel(url: "https://www.videosite.example/channel/UCabc123def456ghi789jkl0") { channel { id: channelId handle } searchParameters { channelId channelHandle } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeChannel).toEqual({
      channel: { id: 'UCabc123def456ghi789jkl0', handle: '@channel-89jkl0' }, // the sandbox makes a handle from the id
      searchParameters: { channelId: 'UCabc123def456ghi789jkl0', channelHandle: null },
    });
  });

  it('makes one upstream call for the same URL asked twice in one operation, however it is written', async ({
    sandbox: gw,
  }) => {
    await answersWithCalls(
      gw,
      'get_videosite_channel',
      `{
      a: videositeChannel(url: "https://www.videosite.example/@dedupe") { channel { title } }
      b: videositeChannel(url: "  HTTPS://WWW.VIDEOSITE.EXAMPLE/@dedupe ") { about { viewCount } }
    }`,
      { a: { channel: { title: 'Dedupe' } }, b: { about: { viewCount: 545280867 } } },
    );
  });

  itRejectsBeforeUpstream('videositeChannel', 'url', 'channel { id: channelId }', [
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['https://www.videosite.example/watch?v=dQw4w9WgXcQ', 'must be a channel such as "@name"'],
    ['@', 'must be a channel such as "@name"'],
    ['ftp://videosite.example/@name', 'must be a channel such as "@name"'],
    ['javascript:alert(1)', 'must be a channel such as "@name"'],
    [`https://www.videosite.example/${'a'.repeat(2100)}`, 'at most 2048'],
  ]);
});

describe('videositeChannel against upstream variants', () => {
  const { up, gw: gwUp } = upstreamGatewayFor();
  beforeEach(() => {
    up.calls.length = 0;
  });

  it('reads live variants: digit-string counts, extra keys, spaced UTC timestamps, comma keywords, odd lengths and thumbnails', async () => {
    up.handle((_call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: {
          channel: {
            id: 'UCx',
            handle: '@x',
            keywords: 'cooking, baking,  bread ,cooking',
            tags: 'not-a-list',
            subscribers: '1234567',
            videos: -3,
            available_countries: ['US', 'CA'],
          },
          about: {
            joined_date: 'Feb 20, 2012',
            links: [{ link: 'not a link', title: 'Weird' }, 'junk'],
            views: 2 ** 60,
            country: 'United States',
            external_links: [{ title: 'Site' }],
          },
          highlighted_video: { id: 12345, link: 'www.videosite.example/watch?v=x', views: 3000000000.5 },
          videos_sections: [
            {
              section_title: 'Live',
              videos: [
                { id: 'a', length: 'LIVE', thumbnail: '//i.videosite-img.example/vi/a/hq.jpg' },
                {
                  id: 'b',
                  length: '1:2',
                  thumbnail: { static: 'https://i.example/b.jpg', rich: 'https://i.example/b.webp' },
                },
                { id: 'c', length: '10:61', thumbnail: 42 },
                { id: 'd', length: '100:00:00', thumbnail: '' },
              ],
            },
            'junk',
          ],
          search_metadata: { created_at: '2024-04-12 10:23:11 UTC', total_time_taken: '2.1' },
          search_parameters: { channel_id: '@x' },
          channels: [{ title: 'Related' }],
        },
      }),
    );
    const { body } = await gwUp.query(
      `{ videositeChannel(url: "https://www.videosite.example/@x") { ${EVERY_FIELD} } }`,
    );
    expect(body.errors).toBeUndefined();
    const c = body.data!.videositeChannel;
    expect(c.additionalFields).toEqual({ channels: [{ title: 'Related' }] });
    expect(c.channel).toMatchObject({
      keywords: 'cooking, baking,  bread ,cooking',
      keywordList: ['cooking', 'baking', 'bread'],
      tags: [],
      subscriberCount: 1234567,
      videoCount: null,
      additionalFields: { available_countries: ['US', 'CA'] },
    });
    expect(c.about).toMatchObject({
      joinedDate: '2012-02-20',
      joinedDateText: null,
      links: [{ title: 'Weird', link: 'not a link', url: null }],
      viewCount: null,
      additionalFields: { country: 'United States', external_links: [{ title: 'Site' }] },
    });
    expect(c.highlightedVideo).toEqual({
      id: '12345',
      link: null,
      title: null,
      viewCount: null,
      description: null,
      publishedTime: null,
    });
    expect(c.videosSections).toHaveLength(1);
    expect(c.videosSections[0].videos.map((v: any) => [v.id, v.length, v.lengthSeconds, v.thumbnail])).toEqual([
      [
        'a',
        'LIVE',
        null,
        {
          url: 'https://i.videosite-img.example/vi/a/hq.jpg',
          staticUrl: 'https://i.videosite-img.example/vi/a/hq.jpg',
          richUrl: null,
        },
      ],
      [
        'b',
        '1:2',
        null,
        { url: 'https://i.example/b.jpg', staticUrl: 'https://i.example/b.jpg', richUrl: 'https://i.example/b.webp' },
      ],
      ['c', '10:61', null, null],
      ['d', '100:00:00', 360000, null],
    ]);
    expect(c.searchMetadata).toMatchObject({
      createdAt: '2024-04-12T10:23:11.000Z',
      createdAtText: '2024-04-12 10:23:11 UTC',
      totalTimeTaken: null,
      id: null,
    });
    expect(c.searchParameters).toEqual({
      channelId: '@x',
      channelHandle: '@x',
      engine: null,
      countryCode: null,
      languageCode: null,
    });
    expect(up.calls).toEqual([
      expect.objectContaining({ action: 'get_videosite_channel', body: { url: 'https://www.videosite.example/@x' } }),
    ]);
  });

  it('answers UPSTREAM_BAD_RESPONSE when `response` is not an object, and NOT_FOUND for the documented 400', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: 'a string' }));
    const wrong = await gwUp.query(
      '{ videositeChannel(url: "https://www.videosite.example/@x") { channel { id: channelId } } }',
    );
    expect(wrong.body.data).toEqual({ videositeChannel: null });
    expect(wrong.body.errors![0]!.extensions).toMatchObject({
      code: 'UPSTREAM_BAD_RESPONSE',
      action: 'get_videosite_channel',
    });

    up.handle((_call, _req, res) =>
      json(res, 400, {
        status: 400,
        response: null,
        error: "The requested page doesn't exist or there are no translations available for the video.",
      }),
    );
    const missing = await gwUp.query(
      '{ videositeChannel(url: "https://www.videosite.example/@gone") { channel { id: channelId } } }',
    );
    expect(missing.body.data).toEqual({ videositeChannel: null });
    expect(missing.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', action: 'get_videosite_channel' });
  });
});
