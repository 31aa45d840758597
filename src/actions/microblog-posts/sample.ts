import { SandboxInputError } from '../sample-input-error.js';

const ALLOWED = [1, 5, 10, 25, 50, 100];

const AUTHORS = [
  { displayName: 'Ada Stone', handle: 'adastone.example.social', did: 'did:plc:4k2vq7m3x5n8p1r6t9w2y0za' },
  { displayName: '', handle: 'quietreader.example.social', did: 'did:plc:7h3j9k1l5m2n8b4v6c0x2z3q' },
  { displayName: 'Tech Weekly', handle: 'techweekly.example.social', did: 'did:plc:2p8o4i6u1y3t5r7e9w0q2a4s' },
];

/**
 * search_microblog_posts (contract 2.11): `num_posts` posts about the query, newest first. The
 * first post's text holds a non-breaking space and one author has an empty display name, as live.
 */
export function microblogPosts(query: string, numPosts: unknown): Record<string, unknown>[] {
  if (typeof numPosts !== 'number' || !ALLOWED.includes(numPosts)) {
    throw new SandboxInputError('num_posts must be one of 1, 5, 10, 25, 50, 100.');
  }
  const newest = Date.parse('2026-11-20T18:30:00.000Z');
  return Array.from({ length: numPosts }, (_, index) => {
    const author = AUTHORS[index % AUTHORS.length]!;
    const recordKey = `3lb${(1_000_000 + index * 7919).toString(36)}k2c`;
    return {
      author: { displayName: author.displayName, handle: author.handle },
      cid: `bafyreib${(index + 11).toString(36).padStart(4, 'q')}x7mz5kq3n2v4w6y8a0c2e4g6i8k0m2o4q6s8u`,
      createdAt: new Date(newest - index * 37 * 60_000).toISOString(),
      likeCount: 120 - index,
      replyCount: (index * 3) % 17,
      repostCount: (index * 5) % 23,
      text: index === 0 ? `Reading about ${query}\u00a0— worth a look.` : `Post ${index + 1} about ${query}.`,
      uri: `at://${author.did}/app.bsky.feed.post/${recordKey}`,
    };
  });
}
