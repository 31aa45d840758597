/** A search result's channel, linked to the full channel lookup through this operation's loader. */
import { builder } from '../../schema/builder.js';
import { linkCost } from '../../cost/model.js';
import { GET_VIDEOSITE_CHANNEL, loadChannel } from '../videosite-channel/load.js';
import { VideositeChannel } from '../videosite-channel/types.js';
import { webUrl } from '../videosite-shared/links.js';
import { VideositeSearchChannel } from './types.js';

/** The channel URL as `videositeChannel(url:)` normalises it, so both share one lookup. */
export function channelUrl(value: unknown): string | null {
  const link = webUrl(typeof value === 'string' ? value.trim() : value);
  if (link === null) return null;
  const url = new URL(link);
  url.hash = '';
  return url.toString();
}

builder.objectField(VideositeSearchChannel, 'details', (t) =>
  t.field({
    type: VideositeChannel,
    nullable: true,
    description:
      'The whole channel (as `videositeChannel(url:)`), looked up by this channel\'s `link`: profile, About page, featured video and shelves. Channels repeated across results are one lookup. Null, with no lookup, when the result has no channel link.',
    extensions: linkCost(GET_VIDEOSITE_CHANNEL),
    resolve: (channel, _args, ctx) => {
      const url = channelUrl(channel.link);
      return url ? loadChannel(ctx, url) : null;
    },
  }),
);
