import type { SandboxAnswer } from '../answer.js';
import { sampleBase64Url, sampleHex } from '../data/identity.js';
import { DETACHED_IMAGES, type SampleImages } from '../data/images.js';
import { seededDate, seededInt, seededMagnitude } from '../data/seeded.js';
import { channelVideoId, lengthText, relativeTime, SANDBOX_CHANNELS, sandboxVideo } from './videosite-shared.js';

/**
 * get_videosite_channel (contract 2.3). The requested URL comes back in `search_metadata.request_url`;
 * its "@handle" or "/channel/<id>" part becomes the channel's handle or id and
 * `search_parameters.channel_id` (a handle when the URL named one, as the live service does). The
 * title comes from the handle, the counts, dates, links and pictures are derived from it, and the
 * shelves list the sandbox's videos (../videosite-shared/sample.ts) as their transcripts tell them.
 */
function videositeChannel(url: string, images: SampleImages = DETACHED_IMAGES): Record<string, unknown> {
  const { handle, channelId, reference } = channelOf(url);
  const title = titleOf(handle);
  const slug =
    handle
      .slice(1)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '') || 'channel';
  const seed = (what: string) => `channel:${handle.toLowerCase()}:${what}`;
  const subscribers = seededMagnitude(seed('subscribers'), 200, 90_000_000);
  const videoCount = seededInt(seed('videos'), 12, 2_400);
  const joined = seededDate(seed('joined'), '2006-01-01', '2022-12-31');
  const links = [
    { link: `instagram.com/${slug}`, title: 'Instagram' },
    { link: `https://shop.${slug}.example/`, title: 'Merch' },
    { link: `https://www.patreon.example/${slug}`, title: 'Patreon' },
  ];
  const highlighted = sandboxVideo(channelVideoId(handle, 0));
  return {
    about: {
      description: `${title} makes long-form documentaries about how everyday things are engineered.\n\nNew videos every other Friday.`,
      joined_date: joined,
      joined_date_text: `Joined ${new Date(`${joined}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}`,
      links,
      subscribers,
      videos: videoCount,
      views: subscribers * seededInt(seed('views'), 30, 400),
    },
    channel: {
      avatar: images.url('avatar', `videosite-${slug}`),
      banner: images.url('banner', `videosite-${slug}`),
      description: `${title} makes long-form documentaries about how everyday things are engineered.`,
      first_link: links[0]!.link,
      handle,
      id: channelId,
      keywords: 'engineering documentary "how it works" science "behind the scenes"',
      title,
      is_family_safe: true,
      subscribers,
      videos: videoCount,
      tags: ['Engineering', 'Documentary', 'Science'],
    },
    highlighted_video: {
      description: highlighted.question,
      id: highlighted.id,
      link: `https://www.videosite.example/watch?v=${highlighted.id}`,
      published_time: relativeTime(highlighted.publishedDate),
      title: highlighted.title,
      views: highlighted.views,
    },
    search_metadata: {
      created_at: '2026-11-20T14:03:27Z',
      html_url: 'https://serp.upstream.example/searches/6f1c2b7e0a/channel.html',
      id: sampleHex(`channel-fetch:${url}`, 24),
      json_url: 'https://serp.upstream.example/searches/6f1c2b7e0a/channel.json',
      request_url: url,
      status: 'Success',
      parsing_time_taken: 0.41,
      request_time_taken: 1.87,
      total_time_taken: 2.28,
    },
    search_parameters: { channel_id: reference, engine: 'videosite_channel', gl: 'us', hl: 'en' },
    videos_sections: [
      { section_title: 'Videos', videos: [1, 2, 3].map((n) => sectionVideo(n, channelVideoId(handle, n), images)) },
      { section_title: 'Popular videos', videos: [sectionVideo(1, highlighted.id, images)] },
    ],
  };
}

function sectionVideo(position: number, id: string, images: SampleImages) {
  const video = sandboxVideo(id);
  return {
    id,
    length: lengthText(video.lengthSeconds),
    link: `https://www.videosite.example/watch?v=${id}`,
    published_time: relativeTime(video.publishedDate),
    thumbnail: images.url('thumbnail', `videosite-${id}`),
    title: video.title,
    position,
    views: video.views,
  };
}

/** The handle and id a channel URL names; a URL naming only an id gets a handle made from it, and the other way round. */
function channelOf(url: string): { handle: string; channelId: string; reference: string } {
  let segments: string[] = [];
  try {
    segments = new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    segments = [];
  }
  const named = segments.find((segment) => segment.startsWith('@') && segment.length > 1);
  const channelIndex = segments.indexOf('channel');
  const id = channelIndex >= 0 ? segments[channelIndex + 1] : undefined;
  const known = SANDBOX_CHANNELS.find((channel) => channel.handle === named?.toLowerCase() || channel.id === id);
  const handle = named ?? known?.handle ?? (id ? `@channel-${id.slice(-6).toLowerCase()}` : '@sandboxstudio');
  const channelId = id ?? known?.id ?? `UC${sampleBase64Url(`channel-id:${handle.toLowerCase()}`, 22)}`;
  return { handle, channelId, reference: named ?? channelId };
}

function titleOf(handle: string): string {
  const known = SANDBOX_CHANNELS.find((channel) => channel.handle === handle.toLowerCase());
  if (known) return known.title;
  const words = handle
    .slice(1)
    .split(/[-_.]+/)
    .filter(Boolean);
  return words.length > 0 ? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ') : 'Sandbox Studio';
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['url'],
  respond: (b, images) => ({ response: videositeChannel(String(b.url), images) }),
};
