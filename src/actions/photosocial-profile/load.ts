import type { GatewayContext } from '../../context.js';
import type { ActionEnvelope } from '../../upstream/client.js';
import { ActionError, badInput } from '../../upstream/errors.js';
import { obj, type Raw } from '../../schema/read.js';
import { lookup, responseObject, wrongShape, type LookupSpec } from '../loader.js';

export const GET_PHOTOSOCIAL_PROFILE = 'get_photosocial_profile';

/** A profile as the upstream sent it (the inner `response.response` object), with the username asked for. */
export interface PhotosocialProfileSource {
  raw: Raw;
  requestedUsername: string;
}

const USERNAME = /^[a-z0-9._]{1,30}$/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are kept out of the message
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * Checks a username and returns its canonical form: trimmed, one leading "@" removed, lower-case
 * (usernames are case-insensitive), 1 to 30 letters, digits, "." or "_".
 */
export function canonicalUsername(argument: string, value: string): string {
  const username = value.trim().replace(/^@/, '').toLowerCase();
  if (!USERNAME.test(username)) {
    const shown = value.trim().slice(0, 40).replace(CONTROL_CHARACTERS, '?');
    throw badInput(`"${argument}" must be 1 to 30 letters, digits, "." or "_" (a leading "@" is allowed), got "${shown}"`, { argument });
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

const spec: LookupSpec<string, PhotosocialProfileSource> = {
  action: GET_PHOTOSOCIAL_PROFILE,
  cacheKey: (username) => username,
  body: (username) => ({ username }),
  parse: (envelope, username) => ({ raw: innerProfile(envelope, username), requestedUsername: username }),
};

/** `username` must already be canonical (see canonicalUsername). */
export function loadPhotosocialProfile(ctx: GatewayContext, username: string): Promise<PhotosocialProfileSource> {
  return lookup(ctx, spec, username);
}
