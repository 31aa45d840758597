import type { SandboxAnswer } from '../answer.js';
import { DETACHED_IMAGES, type SampleImages } from '../data/images.js';
import { seededInt, seededMagnitude, seededPick } from '../data/seeded.js';
import {
  channelVideoId,
  lengthText,
  relativeTime,
  SANDBOX_CHANNELS,
  type SandboxChannel,
  sandboxVideo,
  videoIdFor,
  videoIdOf,
} from './videosite-shared.js';

/**
 * run_videosite_search (contract 2.8). The query comes back in `search_parameters.q`, in the
 * descriptions and in the suggestions; the results are the sandbox's videos
 * (../videosite-shared/sample.ts) picked by the query (the first two match its words when a video's
 * title does), each with its own title, counts, date and
 * channel, so a result, its channel page and its transcript tell the same video. Thumbnails are
 * strings in shorts and {rich, static} objects in videos, as the live service sends them; the second
 * video has no animated preview. The first and third videos come from Sandbox Studio, the second from
 * another channel; the third is also on its channel's "Videos" shelf (as live, its link here carries a
 * tracking parameter), so one transcript can be reached from both.
 */
function videositeSearch(query: string, images: SampleImages = DETACHED_IMAGES): Record<string, unknown> {
  const q = query.trim();
  const seed = (what: string) => `search:${q.toLowerCase()}:${what}`;
  // As live, results share channels: the first and third come from the sandbox's main channel (the
  // third is on its shelf, so the examples can show one channel and one transcript reached two ways),
  // the second from another channel picked by the query.
  const [main, ...others] = SANDBOX_CHANNELS as [SandboxChannel, ...SandboxChannel[]];
  const other = seededPick(seed('other-channel'), others);
  const ids = [videoIdOf(main, seed('video1'), q), videoIdOf(other, seed('video2'), q), channelVideoId(main.handle, seededInt(seed('shelf'), 1, 3))];
  return {
    search_information: { total_results: seededMagnitude(seed('total'), 10_000, 4_000_000_000) },
    search_parameters: { engine: 'videosite', gl: 'us', hl: 'en', q },
    shorts: [
      {
        section_title: 'Shorts',
        position: 2,
        items: [1, 2].map((position) => short(position, videoIdFor(seed(`short${position}`)), images)),
      },
    ],
    suggestions: [`${q} explained`, `${q} for beginners`, `${q} documentary`],
    videos: ids.map((id, index) => {
      const video = sandboxVideo(id);
      const recent = relativeTime(video.publishedDate);
      return {
        id,
        link: `https://www.videosite.example/watch?v=${id}${index === 2 ? '&pp=ygUHc2FuZGJveA%3D%3D' : ''}`,
        title: video.title,
        description: `${video.question} Found for "${q}".`,
        length: lengthText(video.lengthSeconds),
        published_time: recent,
        position: index + 1,
        views: video.views,
        badges: /hour|day/.test(recent) ? ['New'] : video.lengthSeconds > 1_200 ? ['4K', 'CC'] : [],
        channel: channelOf(video.channel, images),
        thumbnail:
          index === 1
            ? { static: images.url('thumbnail', `videosite-${id}`) }
            : { rich: images.url('thumbnail', `videosite-${id}-preview`), static: images.url('thumbnail', `videosite-${id}`) },
      };
    }),
  };
}

function channelOf(channel: SandboxChannel, images: SampleImages) {
  return {
    id: channel.id,
    link: `https://www.videosite.example/${channel.handle}`,
    thumbnail: images.url('avatar', `videosite-${channel.handle.slice(1)}`),
    title: channel.title,
    is_verified: channel.isVerified,
  };
}

function short(position: number, id: string, images: SampleImages) {
  const video = sandboxVideo(id);
  return {
    id,
    link: `https://www.videosite.example/shorts/${id}`,
    thumbnail: images.url('thumbnail', `videosite-${id}`),
    title: video.title,
    position,
    views: video.views,
  };
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['query'],
  respond: (b, images) => ({ response: videositeSearch(String(b.query), images) }),
};
