import type { ObjectRef } from '@pothos/core';
import { type BuilderTypes, builder } from '../../schema/builder.js';
import { type Raw, str } from '../../schema/read.js';
import { parseDuration } from './duration.js';
import { VideoThumbnail, thumbnailOf } from './thumbnail.js';

/**
 * Video fields that some kinds of video have and others lack, so not on the VideositeVideo
 * interface: each is defined once here and added to the types that have it.
 */
type VideoRef = ObjectRef<BuilderTypes, Raw>;

/** `length` and `lengthSeconds`. */
function addLengthFields(ref: VideoRef): void {
  builder.objectFields(ref, (t) => ({
    length: t.string({
      description: 'Length as display text: "m:ss", "mm:ss" or "h:mm:ss" (e.g. "54:47"); see `lengthSeconds`.',
      resolve: (v) => str(v.length),
    }),
    lengthSeconds: t.int({
      description:
        'Length in seconds, from `length`; null when `length` is missing or not a duration (e.g. a live stream).',
      resolve: (v) => parseDuration(v.length),
    }),
  }));
}

/** `publishedTime`; `example` is relative display text the upstream sends there, e.g. "3 weeks ago". */
export function addPublishedTimeField(ref: VideoRef, example: string): void {
  builder.objectFields(ref, (t) => ({
    publishedTime: t.string({
      description: `When the video was published, as relative display text (e.g. "${example}").`,
      resolve: (v) => str(v.published_time),
    }),
  }));
}

/** `thumbnail`; `description` names the form the upstream sends there (a plain URL or a {static, rich} pair). */
export function addThumbnailField(ref: VideoRef, description: string): void {
  builder.objectFields(ref, (t) => ({
    thumbnail: t.field({ type: VideoThumbnail, description, resolve: (v) => thumbnailOf(v.thumbnail) }),
  }));
}

/** The texts that differ between the places a video is listed (a channel section, search results). */
export interface ListedVideoTexts {
  publishedExample: string;
  thumbnail: string;
}

/** `length`, `lengthSeconds`, `publishedTime` and `thumbnail` of a video listed in a channel section or in search results. */
export function addListedVideoFields(ref: VideoRef, texts: ListedVideoTexts): void {
  addLengthFields(ref);
  addPublishedTimeField(ref, texts.publishedExample);
  addThumbnailField(ref, texts.thumbnail);
}
