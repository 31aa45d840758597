import { SandboxInputError } from '../sample-input-error.js';

export const NO_TRANSCRIPT_ERROR = "The requested page doesn't exist or there are no translations available for the video.";

/**
 * get_videosite_transcript (contract 2.4): `response` is the title, a newline, then the text; the
 * video id is read from the URL's `v` parameter or its last path segment. A URL containing
 * "no-transcript" gets the documented 400.
 */
export function videositeTranscript(url: string): { response: string; metadata: Record<string, unknown> } {
  if (url.includes('no-transcript')) throw new SandboxInputError(NO_TRANSCRIPT_ERROR);
  const videoId = videoIdOf(url);
  const title = 'How a Zipper Is Made';
  const text = [
    "Zippers are everywhere, and almost nobody knows how they're made.",
    'Today we are inside a factory that makes four million of them a day.',
    'It starts with a spool of brass wire, flattened and stamped into teeth.',
    'Each tooth is clamped onto a cotton tape at two thousand teeth a minute.',
  ].join(' ');
  return {
    response: `${title}\n${text}`,
    metadata: {
      author: 'Sandbox Studio',
      category: 'Science & Technology',
      channel_id: 'UCsandboxStudio0000000001',
      channel_link: 'https://www.videosite.example/channel/UCsandboxStudio0000000001',
      channel_name: 'Sandbox Studio',
      description: `How is a zipper made? We visit a factory that makes four million a day.\n\nVideo: ${url}`,
      id: videoId,
      published_time: '2026-11-17',
      thumbnail: `https://i.videosite-img.example/vi/${videoId}/maxresdefault.jpg`,
      title,
      key_moments: [
        { title: 'Brass wire', start_seconds: 0, thumbnail: `https://i.videosite-img.example/vi/${videoId}/km0.jpg` },
        { title: 'Stamping the teeth', start_seconds: 75, thumbnail: `https://i.videosite-img.example/vi/${videoId}/km1.jpg` },
      ],
      length_seconds: 245,
      likes: 51_230,
      views: 14_000_000_000,
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
