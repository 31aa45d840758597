import type { GatewayContext } from '../../operation/context.js';
import type { Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseObject } from '../loader.js';

export const GET_VIDEOSITE_CHANNEL = 'get_videosite_channel';

/** A channel page as the upstream sent it, with the URL it was asked for. */
export interface ChannelSource {
  raw: Raw;
  requestedUrl: string;
}

/**
 * The most items the upstream returns in each of the channel page's lists that carry links (each
 * video's transcript): what the cost estimate counts for a list the client does not cut with
 * `first:`. The contract gives no counts; these are the largest seen on one channel page.
 */
export const CHANNEL_LISTS = {
  /** Shelves on the channel page. */
  videosSections: { most: 6 },
  /** Videos in one shelf. */
  sectionVideos: { most: 12 },
} as const;

/** A video-site channel page. The key is the canonical channel URL (canonicalChannelUrl). */
export const videositeChannelAction = defineLookup<string, ChannelSource>({
  action: GET_VIDEOSITE_CHANNEL,
  rootField: 'videositeChannel',
  cacheKey: (url) => url,
  body: (url) => ({ url }),
  parse: (envelope, url) => ({ raw: responseObject(envelope, GET_VIDEOSITE_CHANNEL), requestedUrl: url }),
  ttlSeconds: 1800,
  liveSeconds: 600,
  namesSymbols: false,
  lists: CHANNEL_LISTS,
});

/** `url` must already be canonical (requireChannelUrl / canonicalChannelUrl). */
export function loadChannel(ctx: GatewayContext, url: string): Promise<ChannelSource> {
  return videositeChannelAction.load(ctx, url);
}
