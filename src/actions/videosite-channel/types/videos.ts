import { builder } from '../../../schema/builder.js';
import { int, obj, objects, type Raw, str, text } from '../../../schema/read.js';
import { linkUrl } from '../../videosite-shared/links.js';
import { addListedVideoFields, addPublishedTimeField } from '../../videosite-shared/listed-video.js';
import { VideositeVideo } from '../../videosite-shared/video.js';
import { firstOf, listArgs, listExtensions } from '../../descriptor.js';
import { CHANNEL_LISTS } from '../load.js';

export const VideositeHighlightedVideo = builder.objectRef<Raw>('VideositeHighlightedVideo').implement({
  description: 'The video a channel features at the top of its page (its trailer or a pinned video).',
  interfaces: [VideositeVideo],
  fields: (t) => ({
    description: t.string({ description: 'Description of the video.', resolve: (v) => str(v.description) }),
    externalLinks: t.field({
      type: [VideositeExternalLink],
      nullable: false,
      description:
        'Links shown with the featured video (upstream `external_links`, sent for some channels), each as an object or a plain URL; empty when there are none.',
      resolve: (v) => externalLinks(v.external_links),
    }),
  }),
});
addPublishedTimeField(VideositeHighlightedVideo, '2 months ago');

/** `external_links` entries arrive as `{title, link}`/`{title, url}` objects or as plain strings. */
function externalLinks(value: unknown): Raw[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): Raw[] => (typeof item === 'string' ? [{ link: item }] : obj(item) ? [obj(item)!] : []));
}

const VideositeExternalLink = builder.objectRef<Raw>('VideositeExternalLink').implement({
  description: "A link shown with a channel's featured video.",
  fields: (t) => ({
    title: t.string({ description: 'Label of the link, when given.', resolve: (l) => str(l.title) ?? text(l.text) }),
    link: t.string({
      description: 'The link exactly as the upstream wrote it (upstream `link` or `url`); may lack a scheme.',
      resolve: (l) => str(l.link) ?? text(l.url),
    }),
    url: t.field({
      type: 'URL',
      description: '`link` as an absolute URL (https added when it has no scheme); null when it is not a web address.',
      resolve: (l) => linkUrl(text(l.link) ?? text(l.url)),
    }),
  }),
});

export const VideositeSectionVideo = builder.objectRef<Raw>('VideositeSectionVideo').implement({
  description: 'A video listed in a section of a channel page.',
  interfaces: [VideositeVideo],
  fields: (t) => ({
    position: t.int({ description: 'Position of the video in its section, from 1.', resolve: (v) => int(v.position) }),
  }),
});
addListedVideoFields(VideositeSectionVideo, {
  publishedExample: '3 weeks ago',
  thumbnail: 'Thumbnail image (the upstream sends a plain URL here).',
});

export const VideositeVideoSection = builder.objectRef<Raw>('VideositeVideoSection').implement({
  description: 'A titled shelf of videos on a channel page (e.g. "Videos", "Popular videos").',
  fields: (t) => ({
    title: t.string({
      description: 'Title of the section (upstream `section_title`).',
      resolve: (s) => str(s.section_title),
    }),
    videos: t.field({
      type: [VideositeSectionVideo],
      nullable: false,
      description:
        'The videos of the section in page order, all of them unless `first` asks for fewer; empty when it shows none.',
      args: { first: t.arg.int(listArgs(CHANNEL_LISTS.sectionVideos, 'videos')) },
      extensions: listExtensions(CHANNEL_LISTS.sectionVideos),
      resolve: (s, args) => firstOf(objects(s.videos), args.first),
    }),
  }),
});
