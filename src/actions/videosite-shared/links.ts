import { url } from '../../schema/read.js';

/**
 * Video-site URLs are not always absolute: images may be protocol-relative ("//i.example/x.jpg")
 * and channel links are often written without a scheme ("instagram.com/name").
 */

/** An http(s) URL; a protocol-relative one gets https. Anything else reads as null. */
export function webUrl(value: unknown): string | null {
  if (typeof value === 'string' && value.startsWith('//')) return url(`https:${value}`);
  return url(value);
}

const BARE_LINK = /^(?:www\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,63}(?:[/?#]\S*)?$/i;

/** Like webUrl, and a scheme-less "host.tld/path" becomes "https://host.tld/path". */
export function linkUrl(value: unknown): string | null {
  const absolute = webUrl(value);
  if (absolute !== null || typeof value !== 'string') return absolute;
  const trimmed = value.trim();
  return BARE_LINK.test(trimmed) ? url(`https://${trimmed}`) : null;
}

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
