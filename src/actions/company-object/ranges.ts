/**
 * Parsing of the display text the company data uses for sizes and money: "251-1K", "10K+",
 * "$10M-$50M", "1,000". Pure functions, no GraphQL.
 */

export interface NumberRange {
  min: number | null;
  max: number | null;
}

const SUFFIX: Record<string, number> = { '': 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };
const AMOUNT = /^\$?\s*(\d+(?:\.\d+)?)\s*([KMBT]?)$/i;

/** "1K" -> 1000, "2.5M" -> 2500000, "$10B" -> 1e10, "1,000" -> 1000; null when not an amount. */
export function parseAmount(value: string): number | null {
  const match = AMOUNT.exec(value.trim().replace(/,/g, ''));
  if (!match) return null;
  const amount = Math.round(Number(match[1]) * SUFFIX[match[2]!.toUpperCase()]!);
  return Number.isSafeInteger(amount) ? amount : null;
}

/**
 * "251-1K" -> {251, 1000}; "10K+" -> {10000, null}; "<10" or "0-1" style bounds; a single amount
 * "50" -> {50, 50}. Null when the text is not a range of amounts or its bounds are reversed.
 */
export function parseAmountRange(value: unknown): NumberRange | null {
  if (typeof value !== 'string') return null;
  const textValue = value.trim();
  if (textValue === '') return null;
  if (textValue.endsWith('+')) {
    const min = parseAmount(textValue.slice(0, -1));
    return min === null ? null : { min, max: null };
  }
  if (textValue.startsWith('<')) {
    const bound = parseAmount(textValue.slice(1));
    return bound === null ? null : { min: null, max: bound };
  }
  const parts = textValue.split(/\s*(?:-|–|to)\s*/i);
  if (parts.length === 1) {
    const amount = parseAmount(parts[0]!);
    return amount === null ? null : { min: amount, max: amount };
  }
  if (parts.length !== 2) return null;
  const min = parseAmount(parts[0]!);
  const max = parseAmount(parts[1]!);
  if (min === null || max === null || min > max) return null;
  return { min, max };
}
