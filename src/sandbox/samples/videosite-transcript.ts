import type { SandboxAnswer } from '../answer.js';
import { DETACHED_IMAGES, type SampleImages } from '../data/images.js';
import { SandboxInputError } from '../input-error.js';
import { sandboxVideo } from './videosite-shared.js';

const NO_TRANSCRIPT_ERROR = "The requested page doesn't exist or there are no translations available for the video.";

/**
 * get_videosite_transcript (contract 2.4): `response` is the title, a newline, then the text; the
 * video id is read from the URL's `v` parameter or its last path segment, and the video (title,
 * text, channel, counts, date) is the sandbox's video of that id (../videosite-shared/sample.ts), as
 * search results and channel pages show it. A URL containing "no-transcript" gets the documented 400.
 */
function videositeTranscript(url: string, images: SampleImages = DETACHED_IMAGES): { response: string; metadata: Record<string, unknown> } {
  if (url.includes('no-transcript')) throw new SandboxInputError(NO_TRANSCRIPT_ERROR);
  const video = sandboxVideo(videoIdOf(url));
  const { channel } = video;
  return {
    response: `${video.title}\n${video.lines.join(' ')}`,
    metadata: {
      author: channel.title,
      category: 'Science & Technology',
      channel_id: channel.id,
      channel_link: `https://www.videosite.example/channel/${channel.id}`,
      channel_name: channel.title,
      description: `${video.question}\n\nVideo: ${url}`,
      id: video.id,
      published_time: video.publishedDate,
      thumbnail: images.url('thumbnail', `videosite-${video.id}`),
      title: video.title,
      key_moments: video.moments.map((title, index) => ({
        title,
        start_seconds: Math.round((video.lengthSeconds * index) / 3),
        thumbnail: images.url('thumbnail', `videosite-${video.id}-moment-${index}`),
      })),
      length_seconds: video.lengthSeconds,
      likes: video.likes,
      views: video.views,
    },
  };
}

function videoIdOf(url: string): string {
  try {
    const parsed = new URL(url);
    const fromQuery = parsed.searchParams.get('v');
    if (fromQuery) return fromQuery;
    const last = parsed.pathname.split('/').filter(Boolean).pop();
    if (last) return decodeURIComponent(last);
  } catch {
    // not a URL: fall through to the default id
  }
  return 'qW3eR7tY1uI';
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = { required: ['url'], respond: (b, images) => videositeTranscript(String(b.url), images) };
