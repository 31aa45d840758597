import { builder } from '../../schema/builder.js';
import { requireHttpUrl } from '../validate.js';
import { loadChannel } from './load.js';
import { VideositeChannel } from './types.js';

builder.queryField('videositeChannel', (t) =>
  t.field({
    type: VideositeChannel,
    nullable: true,
    description: 'A channel of the video-sharing site by its URL (upstream action get_videosite_channel). One upstream call per distinct URL per operation.',
    args: {
      url: t.arg.string({ required: true, description: 'Absolute http(s) URL of the channel, e.g. "https://www.videosite.example/@name" or ".../channel/UC...".' }),
    },
    resolve: (_root, args, ctx) => loadChannel(ctx, requireHttpUrl('url', args.url)),
  }),
);
