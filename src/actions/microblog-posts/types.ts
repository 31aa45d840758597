import { builder } from '../../schema/builder.js';
import { dateTime, obj, type Raw, safeInt, str } from '../../schema/read.js';

export interface AtUri {
  did: string;
  collection: string;
  recordKey: string;
}

const AT_URI = /^at:\/\/([^/]+)\/([^/]+)\/([^/?#]+)$/;

export function parseAtUri(value: unknown): AtUri | null {
  const match = typeof value === 'string' ? AT_URI.exec(value) : null;
  return match ? { did: match[1]!, collection: match[2]!, recordKey: match[3]! } : null;
}

const MicroblogAuthor = builder.objectRef<Raw>('MicroblogAuthor').implement({
  description: 'The author of a microblog post.',
  fields: (t) => ({
    handle: t.string({
      nullable: false,
      description: 'The author\'s handle, e.g. "alice.example.social".',
      resolve: (a) => str(a.handle) ?? '',
    }),
    displayName: t.string({
      description: 'Display name as the author set it; the empty string when the author has none.',
      resolve: (a) => str(a.displayName),
    }),
  }),
});

export const MicroblogPost = builder.objectRef<Raw>('MicroblogPost').implement({
  description: 'A post from the microblogging network.',
  fields: (t) => ({
    uri: t.string({
      nullable: false,
      description:
        "The post's `at://<did>/<collection>/<record key>` URI; its parts are also offered as `did`, `collection` and `recordKey`.",
      resolve: (p) => str(p.uri) ?? '',
    }),
    did: t.string({
      description: 'Decentralised identifier of the repository (author) that holds the post, from `uri`.',
      resolve: (p) => parseAtUri(p.uri)?.did ?? null,
    }),
    collection: t.string({
      description: 'Record collection from `uri`, e.g. "app.bsky.feed.post".',
      resolve: (p) => parseAtUri(p.uri)?.collection ?? null,
    }),
    recordKey: t.string({
      description: 'Record key of the post within its collection, from `uri`.',
      resolve: (p) => parseAtUri(p.uri)?.recordKey ?? null,
    }),
    cid: t.string({
      description: 'Content identifier (hash) of this version of the post.',
      resolve: (p) => str(p.cid),
    }),
    text: t.string({
      description: 'Text of the post, exactly as written (may hold non-breaking spaces).',
      resolve: (p) => str(p.text),
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the post was created (UTC).',
      resolve: (p) => dateTime(p.createdAt),
    }),
    author: t.field({ type: MicroblogAuthor, description: 'Who wrote the post.', resolve: (p) => obj(p.author) }),
    likeCount: t.field({ type: 'SafeInt', description: 'Number of likes.', resolve: (p) => safeInt(p.likeCount) }),
    replyCount: t.field({ type: 'SafeInt', description: 'Number of replies.', resolve: (p) => safeInt(p.replyCount) }),
    repostCount: t.field({
      type: 'SafeInt',
      description: 'Number of reposts.',
      resolve: (p) => safeInt(p.repostCount),
    }),
  }),
});
