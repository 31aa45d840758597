/**
 * run_videosite_search (contract 2.8). The query comes back in `search_parameters.q`, in the titles
 * and in the suggestions. Thumbnails are strings in shorts and {rich, static} objects in videos,
 * as the live service sends them; one video has no animated preview.
 * The third video is also on the sandbox channel's "Videos" shelf (as live, its link here carries a
 * tracking parameter), so one transcript can be reached from both.
 */
/** The channel two of the search results come from (also the sandbox's channel page). */
const SANDBOX_STUDIO = {
  id: 'UCsandboxStudio0000000001',
  link: 'https://www.videosite.example/@sandboxstudio',
  thumbnail: 'https://yt3.videosite-img.example/avatar/sandboxstudio=s68-c-k',
  title: 'Sandbox Studio',
  is_verified: true,
};

export function videositeSearch(query: string): Record<string, unknown> {
  const q = query.trim();
  return {
    search_information: { total_results: 2_873_000_000 },
    search_parameters: { engine: 'videosite', gl: 'us', hl: 'en', q },
    shorts: [
      {
        section_title: 'Shorts',
        position: 2,
        items: [short(1, 'sH0rT1aBcDe', `${q} in 30 seconds`, 3_912_004), short(2, 'sH0rT2fGhIj', `The ${q} trick nobody tells you`, 14_000_000_000)],
      },
    ],
    suggestions: [`${q} explained`, `${q} for beginners`, `${q} documentary`],
    videos: [
      {
        id: 'vId0001aBcD',
        link: 'https://www.videosite.example/watch?v=vId0001aBcD',
        title: `${q}: the complete guide`,
        description: `Everything you need to know about ${q}, from the basics to the details experts argue about.`,
        length: '54:47',
        published_time: '2 months ago',
        position: 1,
        views: 14_000_000_000,
        badges: ['4K', 'CC'],
        channel: SANDBOX_STUDIO,
        thumbnail: {
          rich: 'https://i.videosite-img.example/an_webp/vId0001aBcD/mqdefault_6s.webp',
          static: 'https://i.videosite-img.example/vi/vId0001aBcD/hq720.jpg',
        },
      },
      {
        id: 'vId0002eFgH',
        link: 'https://www.videosite.example/watch?v=vId0002eFgH',
        title: `I tried ${q} for 30 days`,
        description: `A month-long experiment with ${q}. Chapters in the description.`,
        length: '1:02:03',
        published_time: '1 year ago',
        position: 2,
        views: 987_654,
        badges: [],
        channel: {
          id: 'UCsandboxVlogs00000000002',
          link: 'https://www.videosite.example/@sandboxvlogs',
          thumbnail: 'https://yt3.videosite-img.example/avatar/sandboxvlogs=s68-c-k',
          title: 'Sandbox Vlogs',
          is_verified: false,
        },
        thumbnail: { static: 'https://i.videosite-img.example/vi/vId0002eFgH/hq720.jpg' },
      },
      {
        id: 'qW3eR7tY1uI',
        link: 'https://www.videosite.example/watch?v=qW3eR7tY1uI&pp=ygUHc2FuZGJveA%3D%3D',
        title: `${q} in 4 minutes`,
        description: `The short version of ${q}.`,
        length: '4:05',
        published_time: '3 days ago',
        position: 3,
        views: 41_207,
        badges: ['New'],
        channel: SANDBOX_STUDIO,
        thumbnail: {
          rich: 'https://i.videosite-img.example/an_webp/qW3eR7tY1uI/mqdefault_6s.webp',
          static: 'https://i.videosite-img.example/vi/qW3eR7tY1uI/hq720.jpg',
        },
      },
    ],
  };
}

function short(position: number, id: string, title: string, views: number) {
  return {
    id,
    link: `https://www.videosite.example/shorts/${id}`,
    thumbnail: `https://i.videosite-img.example/vi/${id}/oardefault.jpg`,
    title,
    position,
    views,
  };
}
