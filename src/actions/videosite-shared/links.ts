import { url } from '../../schema/read.js';
import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { decodeSegment, looseWebUrl, offSite, onDomains, pathSegments, shown } from '../web-input.js';

/**
 * Video-site URLs are not always absolute: images may be protocol-relative ("//i.example/x.jpg")
 * and channel links are often written without a scheme ("instagram.com/name").
 */

/** An http(s) URL; a protocol-relative one gets https. Anything else reads as null. */
export function webUrl(value: unknown): string | null {
  if (typeof value === 'string' && value.startsWith('//')) return url(`https:${value}`);
  return url(value);
}

const BARE_LINK =
  /^(?:www\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,63}(?:[/?#]\S*)?$/i;

/** Like webUrl, and a scheme-less "host.tld/path" becomes "https://host.tld/path". */
export function linkUrl(value: unknown): string | null {
  const absolute = webUrl(value);
  if (absolute !== null || typeof value !== 'string') return absolute;
  const trimmed = value.trim();
  return BARE_LINK.test(trimmed) ? url(`https://${trimmed}`) : null;
}

/** The video site's web host, of canonical URLs (and of a bare handle, channel id or video id). */
const VIDEO_SITE_HOST = 'www.youtube.com';
/** The short-link host: "youtu.be/<id>" is "<host>/watch?v=<id>", the path naming the video. */
const SHORT_LINK_DOMAIN = 'youtu.be';
/** The stand-in name of the video site that the documentation and the sandbox use; its URLs keep their host. */
const STAND_IN_DOMAIN = 'videosite.example';
/**
 * The hosts video and channel URL arguments are accepted on, each with its subdomains (www., m.,
 * music.): the site's domain, its short-link host, and the stand-in.
 */
const VIDEO_SITE_DOMAINS = ['youtube.com', SHORT_LINK_DOMAIN, STAND_IN_DOMAIN] as const;

/** The host of a canonical URL: the site's web host, or the stand-in's for a stand-in URL. */
function canonicalHost(url: URL): string {
  return onDomains(url.hostname, [STAND_IN_DOMAIN]) ? `www.${STAND_IN_DOMAIN}` : VIDEO_SITE_HOST;
}

const VIDEO_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A bare video id as the site writes them (11 characters). */
const BARE_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const ID_PATH_PREFIXES = new Set(['shorts', 'embed', 'live', 'v', 'e']);

/**
 * The video id a link on the video site names, or null when it names none or names it twice over
 * (two different `v`): a short link's path `/<id>` (its query, `?v=` included, names nothing),
 * `/shorts/<id>`, `/embed/<id>`, `/live/<id>`, `/v/<id>` (a path that names a video wins over a `v`
 * parameter), or `/watch?v=<id>`.
 */
function videoIdOf(url: URL): string | null {
  const segments = pathSegments(url);
  let candidate: string | undefined;
  if (onDomains(url.hostname, [SHORT_LINK_DOMAIN])) {
    candidate = segments.length === 1 ? segments[0] : undefined;
  } else if (segments.length === 2 && ID_PATH_PREFIXES.has(segments[0]!.toLowerCase())) {
    candidate = segments[1];
  } else if (segments.length === 1 && segments[0]!.toLowerCase() === 'watch') {
    const ids = new Set(url.searchParams.getAll('v'));
    candidate = ids.size === 1 ? [...ids][0] : undefined;
  }
  return candidate !== undefined && VIDEO_ID.test(candidate) ? candidate : null;
}

const watchUrl = (id: string, host = VIDEO_SITE_HOST) => `https://${host}/watch?v=${id}`;

/**
 * The canonical watch URL of a video link in the upstream's data: `https://www.youtube.com/watch?v=<id>`
 * (`https://www.videosite.example/...` for the stand-in),
 * whatever form a link on the video site takes (`/watch?v=<id>&pp=...&si=...`, `/shorts/<id>`,
 * `/embed/<id>`, `/live/<id>`, a short link "youtu.be/<id>?si=...", http, no scheme, an "m." or bare
 * host, a fragment): every other parameter (tracking, start time) is dropped. Any other link is kept
 * as it is, without its fragment. Null when it is not an http(s) URL.
 */
export function canonicalVideoUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = looseWebUrl(value);
  if (url === null) return null;
  const id = onDomains(url.hostname, VIDEO_SITE_DOMAINS) ? videoIdOf(url) : null;
  if (id !== null) return watchUrl(id, canonicalHost(url));
  url.hash = '';
  return url.toString();
}

/**
 * A `videositeTranscript(url:)` argument as its canonical watch URL (see canonicalVideoUrl); a bare
 * 11-character video id is accepted too. BAD_USER_INPUT, showing an accepted form, when it names no video.
 */
export function requireVideoUrl(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  if (BARE_VIDEO_ID.test(trimmed)) return watchUrl(trimmed);
  const url = looseWebUrl(trimmed);
  if (url !== null && !onDomains(url.hostname, VIDEO_SITE_DOMAINS))
    throw offSite(argument, trimmed, url, VIDEO_SITE_DOMAINS);
  const id = url ? videoIdOf(url) : null;
  if (url === null || id === null) {
    throw badInput(
      `"${argument}" must be a video link such as https://${VIDEO_SITE_HOST}/watch?v=dQw4w9WgXcQ (short, /shorts/, /embed/ and mobile links are accepted too), got "${shown(trimmed)}"`,
      { argument },
    );
  }
  return watchUrl(id, canonicalHost(url));
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
 * channel links: `https://www.youtube.com/@handle` (handle lower-cased; the stand-in keeps its host), `.../channel/<id>`,
 * `/c/<name>` or `/user/<name>`, reduced from a URL on the video site with or without its scheme, an
 * "m." or bare host, a sub-page (`/@name/videos`), tracking parameters and a fragment. Null when it
 * names no channel, or is a URL on another host.
 */
export function canonicalChannelUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (HANDLE.test(trimmed)) return `https://${VIDEO_SITE_HOST}/${trimmed.toLowerCase()}`;
  if (CHANNEL_ID.test(trimmed)) return `https://${VIDEO_SITE_HOST}/channel/${trimmed}`;
  const url = looseWebUrl(trimmed);
  if (url === null || !onDomains(url.hostname, VIDEO_SITE_DOMAINS)) return null;
  const path = channelPath(url);
  return path === null ? null : `https://${canonicalHost(url)}${path}`;
}

/**
 * A `videositeChannel(url:)` argument as its canonical URL; BAD_USER_INPUT naming the accepted hosts
 * for a URL on another host, or showing accepted forms when it names no channel.
 */
export function requireChannelUrl(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  const url = HANDLE.test(trimmed) || CHANNEL_ID.test(trimmed) ? null : looseWebUrl(trimmed);
  if (url !== null && !onDomains(url.hostname, VIDEO_SITE_DOMAINS))
    throw offSite(argument, trimmed, url, VIDEO_SITE_DOMAINS);
  const canonical = canonicalChannelUrl(trimmed);
  if (canonical === null) {
    throw badInput(
      `"${argument}" must be a channel such as "@name", https://${VIDEO_SITE_HOST}/@name or https://${VIDEO_SITE_HOST}/channel/UC..., got "${shown(trimmed)}"`,
      { argument },
    );
  }
  return canonical;
}
