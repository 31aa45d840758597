import type { SandboxAnswer } from '../answer.js';
import { sampleHex } from '../data/identity.js';
import { SandboxInputError } from '../input-error.js';
import { seededInt } from '../data/seeded.js';

const ALLOWED = [1, 5, 10, 25, 50, 100];

/** Hex digits as base32 ones (record keys and CIDs use a-z and 2-7). */
const base32 = (hex: string) => hex.replace(/[0189]/g, (digit) => ({ 0: 'q', 1: 'r', 8: 's', 9: 't' })[digit]!);

const AUTHORS = [
  { displayName: 'Ada Stone', handle: 'adastone.example.social', did: 'did:plc:4k2vq7m3x5n8p1r6t9w2y0za' },
  { displayName: '', handle: 'quietreader.example.social', did: 'did:plc:7h3j9k1l5m2n8b4v6c0x2z3q' },
  { displayName: 'Tech Weekly', handle: 'techweekly.example.social', did: 'did:plc:2p8o4i6u1y3t5r7e9w0q2a4s' },
];

/**
 * search_microblog_posts (contract 2.11): `num_posts` posts about the query, newest first;
 * when, their counts and record keys are derived from the query and the position. The first post's
 * text holds a non-breaking space and every third post's author (the second, the fifth...) has an
 * empty display name, as live.
 */
function microblogPosts(query: string, numPosts: unknown): Record<string, unknown>[] {
  if (typeof numPosts !== 'number' || !ALLOWED.includes(numPosts)) {
    throw new SandboxInputError('num_posts must be one of 1, 5, 10, 25, 50, 100.');
  }
  const seed = (index: number, what: string) => `microblog:${query}:${index}:${what}`;
  let createdAt = Date.parse('2026-11-20T18:30:00.000Z') - seededInt(`microblog:${query}:newest`, 0, 90) * 60_000;
  return Array.from({ length: numPosts }, (_, index) => {
    const author = AUTHORS[index % AUTHORS.length]!;
    const recordKey = `3lb${base32(sampleHex(seed(index, 'key'), 7))}`;
    if (index > 0) createdAt -= seededInt(seed(index, 'gap'), 2, 180) * 60_000;
    const likes = seededInt(seed(index, 'likes'), 0, 400);
    return {
      author: { displayName: author.displayName, handle: author.handle },
      cid: `bafyreib${base32(sampleHex(seed(index, 'cid'), 44))}`,
      createdAt: new Date(createdAt).toISOString(),
      likeCount: likes,
      replyCount: seededInt(seed(index, 'replies'), 0, Math.ceil(likes / 8)),
      repostCount: seededInt(seed(index, 'reposts'), 0, Math.ceil(likes / 4)),
      text: index === 0 ? `Reading about ${query}\u00a0— worth a look.` : `Post ${index + 1} about ${query}.`,
      uri: `at://${author.did}/app.bsky.feed.post/${recordKey}`,
    };
  });
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['query', 'num_posts'],
  respond: (b) => ({ response: microblogPosts(String(b.query), b.num_posts) }),
};
