import { builder } from '../../schema/builder.js';
import { requireHttpUrl } from '../validate.js';
import { loadTranscript } from './load.js';
import { VideositeTranscript } from './types.js';

builder.queryField('videositeTranscript', (t) =>
  t.field({
    type: VideositeTranscript,
    nullable: true,
    description:
      'The transcript of a video and details of the video, by the video\'s URL (upstream action get_videosite_transcript). Null with a NOT_FOUND error when the video does not exist or has no transcript. One upstream call per distinct URL per operation.',
    args: {
      url: t.arg.string({ required: true, description: 'Absolute http(s) URL of the video\'s watch page, e.g. "https://www.videosite.example/watch?v=dQw4w9WgXcQ".' }),
    },
    resolve: (_root, args, ctx) => loadTranscript(ctx, requireHttpUrl('url', args.url)),
  }),
);
