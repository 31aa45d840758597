/**
 * What a client over its budget can do about it: the `first:` values on the lists it selects links
 * below that would bring the operation's estimate within the budget, each found by re-running the
 * estimate with that `first:` (the estimate only grows with `first`, so a binary search finds the
 * largest value that fits).
 */
import { type EstimateInput, type BoundedList, estimateCost, type CostEstimate } from './estimate.js';

/** One way under the budget: these `first:` values, by the list's response path, give this estimate. */
export interface FirstSuggestion {
  first: Record<string, number>;
  cost: number;
}

/** Only the costliest lists are tried, so a refusal of a huge document stays cheap to explain. */
const MOST_LISTS_TRIED = 4;

/**
 * The largest `first:` on each single list that fits the budget (costliest list first; a list that
 * would have to drop every item is named only when no list can keep some), or, when no single list
 * fits, one `first:` for all the costliest lists together; empty when even `first: 0` everywhere does
 * not fit (the operation has too many lookups outside those lists).
 */
export function suggestFirst(input: EstimateInput, estimate: CostEstimate, budget: number): FirstSuggestion[] {
  const lists = estimate.lists.slice(0, MOST_LISTS_TRIED);
  const costWith = (firsts: Map<string, number>) =>
    estimateCost({ ...input, firstOverrides: firsts })?.cost ?? Number.POSITIVE_INFINITY;

  const single: FirstSuggestion[] = [];
  for (const list of lists) {
    const found = largestFitting(list.counted - 1, (n) => costWith(new Map([[list.path, n]])), budget);
    if (found) single.push({ first: { [list.path]: found.n }, cost: found.cost });
  }
  // `first: 0` on a list drops it; name it only when no list can keep some of its items.
  const keeping = single.filter((s) => Object.values(s.first).some((n) => n > 0));
  if (keeping.length > 0) return keeping;
  if (single.length > 0 || lists.length < 2) return single;

  const together = (n: number) => new Map(lists.map((list: BoundedList) => [list.path, Math.min(n, list.counted)]));
  const longest = Math.max(...lists.map((list) => list.counted));
  const found = largestFitting(longest - 1, (n) => costWith(together(n)), budget);
  return found ? [{ first: Object.fromEntries(together(found.n)), cost: found.cost }] : [];
}

/** The largest n in 0..high whose cost fits the budget, with that cost; null when not even 0 fits. */
function largestFitting(high: number, cost: (n: number) => number, budget: number): { n: number; cost: number } | null {
  const atZero = cost(0);
  if (atZero > budget) return null;
  let best = { n: 0, cost: atZero };
  let low = 1;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const midCost = cost(mid);
    if (midCost <= budget) {
      best = { n: mid, cost: midCost };
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** The suggestions in words, for the error message: "`first: 4` on videositeChannel.videosSections.videos (estimate 49)". */
export function describeSuggestions(suggestions: readonly FirstSuggestion[]): string {
  if (suggestions.length === 0) return 'Ask for fewer lookups or links.';
  const ways = suggestions.map(
    (s) =>
      `${Object.entries(s.first)
        .map(([path, n]) => `\`first: ${n}\` on ${path}`)
        .join(' and ')} (estimate ${s.cost})`,
  );
  return `To fit, ask ${ways.join('; or ')}; or ask for fewer lookups or links.`;
}
