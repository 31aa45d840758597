import { createHash } from 'node:crypto';

/**
 * Sample values derived from the input: every number, pick and date the sandbox answers is a
 * function of a seed string (the canonical key plus what the value is), so two inputs differ and
 * the same input always gets the same answer, in every process.
 */

/** A fraction in [0, 1) for `seed`. */
export function seededFraction(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0) / 2 ** 32;
}

/** An integer from `min` to `max`, both included. */
export function seededInt(seed: string, min: number, max: number): number {
  return min + Math.floor(seededFraction(seed) * (max - min + 1));
}

/** An integer from `min` to `max` spread evenly over orders of magnitude (follower counts, market caps). */
export function seededMagnitude(seed: string, min: number, max: number): number {
  return Math.round(Math.exp(Math.log(min) + seededFraction(seed) * (Math.log(max) - Math.log(min))));
}

/** A number from `min` to `max` with `decimals` decimals (prices). */
export function seededAmount(seed: string, min: number, max: number, decimals = 2): number {
  return Number((min + seededFraction(seed) * (max - min)).toFixed(decimals));
}

/** One of `items`. */
export function seededPick<T>(seed: string, items: readonly T[]): T {
  return items[Math.floor(seededFraction(seed) * items.length)]!;
}

/** `count` distinct items of `items`, in their order there. */
export function seededSubset<T>(seed: string, items: readonly T[], count: number): T[] {
  const ranked = items.map((item, index) => ({ item, index, rank: seededFraction(`${seed}:${index}`) }));
  return ranked
    .sort((a, b) => a.rank - b.rank)
    .slice(0, count)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.item);
}

const DAY_MS = 86_400_000;

/** A date ("YYYY-MM-DD") from `from` to `to` (both "YYYY-MM-DD", included). */
export function seededDate(seed: string, from: string, to: string): string {
  const start = Date.parse(`${from}T00:00:00Z`);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - start) / DAY_MS);
  return new Date(start + seededInt(seed, 0, days) * DAY_MS).toISOString().slice(0, 10);
}

/** A timestamp (ISO 8601 with milliseconds) from `from` to `to` (ISO 8601). */
export function seededTimestamp(seed: string, from: string, to: string): string {
  const start = Date.parse(from);
  return new Date(start + Math.floor(seededFraction(seed) * (Date.parse(to) - start))).toISOString();
}

/** "sam-rivera" -> "Sam Rivera", "natgeo" -> "Natgeo": the words of a handle, capitalised. */
export function wordsOf(handle: string): string[] {
  return handle
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
}
