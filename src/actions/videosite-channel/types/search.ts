import { builder } from '../../../schema/builder.js';
import { float, type Raw, str, text } from '../../../schema/read.js';
import { webUrl } from '../../videosite-shared/links.js';
import { handleOf, timestamp } from '../derive.js';

export const VideositeSearchMetadata = builder.objectRef<Raw>('VideositeSearchMetadata').implement({
  description: 'How the upstream fetched the channel page: its own job id, status, URLs and timings.',
  fields: (t) => ({
    fetchId: t.id({
      description:
        "The upstream's identifier of this fetch (upstream `id`). Was `id`: this gateway keeps `id` for node ids.",
      resolve: (m) => text(m.id),
    }),
    status: t.string({
      description: 'The upstream\'s status of the fetch, as it wrote it (e.g. "Success").',
      resolve: (m) => str(m.status),
    }),
    createdAt: t.field({
      type: 'DateTime',
      description:
        'When the fetch was made (upstream `created_at`); null when that is not a readable timestamp (see `createdAtText`).',
      resolve: (m) => timestamp(m.created_at),
    }),
    createdAtText: t.string({
      description: 'The upstream `created_at` exactly as written.',
      resolve: (m) => str(m.created_at),
    }),
    htmlUrl: t.field({
      type: 'URL',
      description: 'URL of the page as fetched, in HTML (upstream `html_url`).',
      resolve: (m) => webUrl(m.html_url),
    }),
    jsonUrl: t.field({
      type: 'URL',
      description: "URL of the upstream's own JSON result (upstream `json_url`).",
      resolve: (m) => webUrl(m.json_url),
    }),
    requestUrl: t.field({
      type: 'URL',
      description: 'The channel URL the upstream fetched (upstream `request_url`).',
      resolve: (m) => webUrl(m.request_url),
    }),
    parsingTimeTaken: t.float({
      description: 'Seconds the upstream spent parsing the page.',
      resolve: (m) => float(m.parsing_time_taken),
    }),
    requestTimeTaken: t.float({
      description: 'Seconds the upstream spent fetching the page.',
      resolve: (m) => float(m.request_time_taken),
    }),
    totalTimeTaken: t.float({
      description: 'Seconds the upstream spent in all.',
      resolve: (m) => float(m.total_time_taken),
    }),
  }),
});

export const VideositeChannelSearchParameters = builder.objectRef<Raw>('VideositeChannelSearchParameters').implement({
  description: 'The parameters the upstream used to fetch the channel page.',
  fields: (t) => ({
    channelId: t.string({
      description:
        'The channel reference the upstream used (upstream `channel_id`): a channel id, or a handle such as "@name".',
      resolve: (p) => str(p.channel_id),
    }),
    channelHandle: t.string({
      description: '`channelId` when it is a handle ("@name"); null when it is an id.',
      resolve: (p) => handleOf(p.channel_id),
    }),
    engine: t.string({ description: 'The upstream engine that served the lookup.', resolve: (p) => str(p.engine) }),
    countryCode: t.string({
      description: 'Country the page was fetched for (upstream `gl`, e.g. "us").',
      resolve: (p) => str(p.gl),
    }),
    languageCode: t.string({
      description: 'Interface language the page was fetched in (upstream `hl`, e.g. "en").',
      resolve: (p) => str(p.hl),
    }),
  }),
});
