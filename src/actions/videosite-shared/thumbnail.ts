import { builder } from '../../schema/builder.js';
import { obj } from '../../schema/read.js';
import { webUrl } from './links.js';

/** A thumbnail as the upstream sent it (a plain URL string, or an object {static, rich}), with the image to show. */
export interface ThumbnailSource {
  static: unknown;
  rich: unknown;
  /** The still image, or the animated one when there is no still. */
  url: string;
}

/** Reads either upstream form; null when it holds no http(s) image URL at all. */
export function thumbnailOf(value: unknown): ThumbnailSource | null {
  const object = obj(value);
  const staticValue = typeof value === 'string' ? value : object?.static;
  const richValue = typeof value === 'string' ? null : object?.rich;
  const shown = webUrl(staticValue) ?? webUrl(richValue);
  return shown === null ? null : { static: staticValue, rich: richValue, url: shown };
}

export const VideoThumbnail = builder.objectRef<ThumbnailSource>('VideoThumbnail').implement({
  description:
    'A thumbnail image. The upstream sends a plain URL in some places and a {static, rich} pair in others (search results); both read as this one type. A thumbnail with no usable http(s) URL reads as a null thumbnail.',
  fields: (t) => ({
    url: t.field({
      type: 'URL',
      nullable: false,
      description:
        'The image to show: the still image, or the animated one when there is no still. Protocol-relative URLs get https.',
      resolve: (th) => th.url,
    }),
    staticUrl: t.field({
      type: 'URL',
      description: 'The still image (upstream `static`, or the plain thumbnail string); null when there is none.',
      resolve: (th) => webUrl(th.static),
    }),
    richUrl: t.field({
      type: 'URL',
      description:
        'The animated preview (upstream `rich`, usually WebP); null when the upstream sends only a still image.',
      resolve: (th) => webUrl(th.rich),
    }),
  }),
});
