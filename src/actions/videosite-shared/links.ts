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
