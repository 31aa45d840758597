import { builder } from '../../../schema/builder.js';
import { bool, date, id, objects, type Raw, str, strings } from '../../../schema/read.js';
import { ADDITIONAL_FIELDS_DESCRIPTION, unmodelledKeys } from '../../videosite-shared/extra.js';
import { count } from '../../videosite-shared/count.js';
import { linkUrl, webUrl } from '../../videosite-shared/links.js';
import { splitKeywords } from '../derive.js';

const PROFILE_KEYS = new Set([
  'avatar',
  'banner',
  'description',
  'first_link',
  'handle',
  'id',
  'keywords',
  'title',
  'is_family_safe',
  'subscribers',
  'videos',
  'tags',
]);
const ABOUT_KEYS = new Set([
  'description',
  'joined_date',
  'joined_date_text',
  'links',
  'subscribers',
  'videos',
  'views',
]);

const VideositeChannelLink = builder.objectRef<Raw>('VideositeChannelLink').implement({
  description: 'A link the channel lists on its About page.',
  fields: (t) => ({
    title: t.string({
      description: 'Label of the link as the channel wrote it (e.g. "Instagram").',
      resolve: (l) => str(l.title),
    }),
    link: t.string({
      description: 'The link exactly as the upstream wrote it; often without a scheme (e.g. "instagram.com/name").',
      resolve: (l) => str(l.link),
    }),
    url: t.field({
      type: 'URL',
      description:
        'The link as an absolute URL: `link` with https added when it has no scheme; null when it is not a web address.',
      resolve: (l) => linkUrl(l.link),
    }),
  }),
});

export const VideositeChannelAbout = builder.objectRef<Raw>('VideositeChannelAbout').implement({
  description: 'The About page of a channel: its description, join date, listed links and lifetime totals.',
  fields: (t) => ({
    description: t.string({
      description: 'The channel description on its About page.',
      resolve: (a) => str(a.description),
    }),
    joinedDate: t.field({
      type: 'Date',
      description: 'The date the channel was created (upstream `joined_date`).',
      resolve: (a) => date(a.joined_date),
    }),
    joinedDateText: t.string({
      description: 'The join date as the site displays it (e.g. "Joined Feb 20, 2012").',
      resolve: (a) => str(a.joined_date_text),
    }),
    links: t.field({
      type: [VideositeChannelLink],
      nullable: false,
      description: 'Links the channel lists; empty when it lists none.',
      resolve: (a) => objects(a.links),
    }),
    subscriberCount: t.field({
      type: 'SafeInt',
      description: 'Number of subscribers (upstream `subscribers`).',
      resolve: (a) => count(a.subscribers),
    }),
    videoCount: t.field({
      type: 'SafeInt',
      description: 'Number of public videos (upstream `videos`).',
      resolve: (a) => count(a.videos),
    }),
    viewCount: t.field({
      type: 'SafeInt',
      description: "Lifetime views of all the channel's videos (upstream `views`); often beyond 2^31.",
      resolve: (a) => count(a.views),
    }),
    additionalFields: t.field({
      type: 'JSON',
      description: ADDITIONAL_FIELDS_DESCRIPTION,
      resolve: (a) => unmodelledKeys(a, ABOUT_KEYS),
    }),
  }),
});

export const VideositeChannelProfile = builder.objectRef<Raw>('VideositeChannelProfile').implement({
  description: 'Identity and headline figures of a channel, as shown in its page header.',
  fields: (t) => ({
    channelId: t.id({
      description:
        'The channel identifier (e.g. "UCX6OQ3DkcsbYNE6H8uQQuVA"; upstream `id`). Was `id`: this gateway keeps `id` for node ids (the channel\'s is `VideositeChannel.id`).',
      resolve: (c) => id(c.id),
    }),
    title: t.string({ description: 'Channel name.', resolve: (c) => str(c.title) }),
    handle: t.string({
      description: 'The channel handle including the leading @ (e.g. "@name").',
      resolve: (c) => str(c.handle),
    }),
    description: t.string({ description: 'Channel description.', resolve: (c) => str(c.description) }),
    avatarUrl: t.field({ type: 'URL', description: 'Profile image URL.', resolve: (c) => webUrl(c.avatar) }),
    bannerUrl: t.field({
      type: 'URL',
      description: 'Banner image URL shown above the channel.',
      resolve: (c) => webUrl(c.banner),
    }),
    firstLink: t.string({
      description:
        'The first link of the channel header as the upstream wrote it (upstream `first_link`), often without a scheme.',
      resolve: (c) => str(c.first_link),
    }),
    firstLinkUrl: t.field({
      type: 'URL',
      description:
        '`firstLink` as an absolute URL (https added when it has no scheme); null when it is not a web address.',
      resolve: (c) => linkUrl(c.first_link),
    }),
    keywords: t.string({
      description: 'The channel keywords as the one string the upstream sends; see `keywordList` for them split.',
      resolve: (c) => str(c.keywords),
    }),
    keywordList: t.stringList({
      nullable: false,
      description:
        'The channel keywords split into a list: multi-word keywords in double quotes stay whole, duplicates are dropped. Empty when there are none.',
      resolve: (c) => splitKeywords(c.keywords),
    }),
    tags: t.stringList({
      nullable: false,
      description: 'Tags of the channel; empty when there are none.',
      resolve: (c) => strings(c.tags),
    }),
    isFamilySafe: t.boolean({
      description: 'Whether the site rates the channel family-safe (upstream `is_family_safe`).',
      resolve: (c) => bool(c.is_family_safe),
    }),
    subscriberCount: t.field({
      type: 'SafeInt',
      description: 'Number of subscribers (upstream `subscribers`).',
      resolve: (c) => count(c.subscribers),
    }),
    videoCount: t.field({
      type: 'SafeInt',
      description: 'Number of public videos (upstream `videos`).',
      resolve: (c) => count(c.videos),
    }),
    additionalFields: t.field({
      type: 'JSON',
      description: ADDITIONAL_FIELDS_DESCRIPTION,
      resolve: (c) => unmodelledKeys(c, PROFILE_KEYS),
    }),
  }),
});
