/**
 * A video's transcript, on every video wherever it appears (search results, shorts, channel
 * sections, a channel's highlighted video), through this operation's transcript loader. The key is
 * the canonical watch URL, so one video reached from a search and from a channel is one call.
 */
import { builder } from '../../schema/builder.js';
import { linkCost } from '../../cost/model.js';
import { GET_VIDEOSITE_TRANSCRIPT, loadTranscript } from '../videosite-transcript/load.js';
import { VideositeTranscript } from '../videosite-transcript/types.js';
import { webUrl } from './links.js';
import { VideositeVideo } from './video.js';

const VIDEO_ID = /^[A-Za-z0-9_-]{6,64}$/;
const ID_IN_PATH = /^\/(?:shorts|embed|live|v)\/([^/]+)\/?$/;

/**
 * The canonical watch URL of a video link: `https://<host>/watch?v=<id>`, whatever form the link
 * takes (`/watch?v=<id>&pp=...`, `/shorts/<id>`, `/embed/<id>`, `/live/<id>`, http, "m." host,
 * a fragment). The host is lower-cased and a mobile "m." host becomes "www.". A link with no
 * recognisable video id is kept as it is, without its fragment. Null when it is not an http(s) URL.
 */
export function canonicalVideoUrl(value: unknown): string | null {
  const link = webUrl(typeof value === 'string' ? value.trim() : value);
  if (link === null) return null;
  const url = new URL(link);
  let host = url.host.toLowerCase();
  if (host.startsWith('m.')) host = `www.${host.slice(2)}`;
  const id = url.searchParams.get('v') ?? ID_IN_PATH.exec(url.pathname)?.[1] ?? null;
  if (id !== null && VIDEO_ID.test(id)) return `https://${host}/watch?v=${id}`;
  url.hash = '';
  return url.toString();
}

builder.interfaceField(VideositeVideo, 'transcript', (t) =>
  t.field({
    type: VideositeTranscript,
    nullable: true,
    description:
      'The transcript of this video (as `videositeTranscript(url:)`), looked up by its canonical watch URL (https://<host>/watch?v=<id>), so the same video reached twice in one operation is one lookup. Null, with no lookup, when the video has no link; null with NOT_FOUND when it has no transcript.',
    extensions: linkCost(GET_VIDEOSITE_TRANSCRIPT),
    resolve: (video, _args, ctx) => {
      const url = canonicalVideoUrl(video.link);
      return url ? loadTranscript(ctx, url) : null;
    },
  }),
);
