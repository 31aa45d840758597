/** A search result's channel, linked to the full channel lookup through this operation's loader. */
import { builder } from '../../schema/builder.js';
import type { Raw } from '../../schema/read.js';
import { link } from '../descriptor.js';
import { videositeChannelAction } from '../videosite-channel/load.js';
import { VideositeChannel } from '../videosite-channel/types.js';
import { canonicalChannelUrl } from '../videosite-shared/links.js';
import { VideositeSearchChannel } from './types.js';

/** The channel URL as `videositeChannel(url:)` canonicalises it, so both share one lookup. */
export function channelUrl(value: unknown): string | null {
  return canonicalChannelUrl(value);
}

builder.objectField(VideositeSearchChannel, 'details', (t) =>
  t.field({
    type: VideositeChannel,
    description:
      "The whole channel (as `videositeChannel(url:)`), looked up by the canonical form of this channel's `link`: profile, About page, featured video and shelves. Channels repeated across results, or also asked at the root, are one lookup. Null, with no lookup, when the result has no channel link.",
    ...link(videositeChannelAction, (channel: Raw) => channelUrl(channel.link)),
  }),
);
