import { builder } from '../../schema/builder.js';
import { bool, id, int, obj, objects, type Raw, str, strings } from '../../schema/read.js';
import { count } from '../videosite-shared/count.js';
import { addListedVideoFields, addThumbnailField } from '../videosite-shared/listed-video.js';
import { ADDITIONAL_FIELDS_DESCRIPTION, unmodelledKeys } from '../videosite-shared/extra.js';
import { webUrl } from '../videosite-shared/links.js';
import { VideoThumbnail, thumbnailOf } from '../videosite-shared/thumbnail.js';
import { VideositeVideo } from '../videosite-shared/video.js';
import { firstOf, listArgs, listExtensions } from '../descriptor.js';
import { SEARCH_LISTS, type VideoSearchSource } from './load.js';

const SEARCH_KEYS = new Set(['channels', 'search_information', 'search_parameters', 'shorts', 'suggestions', 'videos']);

/** A search result's channel; a link to the full channel lookup can be added from `link`. */
export const VideositeSearchChannel = builder.objectRef<Raw>('VideositeSearchChannel').implement({
  description: 'The channel that published a video in search results.',
  fields: (t) => ({
    channelId: t.id({
      description:
        "The channel identifier (upstream `id`). Was `id`: this gateway keeps `id` for node ids, and a search result's channel is not a node (see `details` for the channel itself).",
      resolve: (c) => id(c.id),
    }),
    title: t.string({ description: 'Channel name.', resolve: (c) => str(c.title) }),
    link: t.field({
      type: 'URL',
      description: 'URL of the channel; pass it to `videositeChannel(url:)` for the whole channel.',
      resolve: (c) => webUrl(c.link),
    }),
    thumbnail: t.field({
      type: VideoThumbnail,
      description: "The channel's profile image (the upstream sends a plain URL here).",
      resolve: (c) => thumbnailOf(c.thumbnail),
    }),
    isVerified: t.boolean({
      description: "Whether the channel carries the site's verified badge.",
      resolve: (c) => bool(c.is_verified),
    }),
    handle: t.string({
      description: 'The channel handle including the leading @, when the result gives it (entries of `channels`).',
      resolve: (c) => str(c.handle),
    }),
    description: t.string({
      description: 'Snippet of the channel description, when the result gives it (entries of `channels`).',
      resolve: (c) => str(c.description),
    }),
    subscriberCount: t.field({
      type: 'SafeInt',
      description: 'Number of subscribers (upstream `subscribers`), when the result gives it.',
      resolve: (c) => count(c.subscribers),
    }),
    videoCount: t.field({
      type: 'SafeInt',
      description: 'Number of public videos (upstream `videos`), when the result gives it.',
      resolve: (c) => count(c.videos),
    }),
  }),
});

export const VideositeSearchVideo = builder.objectRef<Raw>('VideositeSearchVideo').implement({
  description: 'A video in video search results.',
  interfaces: [VideositeVideo],
  fields: (t) => ({
    position: t.int({ description: 'Rank of the video in the results, from 1.', resolve: (v) => int(v.position) }),
    description: t.string({
      description: 'Snippet of the video description shown in the results.',
      resolve: (v) => str(v.description),
    }),
    badges: t.stringList({
      nullable: false,
      description: 'Badges shown on the result (e.g. "4K", "New", "CC"); empty when there are none.',
      resolve: (v) => strings(v.badges),
    }),
    channel: t.field({
      type: VideositeSearchChannel,
      description: 'The channel that published the video.',
      resolve: (v) => obj(v.channel),
    }),
  }),
});
addListedVideoFields(VideositeSearchVideo, {
  publishedExample: '2 months ago',
  thumbnail: 'Thumbnail images (the upstream sends a {static, rich} pair here).',
});

export const VideositeShort = builder.objectRef<Raw>('VideositeShort').implement({
  description: 'A short (vertical, under a minute or so) video in a shorts shelf of search results.',
  interfaces: [VideositeVideo],
  fields: (t) => ({
    position: t.int({ description: 'Position of the short in its shelf, from 1.', resolve: (s) => int(s.position) }),
  }),
});
addThumbnailField(VideositeShort, 'Thumbnail image (the upstream sends a plain URL here).');

