import { builder } from '../../schema/builder.js';
import { id, list, type Raw, str, text } from '../../schema/read.js';
import { count } from '../videosite-shared/count.js';
import { formatDuration } from '../videosite-shared/duration.js';
import { webUrl } from '../videosite-shared/links.js';
import { VideoThumbnail, thumbnailOf } from '../videosite-shared/thumbnail.js';
import { publishedDate, splitTranscript } from './derive.js';
import type { TranscriptSource } from './load.js';

export const VideositeTranscriptVideo = builder.objectRef<Raw>('VideositeTranscriptVideo').implement({
  description: 'Details of the video a transcript belongs to (upstream `metadata`).',
  fields: (t) => ({
    videoId: t.id({
      description: "The site's video identifier (upstream `id`). Was `id`, which is now the gateway's node id.",
      resolve: (m) => id(m.id),
    }),
    title: t.string({ description: 'Title of the video.', resolve: (m) => str(m.title) }),
    description: t.string({ description: 'Description of the video.', resolve: (m) => str(m.description) }),
    author: t.string({
      description: 'Author of the video as the site names it (usually the channel name).',
      resolve: (m) => str(m.author),
    }),
    category: t.string({ description: 'Category of the video (e.g. "Music").', resolve: (m) => str(m.category) }),
    channelId: t.id({
      description: 'Identifier of the channel that published the video.',
      resolve: (m) => id(m.channel_id),
    }),
    channelName: t.string({
      description: 'Name of the channel that published the video.',
      resolve: (m) => str(m.channel_name),
    }),
    channelLink: t.field({
      type: 'URL',
      description: 'URL of the channel that published the video; pass it to `videositeChannel(url:)` for the channel.',
      resolve: (m) => webUrl(m.channel_link),
    }),
    publishedTime: t.string({
      description:
        'When the video was published, as the upstream wrote it (upstream `published_time`, a date as text).',
      resolve: (m) => str(m.published_time),
    }),
    publishedDate: t.field({
      type: 'Date',
      description:
        'The publish date from `publishedTime`, which may be "2024-03-26", a timestamp, or "Mar 26, 2024"; null when it is none of these (`publishedTime` keeps the text).',
      resolve: (m) => publishedDate(m.published_time),
    }),
    thumbnail: t.field({
      type: VideoThumbnail,
      description: 'Thumbnail image of the video.',
      resolve: (m) => thumbnailOf(m.thumbnail),
    }),
    keyMoments: t.field({
      type: ['JSON'],
      nullable: false,
      description:
        'Key moments (chapters) of the video exactly as the upstream sends them; their shape is not documented. Empty when there are none.',
      resolve: (m) => list(m.key_moments).filter((moment) => moment !== null && moment !== undefined),
    }),
    lengthSeconds: t.int({
      description: 'Length of the video in seconds (upstream `length_seconds`).',
      resolve: (m) => count(m.length_seconds),
    }),
    length: t.string({
      description: 'Length as display text from `lengthSeconds`: "m:ss" below an hour, "h:mm:ss" from an hour up.',
      resolve: (m) => formatDuration(count(m.length_seconds)),
    }),
    likeCount: t.field({
      type: 'SafeInt',
      description: 'Number of likes (upstream `likes`).',
      resolve: (m) => count(m.likes),
    }),
    viewCount: t.field({
      type: 'SafeInt',
      description: 'Number of views (upstream `views`); popular videos exceed 2^31, hence SafeInt.',
      resolve: (m) => count(m.views),
    }),
  }),
});

export const VideositeTranscript = builder.objectRef<TranscriptSource>('VideositeTranscript').implement({
  description: 'The transcript of one video and details of the video (upstream action get_videosite_transcript).',
  fields: (t) => ({
    requestedUrl: t.field({
      type: 'URL',
      nullable: false,
      description: 'The video URL this lookup was made for, as normalised by the gateway.',
      resolve: (s) => s.requestedUrl,
    }),
    title: t.string({
      description:
        'Title of the video: the first line of the upstream response, or `video.title` when that line is empty.',
      resolve: (s) => splitTranscript(s.response).title ?? text(s.metadata?.title),
    }),
    text: t.string({
      nullable: false,
      description:
        'The transcript text: everything after the first line of the upstream response, trimmed. The empty string when the video has no transcript text.',
      resolve: (s) => splitTranscript(s.response).text,
    }),
    raw: t.string({
      nullable: false,
      description: 'The upstream `response` exactly as sent: the title, a newline, then the transcript text.',
      resolve: (s) => s.response,
    }),
    video: t.field({
      type: VideositeTranscriptVideo,
      description: 'Details of the video (upstream `metadata`); null when the upstream sent none.',
      resolve: (s) => s.metadata,
    }),
  }),
});
