/**
 * Keys for link fields, read from data already in hand. A link never fails for its key: a missing or
 * malformed key makes the link null, with no upstream call and no error.
 */
import { canonicalSymbol } from './financial-profile/load.js';
import { requireDomain } from './validate.js';

/** A canonical domain (as `company(domain:)` reduces it: no www., no URL parts), or null. */
export function domainKey(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    return requireDomain('domain', value);
  } catch {
    return null;
  }
}

/** A canonical stock symbol (as `financialProfiles(symbols:)` reduces it: BRK.B -> BRK-B), or null. */
export function symbolKey(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    return canonicalSymbol('symbol', value);
  } catch {
    return null;
  }
}

/** Second-level labels under which a two-letter country domain registers names ("co.uk", "com.au"). */
const COUNTRY_SECOND_LEVELS = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'gob',
  'go',
  'gov',
  'ltd',
  'ne',
  'net',
  'or',
  'org',
  'plc',
]);

/**
 * The registrable domain of a website URL, as a company is looked up by it: "https://www.hubspot.com"
 * -> "hubspot.com", "https://investors.nike.com" -> "nike.com", "https://www.bbc.co.uk" -> "bbc.co.uk".
 * Deliberately simple rather than the full public-suffix list: the last two labels of the host, or
 * the last three under a two-letter country domain with a common second level (co, com, org, ...).
 * Null when the value is not an http(s) URL with a domain name for a host.
 */
export function websiteDomain(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let host: string;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    host = url.hostname;
  } catch {
    return null;
  }
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (labels[0] === 'www') labels.shift();
  const tld = labels[labels.length - 1] ?? '';
  const second = labels[labels.length - 2] ?? '';
  const keep = tld.length === 2 && COUNTRY_SECOND_LEVELS.has(second) ? 3 : 2;
  return domainKey(labels.slice(-keep).join('.'));
}
