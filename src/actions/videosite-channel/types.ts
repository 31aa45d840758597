import { builder } from '../../schema/builder.js';
import { obj, objects } from '../../schema/read.js';
import { ADDITIONAL_FIELDS_DESCRIPTION, unmodelledKeys } from '../videosite-shared/extra.js';
import { firstOf, listArgs, listExtensions } from '../descriptor.js';
import { CHANNEL_LISTS, type ChannelSource } from './load.js';
import { VideositeChannelAbout, VideositeChannelProfile } from './types/profile.js';
import { VideositeChannelSearchParameters, VideositeSearchMetadata } from './types/search.js';
import { VideositeHighlightedVideo, VideositeVideoSection } from './types/videos.js';

const CHANNEL_KEYS = new Set([
  'about',
  'channel',
  'highlighted_video',
  'search_metadata',
  'search_parameters',
  'videos_sections',
]);

export const VideositeChannel = builder.objectRef<ChannelSource>('VideositeChannel').implement({
  description:
    'A channel of the video-sharing site: its profile, About page, featured video and video shelves (upstream action get_videosite_channel).',
  fields: (t) => ({
    requestedUrl: t.field({
      type: 'URL',
      nullable: false,
      description: 'The channel URL this lookup was made for, as normalised by the gateway.',
      resolve: (c) => c.requestedUrl,
    }),
    channel: t.field({
      type: VideositeChannelProfile,
      description: 'Identity and headline figures of the channel.',
      resolve: (c) => obj(c.raw.channel),
    }),
    about: t.field({
      type: VideositeChannelAbout,
      description: "The channel's About page.",
      resolve: (c) => obj(c.raw.about),
    }),
    highlightedVideo: t.field({
      type: VideositeHighlightedVideo,
      description: 'The video featured at the top of the channel page; null when there is none.',
      resolve: (c) => obj(c.raw.highlighted_video),
    }),
    videosSections: t.field({
      type: [VideositeVideoSection],
      nullable: false,
      description:
        'The shelves of videos on the channel page in page order, all of them unless `first` asks for fewer; empty when there are none.',
      args: { first: t.arg.int(listArgs(CHANNEL_LISTS.videosSections, 'shelves')) },
      extensions: listExtensions(CHANNEL_LISTS.videosSections),
      resolve: (c, args) => firstOf(objects(c.raw.videos_sections), args.first),
    }),
    searchMetadata: t.field({
      type: VideositeSearchMetadata,
      description: 'How the upstream fetched the page (job id, status, URLs, timings).',
      resolve: (c) => obj(c.raw.search_metadata),
    }),
    searchParameters: t.field({
      type: VideositeChannelSearchParameters,
      description: 'The parameters the upstream used for the lookup.',
      resolve: (c) => obj(c.raw.search_parameters),
    }),
    additionalFields: t.field({
      type: 'JSON',
      description: ADDITIONAL_FIELDS_DESCRIPTION,
      resolve: (c) => unmodelledKeys(c.raw, CHANNEL_KEYS),
    }),
  }),
});
