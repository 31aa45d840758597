import type { GatewayContext } from '../../operation/context.js';
import type { Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseObject } from '../loader.js';

export const RUN_VIDEOSITE_SEARCH = 'run_videosite_search';

/** A video search result as the upstream sent it, with the query it was asked for. */
export interface VideoSearchSource {
  raw: Raw;
  query: string;
}

/**
 * The most items the upstream returns in each of the search result's lists that carry links
 * (transcripts, channel details): what the cost estimate counts for a list the client does not cut
 * with `first:`. The contract gives no counts; these are the largest seen in one result page.
 */
export const SEARCH_LISTS = {
  /** Videos of one result page. */
  videos: { most: 20 },
  /** Channels among the results. */
  channels: { most: 10 },
  /** Shorts shelves among the results. */
  shorts: { most: 3 },
  /** Shorts in one shelf. */
  shortsItems: { most: 10 },
} as const;

/** Video search. The key is the trimmed, whitespace-collapsed query. */
export const videositeSearchAction = defineLookup<string, VideoSearchSource>({
  action: RUN_VIDEOSITE_SEARCH,
  rootField: 'videositeSearch',
  cacheKey: (query) => query,
  body: (query) => ({ query }),
  parse: (envelope, query) => ({ raw: responseObject(envelope, RUN_VIDEOSITE_SEARCH), query }),
  ttlSeconds: 900,
  liveSeconds: 600,
  namesSymbols: false,
  lists: SEARCH_LISTS,
});

/** `query` must already be validated, trimmed and whitespace-collapsed. */
export function loadVideoSearch(ctx: GatewayContext, query: string): Promise<VideoSearchSource> {
  return videositeSearchAction.load(ctx, query);
}
