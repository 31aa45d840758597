import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { sampleHex } from '../../src/actions/sample-identity.js';
import { json, startFaultUpstream, upstreamEnv } from '../support/fault-upstream.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { rejectsBeforeUpstream } from '../support/assertions.js';

const VIDEO = 'id: videoId link title viewCount';
const THUMBNAIL = 'url staticUrl richUrl';
const EVERY_FIELD = `
  requestedUrl additionalFields
  channel {
    id: channelId title handle description avatar banner firstLink firstLinkUrl keywords keywordList tags
    isFamilySafe subscriberCount videoCount additionalFields
  }
  about { description joinedDate joinedDateText links { title link url } subscriberCount videoCount viewCount additionalFields }
  highlightedVideo { ${VIDEO} description publishedTime }
  videosSections { title videos { ${VIDEO} position length lengthSeconds publishedTime thumbnail { ${THUMBNAIL} } } }
  searchMetadata { id: fetchId status createdAt createdAtText htmlUrl jsonUrl requestUrl parsingTimeTaken requestTimeTaken totalTimeTaken }
  searchParameters { channelId channelHandle engine countryCode languageCode }`;

const calls = (gw: RunningGateway) => gw.gateway.sandbox!.calls.get('get_videosite_channel') ?? 0;

function sectionVideo(position: number, id: string, title: string, length: string, lengthSeconds: number, publishedTime: string, viewCount: number) {
  return {
    id,
    link: `https://www.videosite.example/watch?v=${id}`,
    title,
    viewCount,
    position,
    length,
    lengthSeconds,
    publishedTime,
    thumbnail: {
      url: `https://i.videosite-img.example/vi/${id}/hqdefault.jpg`,
      staticUrl: `https://i.videosite-img.example/vi/${id}/hqdefault.jpg`,
      richUrl: null,
    },
  };
}

