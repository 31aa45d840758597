import { type ActionError, badInput } from '../kernel/errors.js';

/**
 * Reading what people paste: a URL with or without its scheme, a protocol-relative one, or a bare
 * host with a path. Every root argument that names something on the web goes through here before
 * its action reduces it to one canonical key.
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const HOST_FIRST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#]|$)/i;

/**
 * The value as an http(s) URL: absolute ("https://x.example/a"), protocol-relative ("//x.example/a")
 * or scheme-less ("x.example/a", "www.x.example"). Null for anything else (another scheme,
 * credentials in the URL, text that does not start with a host name).
 */
export function looseWebUrl(value: string): URL | null {
  const trimmed = value.trim();
  let candidate: string;
  if (trimmed.startsWith('//')) candidate = `https:${trimmed}`;
  else if (/^https?:\/\//i.test(trimmed)) candidate = trimmed;
  else if (SCHEME.test(trimmed) && !HOST_FIRST.test(trimmed))
    return null; // mailto:, javascript:, ...
  else if (HOST_FIRST.test(trimmed)) candidate = `https://${trimmed}`;
  else return null;
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** Whether a pasted value should be read as a web address rather than a bare name: it has a scheme or a path. */
export function looksLikeUrl(value: string): boolean {
  const trimmed = value.trim();
  return /^https?:\/\//i.test(trimmed) || trimmed.startsWith('//') || trimmed.includes('/');
}

/** A host without the "www." or mobile "m." prefix people paste: "m.example.com" and "www.example.com" -> "example.com". */
export function bareHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^(?:www|m|mobile)\./, '');
}

/** Whether `host` is one of `domains` or under one: "m.youtube.com" and "youtube.com." are on "youtube.com", "notyoutube.com" is not. */
export function onDomains(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/**
 * BAD_USER_INPUT for a URL on a host the argument does not take: a URL argument names something on
 * one site, and a look-alike path on another host would be sent upstream (and cached) as if it named it.
 * The message and `extensions.acceptedHosts` name the hosts accepted.
 */
export function offSite(argument: string, value: string, url: URL, domains: readonly string[]): ActionError {
  const accepted = domains.join(' or ');
  return badInput(
    `"${argument}" takes links on ${accepted} (or their www., m. and other subdomains) only; "${url.hostname}" is not one of them, got "${shown(value)}"`,
    {
      argument,
      acceptedHosts: [...domains],
    },
  );
}

/** The path's segments, empty ones dropped: "/in/sam-rivera/details/" -> ["in", "sam-rivera", "details"]. */
export function pathSegments(url: URL): string[] {
  return url.pathname.split('/').filter((segment) => segment !== '');
}

/** A path segment percent-decoded, or null when it is not valid percent-encoding. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are kept out of error messages
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The first 100 characters of a rejected value, control characters shown as "?", for error messages. */
export function shown(value: string): string {
  return value.trim().slice(0, 100).replace(CONTROL_CHARACTERS, '?');
}
