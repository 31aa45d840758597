import { safeInt } from '../../schema/read.js';

/**
 * A whole-number count (views, likes, subscribers, seconds). The contract says integer, but
 * video-site data often carries counts as digit strings ("1234567"), so those read too; anything
 * else, or a count beyond 2^53, reads as null.
 */
export function count(value: unknown): number | null {
  if (typeof value === 'number') return value >= 0 ? safeInt(value) : null;
  if (typeof value !== 'string') return null;
  const digits = value.trim().replace(/,/g, '');
  return /^\d{1,16}$/.test(digits) ? safeInt(Number(digits)) : null;
}
