/**
 * A video's transcript, on every video wherever it appears (search results, shorts, channel
 * sections, a channel's highlighted video), through this operation's transcript loader. The key is
 * the canonical watch URL, so one video reached from a search and from a channel is one call.
 */
import { builder } from '../../schema/builder.js';
import type { Raw } from '../../schema/read.js';
import { link } from '../descriptor.js';
import { videositeTranscriptAction } from '../videosite-transcript/load.js';
import { VideositeTranscript } from '../videosite-transcript/types.js';
import { canonicalVideoUrl } from './links.js';
import { VideositeVideo } from './video.js';

builder.interfaceField(VideositeVideo, 'transcript', (t) =>
  t.field({
    type: VideositeTranscript,
    description:
      'The transcript of this video (as `videositeTranscript(url:)`), looked up by its canonical watch URL (https://<host>/watch?v=<id>), so the same video reached twice in one operation is one lookup. Null, with no lookup, when the video has no link; null with NOT_FOUND when it has no transcript.',
    ...link(videositeTranscriptAction, (video: Raw) => canonicalVideoUrl(video.link)),
  }),
);
