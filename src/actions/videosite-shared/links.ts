import { url } from '../../schema/read.js';
import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { bareHost, decodeSegment, looseWebUrl, pathSegments, shown } from '../web-input.js';

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

/** The video site's web host, for inputs that name no host (a bare "@handle", a bare video id). */
export const VIDEO_SITE_HOST = 'www.youtube.com';
/** Short-link hosts and the web host they stand for ("youtu.be/<id>" is "<host>/watch?v=<id>"). */
const SHORT_LINK_HOSTS: Readonly<Record<string, string>> = { 'youtu.be': VIDEO_SITE_HOST };

const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A bare video id as the site writes them (11 characters). */
const BARE_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const ID_PATH_PREFIXES = new Set(['shorts', 'embed', 'live', 'v', 'e']);

/** The canonical web host: lower-case, "m."/"mobile." become "www.", and a bare two-label host gets "www.". */
function canonicalHost(url: URL): string {
  const short = SHORT_LINK_HOSTS[bareHost(url.hostname)];
  if (short) return short;
  const host = bareHost(url.host);
  return host.split('.').length === 2 ? `www.${host}` : host;
}

/** The video id a link names: `?v=<id>`, `/shorts/<id>`, `/embed/<id>`, `/live/<id>`, `/v/<id>`, or a short link's `/<id>`. */
function videoIdOf(url: URL): string | null {
  const segments = pathSegments(url);
  const candidate =
    url.searchParams.get('v') ??
    (SHORT_LINK_HOSTS[bareHost(url.hostname)] && segments.length === 1 ? segments[0] : undefined) ??
    (segments.length === 2 && ID_PATH_PREFIXES.has(segments[0]!.toLowerCase()) ? segments[1] : undefined) ??
    null;
  return candidate !== null && VIDEO_ID.test(candidate) ? candidate : null;
}

/**
 * The canonical watch URL of a video link: `https://<host>/watch?v=<id>`, whatever form the link
 * takes (`/watch?v=<id>&pp=...&si=...`, `/shorts/<id>`, `/embed/<id>`, `/live/<id>`, a short link
 * "youtu.be/<id>?si=...", http, no scheme, an "m." or bare host, a fragment): the host is lower-cased,
 * "m." becomes "www.", and every other parameter (tracking, start time) is dropped. A link with no
 * recognisable video id is kept as it is, without its fragment. Null when it is not an http(s) URL.
 */
export function canonicalVideoUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = looseWebUrl(value);
  if (url === null) return null;
  const id = videoIdOf(url);
  if (id !== null) return `https://${canonicalHost(url)}/watch?v=${id}`;
  url.hash = '';
  return url.toString();
}

/**
 * A `videositeTranscript(url:)` argument as its canonical watch URL (see canonicalVideoUrl); a bare
 * 11-character video id is accepted too. BAD_USER_INPUT, showing an accepted form, when it names no video.
 */
export function requireVideoUrl(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  if (BARE_VIDEO_ID.test(trimmed)) return `https://${VIDEO_SITE_HOST}/watch?v=${trimmed}`;
  const url = looseWebUrl(trimmed);
  const id = url ? videoIdOf(url) : null;
  if (url === null || id === null) {
    throw badInput(
      `"${argument}" must be a video link such as https://${VIDEO_SITE_HOST}/watch?v=dQw4w9WgXcQ (short, /shorts/, /embed/ and mobile links are accepted too), got "${shown(trimmed)}"`,
      { argument },
    );
  }
  return `https://${canonicalHost(url)}/watch?v=${id}`;
}

const HANDLE = /^@[\p{L}\p{N}._-]{1,100}$/u;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
/** Channel page paths: `/@handle`, `/channel/<id>`, `/c/<name>`, `/user/<name>`, each with optional sub-pages (`/videos`, `/about`...). */
const NAMED_PREFIXES = new Set(['channel', 'c', 'user']);

/** The canonical channel path of a URL, or null when it does not name a channel. */
function channelPath(url: URL): string | null {
  const segments = pathSegments(url).map((segment) => decodeSegment(segment) ?? '');
  const [first, second] = segments;
  if (first === undefined) return null;
  if (HANDLE.test(first)) return `/${first.toLowerCase()}`; // handles are case-insensitive
  if (second !== undefined && NAMED_PREFIXES.has(first.toLowerCase()) && /^[\p{L}\p{N}._-]{1,100}$/u.test(second)) {
    return `/${first.toLowerCase()}/${first.toLowerCase() === 'channel' ? second : second.toLowerCase()}`;
  }
  return null;
}

/**
 * The canonical URL of a channel, the key of `videositeChannel(url:)` and of the search results'
 * channel links: `https://<host>/@handle` (handle lower-cased), `https://<host>/channel/<id>`,
 * `/c/<name>` or `/user/<name>`, reduced from a URL with or without its scheme, an "m." or bare host,
 * a sub-page (`/@name/videos`), tracking parameters and a fragment. Null when it names no channel.
 */
export function canonicalChannelUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (HANDLE.test(trimmed)) return `https://${VIDEO_SITE_HOST}/${trimmed.toLowerCase()}`;
  if (CHANNEL_ID.test(trimmed)) return `https://${VIDEO_SITE_HOST}/channel/${trimmed}`;
  const url = looseWebUrl(trimmed);
  if (url === null) return null;
  const path = channelPath(url);
  return path === null ? null : `https://${canonicalHost(url)}${path}`;
}

/** A `videositeChannel(url:)` argument as its canonical URL; BAD_USER_INPUT, showing accepted forms, when it names no channel. */
export function requireChannelUrl(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  const canonical = canonicalChannelUrl(trimmed);
  if (canonical === null) {
    throw badInput(
      `"${argument}" must be a channel such as "@name", https://${VIDEO_SITE_HOST}/@name or https://${VIDEO_SITE_HOST}/channel/UC..., got "${shown(trimmed)}"`,
      { argument },
    );
  }
  return canonical;
}
