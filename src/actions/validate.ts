import { domainToASCII } from 'node:url';
import { badInput } from '../upstream/errors.js';

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
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw badInput(`"${argument}" must not contain control characters`, { argument });
  return trimmed;
}

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A registrable host name: lower-cased, internationalised names in their ASCII form. */
export function requireDomain(argument: string, value: string): string {
  const raw = requireText(argument, value, 253).toLowerCase().replace(/\.$/, '');
  const ascii = domainToASCII(raw);
  const labels = ascii.split('.');
  const valid =
    ascii !== '' &&
    ascii.length <= 253 &&
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1]!);
  if (!valid) throw badInput(`"${argument}" must be a domain name such as example.com, got "${value.trim().slice(0, 100)}"`, { argument });
  return ascii;
}

/** An absolute http(s) URL, as the video-site actions expect. */
export function requireHttpUrl(argument: string, value: string): string {
  const trimmed = requireText(argument, value, 2048);
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw badInput(`"${argument}" must be an absolute http(s) URL`, { argument });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badInput(`"${argument}" must be an http(s) URL`, { argument });
  }
  return parsed.toString();
}
