import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { itRejectsBeforeUpstream, rejectsBeforeUpstream } from '../support/assertions.js';
import { numPostsFor } from '../../src/actions/microblog-posts/load.js';
import { parseAtUri } from '../../src/actions/microblog-posts/types.js';
import { startFaultUpstream, json, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

describe('microblogPosts against the sandbox', () => {
  const calls = (gw: TestGateway) => gw.gateway.sandbox!.calls.get('search_microblog_posts') ?? 0;

  it('resolves every field of a post', async ({ sandbox: gw }) => {
    const { body } = await gw.query(
      '{ microblogPosts(query: "graph  ql", first: 2) { uri did collection recordKey cid text createdAt author { handle displayName } likeCount replyCount repostCount } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.microblogPosts).toEqual([
      {
        uri: 'at://did:plc:4k2vq7m3x5n8p1r6t9w2y0za/app.bsky.feed.post/3lbt2bbfab',
        did: 'did:plc:4k2vq7m3x5n8p1r6t9w2y0za',
        collection: 'app.bsky.feed.post',
        recordKey: '3lbt2bbfab',
        cid: 'bafyreibt3abq7666f2r373bfse7c4bd2da2et4e44aqrb73252e',
        text: 'Reading about graph ql\u00a0— worth a look.',
        createdAt: '2026-11-20T18:01:00.000Z',
        author: { handle: 'adastone.example.social', displayName: 'Ada Stone' },
        likeCount: 255,
        replyCount: 8,
        repostCount: 54,
      },
      {
        uri: 'at://did:plc:7h3j9k1l5m2n8b4v6c0x2z3q/app.bsky.feed.post/3lbfsf27sq',
        did: 'did:plc:7h3j9k1l5m2n8b4v6c0x2z3q',
        collection: 'app.bsky.feed.post',
        recordKey: '3lbfsf27sq',
        cid: 'bafyreib7t3qaa5rcq5taaqbd3bbdsr333cdsqf6ebfdfaaafqa2',
        text: 'Post 2 about graph ql.',
        createdAt: '2026-11-20T15:55:00.000Z',
        author: { handle: 'quietreader.example.social', displayName: '' },
        likeCount: 344,
        replyCount: 39,
        repostCount: 30,
      },
    ]);
  });

  it('shares one call between first: 3 and first: 5 (both ask the upstream for 5)', async ({ sandbox: gw }) => {
    const before = calls(gw);
    const { body } = await gw.query(
      '{ a: microblogPosts(query: "shared", first: 3) { uri } b: microblogPosts(query: "shared", first: 5) { uri } }',
    );
    expect(body.data!.a).toHaveLength(3);
    expect(body.data!.b).toHaveLength(5);
    expect(calls(gw) - before).toBe(1);
  });

  it.for([[0], [101], [-1]])('rejects first: %d before any upstream call', async ([first], { sandbox: gw }) => {
    await rejectsBeforeUpstream(gw, `{ microblogPosts(query: "x", first: ${first}) { uri } }`, undefined, {
      field: 'microblogPosts',
      argument: 'first',
    });
  });

  itRejectsBeforeUpstream('microblogPosts', 'query', 'uri', [[''], ['x'.repeat(501)]]);
});

describe('microblogPosts page sizes', () => {
  let up: FaultUpstream;
  let gw: TestGateway;
  beforeAll(async () => {
    up = await startFaultUpstream();
    up.handle((call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: Array.from({ length: call.body.num_posts }, (_, i) => ({
          uri: `at://did:plc:x/app.bsky.feed.post/${i}`,
          author: { handle: 'h', displayName: '' },
        })),
      }),
    );
    gw = await startGateway(upstreamEnv(up));
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  it.each([
    [1, 1],
    [2, 5],
    [5, 5],
    [6, 10],
    [11, 25],
    [26, 50],
    [51, 100],
    [100, 100],
  ])('first: %d asks the upstream for num_posts %d and returns first posts', async (first, numPosts) => {
    up.calls.length = 0;
    const { body } = await gw.query(`{ microblogPosts(query: "q", first: ${first}) { recordKey } }`);
    expect(up.calls.map((call) => call.body)).toEqual([{ query: 'q', num_posts: numPosts }]);
    expect(body.data!.microblogPosts).toHaveLength(first);
    expect(numPostsFor(first)).toBe(numPosts);
  });

  it('splits at:// URIs and rejects other forms', () => {
    expect(parseAtUri('at://did:plc:abc/app.bsky.feed.post/3k')).toEqual({
      did: 'did:plc:abc',
      collection: 'app.bsky.feed.post',
      recordKey: '3k',
    });
    expect(parseAtUri('https://example.com/a/b')).toBeNull();
    expect(parseAtUri('at://did:plc:abc/only-two')).toBeNull();
    expect(parseAtUri(42)).toBeNull();
  });
});