describe('videositeChannel against the sandbox', () => {
  it('resolves every field of a channel asked by handle', async ({ sandbox: gw }) => {
    const url = 'https://www.videosite.example/@bridge-builders';
    const { status, body } = await gw.query(`{ videositeChannel(url: "${url}") { ${EVERY_FIELD} } }`);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeChannel).toEqual({
      requestedUrl: url,
      additionalFields: null,
      channel: {
        id: 'UCsandboxStudio0000000001',
        title: 'Bridge Builders',
        handle: '@bridge-builders',
        description: 'Bridge Builders makes long-form documentaries about how everyday things are engineered.',
        avatar: 'https://yt3.videosite-img.example/avatar/sandboxstudio=s176-c-k-c0x00ffffff-no-rj',
        banner: 'https://yt3.videosite-img.example/banner/sandboxstudio=w2560-fcrop64=1',
        firstLink: 'instagram.com/sandboxstudio',
        firstLinkUrl: 'https://instagram.com/sandboxstudio',
        keywords: 'engineering documentary "how it works" science "behind the scenes"',
        keywordList: ['engineering', 'documentary', 'how it works', 'science', 'behind the scenes'],
        tags: ['Engineering', 'Documentary', 'Science'],
        isFamilySafe: true,
        subscriberCount: 48200000,
        videoCount: 812,
        additionalFields: null,
      },
      about: {
        description: 'Bridge Builders makes long-form documentaries about how everyday things are engineered.\n\nNew videos every other Friday.',
        joinedDate: '2012-02-20',
        joinedDateText: 'Joined Feb 20, 2012',
        links: [
          { title: 'Instagram', link: 'instagram.com/sandboxstudio', url: 'https://instagram.com/sandboxstudio' },
          { title: 'Merch', link: 'https://shop.sandboxstudio.example/', url: 'https://shop.sandboxstudio.example/' },
          { title: 'Patreon', link: 'https://www.patreon.example/sandboxstudio', url: 'https://www.patreon.example/sandboxstudio' },
        ],
        subscriberCount: 48200000,
        videoCount: 812,
        viewCount: 14250067113,
        additionalFields: null,
      },
      highlightedVideo: {
        id: 'hL9xPq2ZkTs',
        link: 'https://www.videosite.example/watch?v=hL9xPq2ZkTs',
        title: 'Inside the Port That Moves the World',
        viewCount: 14000000000,
        description: "We spent a year inside the world's largest container port. This is what we found.",
        publishedTime: '2 months ago',
      },
      videosSections: [
        {
          title: 'Videos',
          videos: [
            sectionVideo(1, 'qW3eR7tY1uI', 'How a Zipper Is Made', '4:05', 245, '3 days ago', 1284331),
            sectionVideo(2, 'aS4dF8gH2jK', 'The Hidden Engineering of Escalators', '54:47', 3287, '2 weeks ago', 8712904),
            sectionVideo(3, 'zX5cV9bN3mQ', 'Building a Bridge in 24 Hours', '1:02:03', 3723, '1 month ago', 23455120),
          ],
        },
        {
          title: 'Popular videos',
          videos: [sectionVideo(1, 'hL9xPq2ZkTs', 'Inside the Port That Moves the World', '12:30', 750, '2 months ago', 14000000000)],
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
      channel: { id: 'UCabc123def456ghi789jkl0', handle: '@sandboxstudio' },
      searchParameters: { channelId: 'UCabc123def456ghi789jkl0', channelHandle: null },
    });
  });

  it('makes one upstream call for the same URL asked twice in one operation, however it is written', async ({ sandbox: gw }) => {
    const before = calls(gw);
    const { body } = await gw.query(`{
      a: videositeChannel(url: "https://www.videosite.example/@dedupe") { channel { title } }
      b: videositeChannel(url: "  HTTPS://WWW.VIDEOSITE.EXAMPLE/@dedupe ") { about { viewCount } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ a: { channel: { title: 'Dedupe' } }, b: { about: { viewCount: 14250067113 } } });
    expect(calls(gw) - before).toBe(1);
  });

  it.for([
    ['', 'must not be empty'],
    ['   ', 'must not be empty'],
    ['https://www.videosite.example/watch?v=dQw4w9WgXcQ', 'must be a channel such as "@name"'],
    ['@', 'must be a channel such as "@name"'],
    ['ftp://videosite.example/@name', 'must be a channel such as "@name"'],
    ['javascript:alert(1)', 'must be a channel such as "@name"'],
    [`https://www.videosite.example/${'a'.repeat(2100)}`, 'at most 2048'],
  ])('rejects url %j before any upstream call', async ([url, message], { sandbox: gw }) => {
    await rejectsBeforeUpstream(
      gw,
      'query($u: String!) { videositeChannel(url: $u) { channel { id: channelId } } }',
      { u: url },
      { field: 'videositeChannel', argument: 'url', message },
    );
  });
});

describe('videositeChannel against upstream variants', () => {
  it('reads live variants: digit-string counts, extra keys, spaced UTC timestamps, comma keywords, odd lengths and thumbnails', async () => {
    const up = await startFaultUpstream();
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
                { id: 'b', length: '1:2', thumbnail: { static: 'https://i.example/b.jpg', rich: 'https://i.example/b.webp' } },
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
    const gwUp = await startGateway(upstreamEnv(up));
    try {
      const { body } = await gwUp.query(`{ videositeChannel(url: "https://www.videosite.example/@x") { ${EVERY_FIELD} } }`);
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
      expect(c.highlightedVideo).toEqual({ id: '12345', link: null, title: null, viewCount: null, description: null, publishedTime: null });
      expect(c.videosSections).toHaveLength(1);
      expect(c.videosSections[0].videos.map((v: any) => [v.id, v.length, v.lengthSeconds, v.thumbnail])).toEqual([
        ['a', 'LIVE', null, { url: 'https://i.videosite-img.example/vi/a/hq.jpg', staticUrl: 'https://i.videosite-img.example/vi/a/hq.jpg', richUrl: null }],
        ['b', '1:2', null, { url: 'https://i.example/b.jpg', staticUrl: 'https://i.example/b.jpg', richUrl: 'https://i.example/b.webp' }],
        ['c', '10:61', null, null],
        ['d', '100:00:00', 360000, null],
      ]);
      expect(c.searchMetadata).toMatchObject({
        createdAt: '2024-04-12T10:23:11.000Z',
        createdAtText: '2024-04-12 10:23:11 UTC',
        totalTimeTaken: null,
        id: null,
      });
      expect(c.searchParameters).toEqual({ channelId: '@x', channelHandle: '@x', engine: null, countryCode: null, languageCode: null });
      expect(up.calls).toEqual([expect.objectContaining({ action: 'get_videosite_channel', body: { url: 'https://www.videosite.example/@x' } })]);
    } finally {
      await gwUp.close();
      await up.close();
    }
  });

  it('answers UPSTREAM_BAD_RESPONSE when `response` is not an object, and NOT_FOUND for the documented 400', async () => {
    const up = await startFaultUpstream();
    const gwUp = await startGateway(upstreamEnv(up));
    try {
      up.handle((_call, _req, res) => json(res, 200, { status: 200, response: 'a string' }));
      const wrong = await gwUp.query('{ videositeChannel(url: "https://www.videosite.example/@x") { channel { id: channelId } } }');
      expect(wrong.body.data).toEqual({ videositeChannel: null });
      expect(wrong.body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', action: 'get_videosite_channel' });

      up.handle((_call, _req, res) =>
        json(res, 400, { status: 400, response: null, error: "The requested page doesn't exist or there are no translations available for the video." }),
      );
      const missing = await gwUp.query('{ videositeChannel(url: "https://www.videosite.example/@gone") { channel { id: channelId } } }');
      expect(missing.body.data).toEqual({ videositeChannel: null });
      expect(missing.body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', action: 'get_videosite_channel' });
    } finally {
      await gwUp.close();
      await up.close();
    }
  });
});
