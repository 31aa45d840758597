import { builder } from '../../schema/builder.js';
import { id, type Raw, str } from '../../schema/read.js';
import { count } from './count.js';
import { webUrl } from './links.js';

/**
 * What every video on the video site has, wherever it appears (channel sections, a channel's
 * highlighted video, search results, shorts). Fields that link a video to other lookups (e.g. its
 * transcript) can be added here once, with builder.interfaceField, from `link` or `id`.
 */
export const VideositeVideo = builder.interfaceRef<Raw>('VideositeVideo').implement({
  description: 'A video on the video-sharing site, as it appears in a channel page, a search result or a shorts shelf.',
  fields: (t) => ({
    videoId: t.id({
      description:
        'The site\'s video identifier (e.g. "dQw4w9WgXcQ"; upstream `id`). Was `id`, which is now the gateway\'s node id.',
      resolve: (v) => id(v.id),
    }),
    link: t.field({
      type: 'URL',
      description: 'Watch page URL of the video; pass it to `videositeTranscript(url:)` for its transcript.',
      resolve: (v) => videoLink(v),
    }),
    title: t.string({ description: 'Title of the video.', resolve: (v) => str(v.title) }),
    viewCount: t.field({
      type: 'SafeInt',
      description: 'Number of views (upstream `views`); popular videos exceed 2^31, hence SafeInt.',
      resolve: (v) => count(v.views),
    }),
  }),
});

/** The watch-page URL of a video object, for fields that link a video to other lookups. */
function videoLink(video: Raw): string | null {
  return webUrl(video.link);
}
