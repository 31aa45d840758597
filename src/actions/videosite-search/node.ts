import { canonicalKey, itemNode, lookupNode } from '../node.js';
import { id, objects } from '../../schema/read.js';
import { requireText } from '../validate.js';
import { loadVideoSearch, RUN_VIDEOSITE_SEARCH } from './load.js';
import { VideositeSearch, VideositeSearchVideo, VideositeShort } from './types.js';

const loadByKey = (ctx: Parameters<typeof loadVideoSearch>[0], key: string) =>
  loadVideoSearch(
    ctx,
    canonicalKey(key, (value) => requireText('id', value, 500).replace(/\s+/g, ' ')),
  );

/** A search result page is a node keyed by its (whitespace-collapsed) query. */
lookupNode(VideositeSearch, { action: RUN_VIDEOSITE_SEARCH, keyOf: (search) => search.query, load: loadByKey });

/**
 * Videos and shorts of a search are nodes keyed by the search and the video id; fetched again by
 * repeating the search (a cache hit while it lives). NOT_FOUND once the search no longer returns them.
 */
itemNode(VideositeSearchVideo, {
  action: RUN_VIDEOSITE_SEARCH,
  itemKey: (video) => id(video.id),
  load: loadByKey,
  items: (search) => objects(search.raw.videos),
});

itemNode(VideositeShort, {
  action: RUN_VIDEOSITE_SEARCH,
  itemKey: (video) => id(video.id),
  load: loadByKey,
  items: (search) => objects(search.raw.shorts).flatMap((shelf) => objects(shelf.items)),
});
