import type { GatewayContext } from '../../operation/context.js';
import { objects, type Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseArray } from '../loader.js';

export const SEARCH_MICROBLOG_POSTS = 'search_microblog_posts';

/** The only page sizes the upstream accepts. */
export const NUM_POSTS_ALLOWED = [1, 5, 10, 25, 50, 100] as const;

/** The smallest page size the upstream accepts that still covers `first` posts. */
export function numPostsFor(first: number): number {
  return NUM_POSTS_ALLOWED.find((size) => size >= first) ?? 100;
}

export interface PostSearch {
  query: string;
  numPosts: number;
}

/** Microblog post search. The key is the whitespace-collapsed query and the page size asked upstream. */
export const microblogPostsAction = defineLookup<PostSearch, Raw[]>({
  action: SEARCH_MICROBLOG_POSTS,
  rootField: 'microblogPosts',
  cacheKey: (search) => JSON.stringify([search.query, search.numPosts]),
  body: (search) => ({ query: search.query, num_posts: search.numPosts }),
  parse: (envelope) => objects(responseArray(envelope, SEARCH_MICROBLOG_POSTS)),
  ttlSeconds: 120,
  liveSeconds: 60,
  namesSymbols: false,
});

/** Asks for the smallest allowed page that covers `first`, so `first: 3` and `first: 5` share a call. */
export async function loadPosts(ctx: GatewayContext, query: string, first: number): Promise<Raw[]> {
  const posts = await microblogPostsAction.load(ctx, { query, numPosts: numPostsFor(first) });
  return posts.slice(0, first);
}
