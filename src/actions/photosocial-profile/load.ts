import type { GatewayContext } from '../../operation/context.js';
import type { ActionEnvelope } from '../../upstream/client.js';
import { ActionError, badInput } from '../../kernel/errors.js';
import { defineLookup } from '../descriptor.js';
import { obj, type Raw } from '../../schema/read.js';
import { responseObject, wrongShape } from '../loader.js';
import { decodeSegment, looksLikeUrl, looseWebUrl, offSite, onDomains, pathSegments, shown } from '../web-input.js';

export const GET_PHOTOSOCIAL_PROFILE = 'get_photosocial_profile';

/** A profile as the upstream sent it (the inner `response.response` object), with the username asked for. */
export interface PhotosocialProfileSource {
  raw: Raw;
  requestedUsername: string;
}

const USERNAME = /^[a-z0-9._]{1,30}$/;
/**
 * The hosts usernames given as URLs are accepted on, each with its subdomains (www., m.): the
 * photo-social site's domain, and the stand-in the documentation and the sandbox use.
 */
const PHOTO_SOCIAL_DOMAINS = ['instagram.com', 'photosocial.example'] as const;
/** First path segments of the site that are not profiles (a post, a reel, the explore page...). */
const NOT_PROFILES = new Set([
  'p',
  'reel',
  'reels',
  'tv',
  'explore',
  'accounts',
  'direct',
  'about',
  'legal',
  'developer',
  'web',
  'challenge',
]);

/**
 * Checks a username and returns its canonical form: lower-case (usernames are case-insensitive),
 * 1 to 30 letters, digits, "." or "_", reduced from what people paste: "@natgeo", a profile URL with
 * or without its scheme or "www." ("https://www.instagram.com/natgeo/", "instagram.com/natgeo"),
 * a sub-page ("/natgeo/reels/"), a story link ("/stories/natgeo/123/") and tracking parameters ("?igsh=...").
 * A URL on another host is BAD_USER_INPUT naming the accepted hosts.
 */
export function canonicalUsername(argument: string, value: string): string {
  const trimmed = value.trim();
  let username = trimmed;
  if (looksLikeUrl(trimmed)) {
    const url = looseWebUrl(trimmed);
    if (url !== null && !onDomains(url.hostname, PHOTO_SOCIAL_DOMAINS))
      throw offSite(argument, trimmed, url, PHOTO_SOCIAL_DOMAINS);
    const segments = url ? pathSegments(url) : [];
    const first = segments[0] === 'stories' ? segments[1] : segments[0];
    username = first !== undefined && !NOT_PROFILES.has(first.toLowerCase()) ? (decodeSegment(first) ?? '') : '';
  }
  username = username.replace(/^@/, '').toLowerCase();
  if (!USERNAME.test(username)) {
    throw badInput(
      `"${argument}" must be a username of 1 to 30 letters, digits, "." or "_" such as "natgeo" or "@natgeo" (or a profile URL such as https://www.instagram.com/natgeo/), got "${shown(trimmed)}"`,
      { argument },
    );
  }
  return username;
}

/** The profile lives two levels down: `{status, response: {response: {...profile}}}`. */
function innerProfile(envelope: ActionEnvelope, username: string): Raw {
  const outer = responseObject(envelope, GET_PHOTOSOCIAL_PROFILE);
  if (outer.response === null) {
    throw new ActionError('NOT_FOUND', `No photo-social profile for username ${username}`, {
      action: GET_PHOTOSOCIAL_PROFILE,
      extensions: { username },
    });
  }
  const profile = obj(outer.response);
  if (!profile) throw wrongShape(GET_PHOTOSOCIAL_PROFILE, 'an object holding a `response` object');
  return profile;
}

/** A photo-social profile. The key is the canonical username (canonicalUsername). */
export const photosocialProfileAction = defineLookup<string, PhotosocialProfileSource>({
  action: GET_PHOTOSOCIAL_PROFILE,
  rootField: 'photosocialProfile',
  cacheKey: (username) => username,
  body: (username) => ({ username }),
  parse: (envelope, username) => ({ raw: innerProfile(envelope, username), requestedUsername: username }),
  ttlSeconds: 900,
  liveSeconds: 3600,
  namesSymbols: false,
});

/** `username` must already be canonical (see canonicalUsername). */
export function loadPhotosocialProfile(ctx: GatewayContext, username: string): Promise<PhotosocialProfileSource> {
  return photosocialProfileAction.load(ctx, username);
}
