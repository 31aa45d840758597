import { describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { json } from '../support/fault-upstream.js';
import { answered, answersWithCalls, itRejectsBeforeUpstream } from '../support/assertions.js';

const NO_TRANSCRIPT = "The requested page doesn't exist or there are no translations available for the video.";
const EVERY_FIELD = `
  requestedUrl title text raw
  video {
    id: videoId title description author category channelId channelName channelLink publishedTime publishedDate
    thumbnail { url staticUrl richUrl } keyMoments lengthSeconds length likeCount viewCount
  }`;

describe('videositeTranscript against the sandbox', () => {
  it('resolves every field, with the title and the text apart', async ({ sandbox: gw }) => {
    const url = 'https://www.videosite.example/watch?v=zX5cV9bN3mQ';
    const { body } = await answered(gw, `{ videositeTranscript(url: "${url}") { ${EVERY_FIELD} } }`);
    // The sandbox's video of this id (the same in search results and on channel shelves).
    const text =
      'Sand, soda ash and crushed old glass go into a furnace at fifteen hundred degrees. A blade cuts the molten stream into gobs of exactly the right weight. ' +
      'Each gob drops into a mould and is blown into a bottle in two steps. The bottles cool slowly for an hour so that they do not crack.';
    const images = `${gw.gateway.sandbox!.url}/images/thumbnail`;
    expect(body.data!.videositeTranscript).toEqual({
      requestedUrl: url,
      title: 'How Glass Bottles Are Made',
      text,
      raw: `How Glass Bottles Are Made\n${text}`,
      video: {
        id: 'zX5cV9bN3mQ',
        title: 'How Glass Bottles Are Made',
        description: `From sand to bottle in under a minute: a glassworks from the inside.\n\nVideo: ${url}`,
        author: 'Maker Lab',
        category: 'Science & Technology',
        channelId: 'UCmakerLab0000000000000003',
        channelName: 'Maker Lab',
        channelLink: 'https://www.videosite.example/channel/UCmakerLab0000000000000003',
        publishedTime: '2024-04-05',
        publishedDate: '2024-04-05',
        thumbnail: {
          url: `${images}/videosite-zx5cv9bn3mq.png`,
          staticUrl: `${images}/videosite-zx5cv9bn3mq.png`,
          richUrl: null,
        },
        keyMoments: [
          { title: 'The furnace', start_seconds: 0, thumbnail: `${images}/videosite-zx5cv9bn3mq-moment-0.png` },
          { title: 'Blowing the bottle', start_seconds: 76, thumbnail: `${images}/videosite-zx5cv9bn3mq-moment-1.png` },
        ],
        lengthSeconds: 227,
        length: '3:47',
        likeCount: 7758,
        viewCount: 266413,
      },
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('turns the documented 400 into a NOT_FOUND error on the field while a sibling field still resolves', async ({
    sandbox: gw,
  }) => {
    const { status, body } = await gw.query(`{
      videositeTranscript(url: "https://www.videosite.example/watch?v=no-transcript") { title text }
      domainInfo(domain: "example.com") { domainName }
    }`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ videositeTranscript: null, domainInfo: { domainName: 'example.com' } });
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!.path).toEqual(['videositeTranscript']);
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', action: 'get_videosite_transcript' });
    expect(body.errors![0]!.message).toContain(NO_TRANSCRIPT);
  });

  it('makes one upstream call for the same URL asked twice in one operation', async ({ sandbox: gw }) => {
    await answersWithCalls(
      gw,
      'get_videosite_transcript',
      `{
      a: videositeTranscript(url: "https://www.videosite.example/watch?v=dedupe1") { title }
      b: videositeTranscript(url: "https://WWW.videosite.example/watch?v=dedupe1") { video { id: videoId } }
    }`,
      { a: { title: 'How Glass Bottles Are Made' }, b: { video: { id: 'dedupe1' } } },
    );
  });

  itRejectsBeforeUpstream('videositeTranscript', 'url', 'title', [
    ['', 'must not be empty'],
    ['dQw4', 'must be a video link such as https://'],
    ['https://www.videosite.example/@sandboxstudio', 'must be a video link such as https://'],
    ['file:///etc/passwd', 'must be a video link such as https://'],
    ['https://www.videosite.example/watch?v=a\u0000b', 'control characters'],
  ]);
});

describe('videositeTranscript against upstream variants', () => {
  const { up, gw: gwUp } = upstreamGatewayFor();

  /** Answers the transcript action with `envelope` and domain_info with a minimal record. */
  function answer(envelope: Record<string, unknown>, httpStatus = 200) {
    up.handle((call, _req, res) => {
      if (call.action === 'domain_info')
        return json(res, 200, { status: 200, response: { domain_name: call.body.domain, domain_registered: 'yes' } });
      return json(res, httpStatus, envelope);
    });
  }

  it('maps the documented 400 from a real upstream to NOT_FOUND on the field; the sibling resolves', async () => {
    answer({ status: 400, response: null, error: NO_TRANSCRIPT }, 400);
    const before = up.calls.length;
    const { status, body } = await gwUp.query(`{
      videositeTranscript(url: "https://www.videosite.example/watch?v=abc") { title }
      domainInfo(domain: "example.com") { domainName }
    }`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ videositeTranscript: null, domainInfo: { domainName: 'example.com' } });
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]!).toMatchObject({
      path: ['videositeTranscript'],
      message: `The upstream found nothing for this lookup: ${NO_TRANSCRIPT}`,
      extensions: { code: 'NOT_FOUND', action: 'get_videosite_transcript' },
    });
    expect(
      up.calls
        .slice(before)
        .map((c) => c.action)
        .sort(),
    ).toEqual(['domain_info', 'get_videosite_transcript']);
  });

  it.each([
    ['a title and a newline only', 'Only a title\n', 'e1'],
    ['a title with no newline', 'Only a title', 'e2'],
    ['a title, CRLF and white space', 'Only a title\r\n   \n', 'e3'],
  ])('reads a transcript whose text is empty: %s', async (_name, response, videoId) => {
    answer({
      status: 200,
      response,
      metadata: {
        id: 'x1',
        title: 'Only a title',
        length_seconds: '3723',
        likes: 'n/a',
        views: 2 ** 40,
        key_moments: [null, { t: 1 }],
        published_time: '2024-03-05T10:00:00-08:00',
        thumbnail: { static: 'https://i.example/x1.jpg', rich: 'https://i.example/x1.webp' },
      },
    });
    const { body } = await gwUp.query(
      `{ videositeTranscript(url: "https://www.videosite.example/watch?v=${videoId}") { ${EVERY_FIELD} } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeTranscript).toMatchObject({
      title: 'Only a title',
      text: '',
      raw: response,
      video: {
        id: 'x1',
        lengthSeconds: 3723,
        length: '1:02:03',
        likeCount: null,
        viewCount: 1099511627776,
        keyMoments: [{ t: 1 }],
        publishedTime: '2024-03-05T10:00:00-08:00',
        publishedDate: '2024-03-05',
        thumbnail: {
          url: 'https://i.example/x1.jpg',
          staticUrl: 'https://i.example/x1.jpg',
          richUrl: 'https://i.example/x1.webp',
        },
        description: null,
        channelLink: null,
      },
    });
  });

  it('falls back to the metadata title when the first line is empty, and reads missing metadata as null', async () => {
    answer({ status: 200, response: '\nText without a title line.', metadata: { title: 'Title from metadata' } });
    const first = await gwUp.query(
      '{ videositeTranscript(url: "https://www.videosite.example/watch?v=t2") { title text video { title publishedDate } } }',
    );
    expect(first.body.data!.videositeTranscript).toEqual({
      title: 'Title from metadata',
      text: 'Text without a title line.',
      video: { title: 'Title from metadata', publishedDate: null },
    });

    answer({ status: 200, response: 'Bare title\nBare text' });
    const second = await gwUp.query(
      '{ videositeTranscript(url: "https://www.videosite.example/watch?v=t3") { title text video { id: videoId } } }',
    );
    expect(second.body.errors).toBeUndefined();
    expect(second.body.data!.videositeTranscript).toEqual({ title: 'Bare title', text: 'Bare text', video: null });
  });

  it('answers UPSTREAM_BAD_RESPONSE when `response` is not a string', async () => {
    answer({ status: 200, response: { title: 'an object' }, metadata: {} });
    const { body } = await gwUp.query(
      '{ videositeTranscript(url: "https://www.videosite.example/watch?v=t4") { title } }',
    );
    expect(body.data).toEqual({ videositeTranscript: null });
    expect(body.errors![0]!.extensions).toMatchObject({
      code: 'UPSTREAM_BAD_RESPONSE',
      action: 'get_videosite_transcript',
    });
  });

  it('sends the normalised URL as the only body field', async () => {
    answer({ status: 200, response: 'T\nx' });
    const before = up.calls.length;
    await gwUp.query('{ videositeTranscript(url: "  https://WWW.Videosite.example/watch?v=Ab1  ") { title } }');
    expect(up.calls.slice(before)).toEqual([
      expect.objectContaining({
        action: 'get_videosite_transcript',
        body: { url: 'https://www.videosite.example/watch?v=Ab1' },
      }),
    ]);
  });
});
