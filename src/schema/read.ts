/**
 * Safe readers from upstream JSON. Upstream data is untrusted: a value of the wrong type, or one a
 * scalar could not represent, reads as null (or an empty list) instead of failing the field.
 */

import { parseDateText, parseDateTimeText } from './dates.js';
import { exactHttpUrl } from './exact-scalars.js';

export type Raw = Record<string, unknown>;

export function obj(value: unknown): Raw | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : null;
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A string that carries information: empty and whitespace-only strings read as null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Identifiers may arrive as numbers; clients always get them as strings. */
export function id(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value))
    return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  return null;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

export function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX
    ? value
    : null;
}

export function safeInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

export function float(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function bool(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function strings(value: unknown): string[] {
  return list(value).filter((item): item is string => typeof item === 'string');
}

export function objects(value: unknown): Raw[] {
  return list(value)
    .map(obj)
    .filter((item): item is Raw => item !== null);
}

/** The value unchanged when it is an absolute http(s) URL, else null (see exact-scalars.ts). */
export function url(value: unknown): string | null {
  return exactHttpUrl(value);
}

/** A timestamp in any form the upstream uses (see dates.ts), as RFC 3339; null otherwise. */
export function dateTime(value: unknown): string | null {
  return parseDateTimeText(value);
}

/** A date in any form the upstream uses (see dates.ts), as "YYYY-MM-DD"; null otherwise. */
export function date(value: unknown): string | null {
  return parseDateText(value);
}