const VideositeShortsSection = builder.objectRef<Raw>('VideositeShortsSection').implement({
  description: 'A shelf of shorts shown among video search results.',
  fields: (t) => ({
    title: t.string({
      description: 'Title of the shelf (upstream `section_title`, e.g. "Shorts").',
      resolve: (s) => str(s.section_title),
    }),
    position: t.int({
      description: 'Where the shelf sits among the results (upstream `position`).',
      resolve: (s) => int(s.position),
    }),
    items: t.field({
      type: [VideositeShort],
      nullable: false,
      description:
        'The shorts of the shelf in order, all of them unless `first` asks for fewer; empty when it shows none.',
      args: { first: t.arg.int(listArgs(SEARCH_LISTS.shortsItems, 'shorts')) },
      extensions: listExtensions(SEARCH_LISTS.shortsItems),
      resolve: (s, args) => firstOf(objects(s.items), args.first),
    }),
  }),
});

const VideositeSearchInformation = builder.objectRef<Raw>('VideositeSearchInformation').implement({
  description: 'Totals of a video search.',
  fields: (t) => ({
    totalResults: t.field({
      type: 'SafeInt',
      description: 'Number of results the site reports for the query (an estimate; may exceed 2^31).',
      resolve: (i) => count(i.total_results),
    }),
  }),
});

const VideositeSearchParameters = builder.objectRef<Raw>('VideositeSearchParameters').implement({
  description: 'The parameters the upstream used for a video search.',
  fields: (t) => ({
    query: t.string({ description: 'The search terms the upstream ran (upstream `q`).', resolve: (p) => str(p.q) }),
    engine: t.string({ description: 'The upstream engine that served the search.', resolve: (p) => str(p.engine) }),
    countryCode: t.string({
      description: 'Country the search ran for (upstream `gl`, e.g. "us").',
      resolve: (p) => str(p.gl),
    }),
    languageCode: t.string({
      description: 'Interface language of the search (upstream `hl`, e.g. "en").',
      resolve: (p) => str(p.hl),
    }),
  }),
});

export const VideositeSearch = builder.objectRef<VideoSearchSource>('VideositeSearch').implement({
  description: 'Results of a video search on the video-sharing site (upstream action run_videosite_search).',
  fields: (t) => ({
    query: t.string({
      nullable: false,
      description: 'The search terms this lookup was made for, trimmed and with runs of white space collapsed.',
      resolve: (s) => s.query,
    }),
    videos: t.field({
      type: [VideositeSearchVideo],
      nullable: false,
      description:
        'The matching videos of the result page in rank order, all of them unless `first` asks for fewer; empty when there are none.',
      args: { first: t.arg.int(listArgs(SEARCH_LISTS.videos, 'videos')) },
      extensions: listExtensions(SEARCH_LISTS.videos),
      resolve: (s, args) => firstOf(objects(s.raw.videos), args.first),
    }),
    channels: t.field({
      type: [VideositeSearchChannel],
      nullable: false,
      description:
        'The channels the results list on their own (upstream `channels`, sent for some queries), all of them unless `first` asks for fewer; empty when there are none.',
      args: { first: t.arg.int(listArgs(SEARCH_LISTS.channels, 'channels')) },
      extensions: listExtensions(SEARCH_LISTS.channels),
      resolve: (s, args) => firstOf(objects(s.raw.channels), args.first),
    }),
    shorts: t.field({
      type: [VideositeShortsSection],
      nullable: false,
      description:
        'The shelves of shorts shown among the results, all of them unless `first` asks for fewer; empty when there are none.',
      args: { first: t.arg.int(listArgs(SEARCH_LISTS.shorts, 'shelves')) },
      extensions: listExtensions(SEARCH_LISTS.shorts),
      resolve: (s, args) => firstOf(objects(s.raw.shorts), args.first),
    }),
    suggestions: t.stringList({
      nullable: false,
      description: 'Related searches the site suggests; empty when there are none.',
      resolve: (s) => strings(s.raw.suggestions),
    }),
    searchInformation: t.field({
      type: VideositeSearchInformation,
      description: 'Totals of the search.',
      resolve: (s) => obj(s.raw.search_information),
    }),
    searchParameters: t.field({
      type: VideositeSearchParameters,
      description: 'The parameters the upstream used.',
      resolve: (s) => obj(s.raw.search_parameters),
    }),
    additionalFields: t.field({
      type: 'JSON',
      description: ADDITIONAL_FIELDS_DESCRIPTION,
      resolve: (s) => unmodelledKeys(s.raw, SEARCH_KEYS),
    }),
  }),
});
