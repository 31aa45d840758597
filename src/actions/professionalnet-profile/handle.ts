import { badInput } from '../../upstream/errors.js';
import { requireText } from '../validate.js';

const HANDLE = /^[\p{L}\p{N}_-]{3,100}$/u;
/** A profile URL's path: /in/<handle> with an optional trailing slash. */
const PROFILE_PATH = /^\/in\/([^/]+)\/?$/;

/**
 * A profile handle: 3 to 100 letters, digits, "-" or "_", or a profile URL ending in
 * /in/<handle>/ from which the handle is taken. Lower-cased, since handles are case-insensitive,
 * so that "Sam-Rivera" and "sam-rivera" share one upstream call.
 */
export function requireHandle(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  const handle = /^https?:\/\//i.test(trimmed) ? handleFromUrl(argument, trimmed) : trimmed;
  if (!HANDLE.test(handle)) {
    throw badInput(
      `"${argument}" must be a profile handle of 3 to 100 letters, digits, "-" or "_" (or a profile URL ending in /in/<handle>/), got "${trimmed.slice(0, 100)}"`,
      { argument },
    );
  }
  return handle.toLowerCase();
}

function handleFromUrl(argument: string, value: string): string {
  const rejected = () =>
    badInput(`"${argument}" must be a profile handle or a profile URL of the form https://<host>/in/<handle>/, got "${value.slice(0, 100)}"`, { argument });
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw rejected();
  }
  const match = PROFILE_PATH.exec(parsed.pathname);
  if (!match || parsed.username || parsed.password) throw rejected();
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    throw rejected();
  }
}
