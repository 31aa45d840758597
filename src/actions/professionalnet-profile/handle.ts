import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { decodeSegment, looksLikeUrl, looseWebUrl, offSite, onDomains, pathSegments, shown } from '../web-input.js';

const HANDLE = /^[\p{L}\p{N}_-]{3,100}$/u;
/**
 * The hosts profile URLs are accepted on, each with its subdomains (www., m., country ones such as
 * uk.): the professional network's domain, and the stand-in the documentation and the sandbox use.
 */
const PROFESSIONAL_NETWORK_DOMAINS = ['linkedin.com', 'professionalnet.example'] as const;

/**
 * A profile handle in its canonical form: 3 to 100 letters, digits, "-" or "_", lower-cased since
 * handles are case-insensitive (so "Sam-Rivera" and "sam-rivera" share one upstream call), reduced
 * from what people paste: a profile URL with or without its scheme or "www." host
 * ("www.linkedin.com/in/sam-rivera/"), a sub-page ("/in/sam-rivera/details/experience/"),
 * tracking parameters ("?utm_source=share"), a leading "@". A URL on another host is BAD_USER_INPUT
 * naming the accepted hosts.
 */
export function requireHandle(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  const url = looksLikeUrl(trimmed) ? looseWebUrl(trimmed) : null;
  if (url !== null && !onDomains(url.hostname, PROFESSIONAL_NETWORK_DOMAINS))
    throw offSite(argument, trimmed, url, PROFESSIONAL_NETWORK_DOMAINS);
  const handle = looksLikeUrl(trimmed) ? url && handleFromUrl(url) : trimmed.replace(/^@/, '');
  if (handle === null || !HANDLE.test(handle)) {
    throw badInput(
      `"${argument}" must be a profile handle of 3 to 100 letters, digits, "-" or "_" such as "sam-rivera" (or a profile URL such as https://www.linkedin.com/in/sam-rivera/), got "${shown(trimmed)}"`,
      { argument },
    );
  }
  return handle.toLowerCase();
}

/** The handle of a profile URL: the segment after /in/ (sub-pages after it are ignored); null when there is none. */
function handleFromUrl(url: URL): string | null {
  const segments = pathSegments(url);
  if (segments[0]?.toLowerCase() !== 'in' || segments[1] === undefined) return null;
  return decodeSegment(segments[1]);
}
