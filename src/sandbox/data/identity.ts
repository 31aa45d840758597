import { createHash } from 'node:crypto';

/**
 * Upstream identifiers made from the input, so that distinct inputs get distinct identities (as the
 * real service gives two companies two ids) and the same input always the same one.
 */
function digest(input: string): Buffer {
  return createHash('sha256').update(input).digest();
}

/** A UUID-shaped identifier (version 4 layout) for `input`. */
export function sampleUuid(input: string): string {
  const hex = digest(input).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A numeric identifier of `length` digits (no leading zero) for `input`. */
export function sampleDigits(input: string, length: number): string {
  const hash = digest(input);
  let digits = String(1 + (hash[0]! % 9));
  for (let i = 1; digits.length < length; i += 1) digits += String(hash[i % hash.length]! % 10);
  return digits;
}

/** A hexadecimal identifier of `length` characters for `input`. */
export function sampleHex(input: string, length: number): string {
  return digest(input).toString('hex').slice(0, length);
}

/** A URL-safe base64 identifier of `length` characters for `input` (video ids). */
export function sampleBase64Url(input: string, length: number): string {
  return digest(input).toString('base64url').slice(0, length);
}
