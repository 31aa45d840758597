import { itemNode, keyParts } from '../node.js';
import { str } from '../../schema/read.js';
import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { loadPosts, NUM_POSTS_ALLOWED, SEARCH_MICROBLOG_POSTS } from './load.js';
import { MicroblogPost } from './types.js';

/**
 * A post is a node keyed by the search that found it and its `at://` URI; fetched again by repeating
 * that search (a cache hit while it lives) and finding the URI. The upstream has no lookup of one
 * post by URI, so a post the search no longer returns is NOT_FOUND.
 */
itemNode(MicroblogPost, {
  action: SEARCH_MICROBLOG_POSTS,
  itemKey: (post) => str(post.uri),
  load: (ctx, key) => {
    const [query, numPosts] = keyParts(key, 2);
    if (
      typeof query !== 'string' ||
      typeof numPosts !== 'number' ||
      !(NUM_POSTS_ALLOWED as readonly number[]).includes(numPosts) ||
      requireText('id', query, 500).replace(/\s+/g, ' ') !== query
    ) {
      throw badInput('This id does not name a lookup this gateway makes', { argument: 'id' });
    }
    return loadPosts(ctx, query, numPosts);
  },
  items: (posts) => posts,
});
