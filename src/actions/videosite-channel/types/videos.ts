import { builder } from '../../../schema/builder.js';
import { int, objects, text, type Raw } from '../../../schema/read.js';
import { parseDuration } from '../../videosite-shared/duration.js';
import { VideoThumbnail, thumbnailOf } from '../../videosite-shared/thumbnail.js';
import { VideositeVideo } from '../../videosite-shared/video.js';

export const VideositeHighlightedVideo = builder.objectRef<Raw>('VideositeHighlightedVideo').implement({
  description: 'The video a channel features at the top of its page (its trailer or a pinned video).',
  interfaces: [VideositeVideo],
  fields: (t) => ({
    description: t.string({ nullable: true, description: 'Description of the video.', resolve: (v) => text(v.description) }),
    publishedTime: t.string({ nullable: true, description: 'When the video was published, as relative display text (e.g. "2 months ago").', resolve: (v) => text(v.published_time) }),
  }),
});

export const VideositeSectionVideo = builder.objectRef<Raw>('VideositeSectionVideo').implement({
  description: 'A video listed in a section of a channel page.',
  interfaces: [VideositeVideo],
  fields: (t) => ({
    position: t.int({ nullable: true, description: 'Position of the video in its section, from 1.', resolve: (v) => int(v.position) }),
    length: t.string({ nullable: true, description: 'Length as display text: "m:ss", "mm:ss" or "h:mm:ss" (e.g. "54:47"); see `lengthSeconds`.', resolve: (v) => text(v.length) }),
    lengthSeconds: t.int({ nullable: true, description: 'Length in seconds, from `length`; null when `length` is missing or not a duration (e.g. a live stream).', resolve: (v) => parseDuration(v.length) }),
    publishedTime: t.string({ nullable: true, description: 'When the video was published, as relative display text (e.g. "3 weeks ago").', resolve: (v) => text(v.published_time) }),
    thumbnail: t.field({ type: VideoThumbnail, nullable: true, description: 'Thumbnail image (the upstream sends a plain URL here).', resolve: (v) => thumbnailOf(v.thumbnail) }),
  }),
});

export const VideositeVideoSection = builder.objectRef<Raw>('VideositeVideoSection').implement({
  description: 'A titled shelf of videos on a channel page (e.g. "Videos", "Popular videos").',
  fields: (t) => ({
    title: t.string({ nullable: true, description: 'Title of the section (upstream `section_title`).', resolve: (s) => text(s.section_title) }),
    videos: t.field({ type: [VideositeSectionVideo], description: 'Videos of the section in page order; empty when it shows none.', resolve: (s) => objects(s.videos) }),
  }),
});
