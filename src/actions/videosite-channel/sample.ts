import { sampleHex } from '../sample-identity.js';

/**
 * get_videosite_channel (contract 2.3). The requested URL comes back in `search_metadata.request_url`;
 * its "@handle" or "/channel/<id>" part becomes the channel's handle or id and
 * `search_parameters.channel_id` (a handle when the URL named one, as the live service does).
 */
export function videositeChannel(url: string): Record<string, unknown> {
  const { handle, channelId, reference } = channelOf(url);
  const title = titleOf(handle);
  return {
    about: {
      description: `${title} makes long-form documentaries about how everyday things are engineered.\n\nNew videos every other Friday.`,
      joined_date: '2012-02-20',
      joined_date_text: 'Joined Feb 20, 2012',
      links: [
        { link: 'instagram.com/sandboxstudio', title: 'Instagram' },
        { link: 'https://shop.sandboxstudio.example/', title: 'Merch' },
        { link: 'https://www.patreon.example/sandboxstudio', title: 'Patreon' },
      ],
      subscribers: 48_200_000,
      videos: 812,
      views: 14_250_067_113,
    },
    channel: {
      avatar: 'https://yt3.videosite-img.example/avatar/sandboxstudio=s176-c-k-c0x00ffffff-no-rj',
      banner: 'https://yt3.videosite-img.example/banner/sandboxstudio=w2560-fcrop64=1',
      description: `${title} makes long-form documentaries about how everyday things are engineered.`,
      first_link: 'instagram.com/sandboxstudio',
      handle,
      id: channelId,
      keywords: 'engineering documentary "how it works" science "behind the scenes"',
      title,
      is_family_safe: true,
      subscribers: 48_200_000,
      videos: 812,
      tags: ['Engineering', 'Documentary', 'Science'],
    },
    highlighted_video: {
      description: "We spent a year inside the world's largest container port. This is what we found.",
      id: 'hL9xPq2ZkTs',
      link: 'https://www.videosite.example/watch?v=hL9xPq2ZkTs',
      published_time: '2 months ago',
      title: 'Inside the Port That Moves the World',
      views: 14_000_000_000,
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
      {
        section_title: 'Videos',
        videos: [
          sectionVideo(1, 'qW3eR7tY1uI', 'How a Zipper Is Made', '4:05', '3 days ago', 1_284_331),
          sectionVideo(2, 'aS4dF8gH2jK', 'The Hidden Engineering of Escalators', '54:47', '2 weeks ago', 8_712_904),
          sectionVideo(3, 'zX5cV9bN3mQ', 'Building a Bridge in 24 Hours', '1:02:03', '1 month ago', 23_455_120),
        ],
      },
      {
        section_title: 'Popular videos',
        videos: [sectionVideo(1, 'hL9xPq2ZkTs', 'Inside the Port That Moves the World', '12:30', '2 months ago', 14_000_000_000)],
      },
    ],
  };
}

function sectionVideo(position: number, id: string, title: string, length: string, publishedTime: string, views: number) {
  return {
    id,
    length,
    link: `https://www.videosite.example/watch?v=${id}`,
    published_time: publishedTime,
    thumbnail: `https://i.videosite-img.example/vi/${id}/hqdefault.jpg`,
    title,
    position,
    views,
  };
}

function channelOf(url: string): { handle: string; channelId: string; reference: string } {
  let segments: string[] = [];
  try {
    segments = new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    segments = [];
  }
  const handle = segments.find((segment) => segment.startsWith('@') && segment.length > 1);
  const channelIndex = segments.indexOf('channel');
  const id = channelIndex >= 0 ? segments[channelIndex + 1] : undefined;
  const channelId = id ?? 'UCsandboxStudio0000000001';
  return { handle: handle ?? '@sandboxstudio', channelId, reference: handle ?? channelId };
}

function titleOf(handle: string): string {
  const words = handle
    .slice(1)
    .split(/[-_.]+/)
    .filter(Boolean);
  return words.length > 0 ? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ') : 'Sandbox Studio';
}
