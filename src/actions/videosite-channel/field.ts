import { builder } from '../../schema/builder.js';
import { requireChannelUrl } from '../videosite-shared/links.js';
import { loadChannel, videositeChannelAction } from './load.js';
import { VideositeChannel } from './types.js';

builder.queryField(videositeChannelAction.rootField, (t) =>
  t.field({
    type: VideositeChannel,
    description:
      'A channel of the video-sharing site by its URL (upstream action get_videosite_channel). The URL is looked up in its canonical form (see `url`), so every way of writing one channel is one upstream call per operation, shared with the `details` links of search results.',
    args: {
      url: t.arg.string({
        required: true,
        description:
          'The channel: "@name", a channel id "UC...", or its URL with or without the scheme ("https://www.videosite.example/@name", "videosite.example/@name/videos", "m.videosite.example/channel/UC...", ".../c/name", ".../user/name"). Sub-pages, tracking parameters and an "m." or bare host are reduced to the canonical https://www.<host>/@name (handle lower-cased); a bare handle or id is on the site\'s main host. URLs are accepted on youtube.com, youtu.be and videosite.example (with their subdomains) only: any other host is BAD_USER_INPUT before any upstream call.',
      }),
    },
    resolve: (_root, args, ctx) => loadChannel(ctx, requireChannelUrl('url', args.url)),
  }),
);
