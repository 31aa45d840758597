import { builder } from '../../schema/builder.js';
import { requireVideoUrl } from '../videosite-shared/links.js';
import { loadTranscript, videositeTranscriptAction } from './load.js';
import { VideositeTranscript } from './types.js';

builder.queryField(videositeTranscriptAction.rootField, (t) =>
  t.field({
    type: VideositeTranscript,
    description:
      "The transcript of a video and details of the video, by the video's URL (upstream action get_videosite_transcript). Null with a NOT_FOUND error when the video does not exist or has no transcript. One upstream call per distinct video per operation: the URL is looked up as its canonical watch URL, the same key the `transcript` links on videos use.",
    args: {
      url: t.arg.string({
        required: true,
        description:
          'The video\'s URL, e.g. "https://www.videosite.example/watch?v=dQw4w9WgXcQ", with or without the scheme; short links ("youtu.be/<id>?si=..."), /shorts/, /embed/, /live/, mobile and bare-host forms, tracking parameters and a bare 11-character video id name the same video, looked up as https://www.<host>/watch?v=<id>; the path of a short link names the video (a `v` parameter beside it does not). Links are accepted on youtube.com, youtu.be and videosite.example (with their subdomains) only: any other host is BAD_USER_INPUT before any upstream call.',
      }),
    },
    // The canonical watch URL, as the video links use, so a root lookup and a link to the same video share one call.
    resolve: (_root, args, ctx) => loadTranscript(ctx, requireVideoUrl('url', args.url)),
  }),
);
