import { domainToASCII } from 'node:url';
import { badInput } from '../kernel/errors.js';
import { bareHost, looksLikeUrl, looseWebUrl, shown } from './web-input.js';

/**
 * Argument checks that run before any upstream call. Each failure is BAD_USER_INPUT naming the
 * argument, so a bad value costs nothing upstream.
 */

export function requireText(argument: string, value: string, maxLength: number): string {
  const trimmed = value.trim();
  if (trimmed === '') throw badInput(`"${argument}" must not be empty`, { argument });
  if (trimmed.length > maxLength) {
    throw badInput(`"${argument}" must be at most ${maxLength} characters`, { argument, maxLength });
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw badInput(`"${argument}" must not contain control characters`, { argument });
  return trimmed;
}

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain name in its canonical form, the key of `company(domain:)` and `domainInfo(domain:)`:
 * lower-cased, internationalised names in their ASCII form, without a trailing dot, and reduced from
 * what people paste: a URL with or without its scheme ("https://www.hubspot.com/pricing?utm_source=x"),
 * a port, a path, and the "www." or mobile "m." prefix of a web host ("www.hubspot.com" -> "hubspot.com").
 * Other subdomains are kept: "investors.nike.com" is its own name.
 */
export function requireDomain(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  let host = trimmed;
  if (looksLikeUrl(trimmed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /:\d{1,5}$/.test(trimmed)) {
    const url = looseWebUrl(trimmed);
    if (!url) throw notADomain(argument, trimmed);
    host = url.hostname;
  }
  const raw = bareHost(host);
  if (raw.length > 253) throw badInput(`"${argument}" must be at most 253 characters`, { argument, maxLength: 253 });
  const ascii = domainToASCII(raw);
  const labels = ascii.split('.');
  const valid =
    ascii !== '' &&
    ascii.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1]!);
  if (!valid) throw notADomain(argument, trimmed);
  return ascii;
}

function notADomain(argument: string, value: string) {
  return badInput(
    `"${argument}" must be a domain name such as example.com (or a web address such as https://www.example.com/), got "${shown(value)}"`,
    {
      argument,
    },
  );
}
