/**
 * The cost model: how many upstream calls a field can make at most. Costs are the number of
 * upstream calls, nothing else: a field that reads data already fetched costs 0.
 *
 * - Every root field of Query is one lookup: 1 call (`financialProfiles` counts by symbol, below).
 * - A link field (a field that resolves another action from data in hand) declares its cost in its
 *   GraphQL extensions with `linkCost(...)`: 1 call per parent object.
 * - Everything below a list field is multiplied by the list's length: its `first` argument where it
 *   has one, the number of symbols asked for `financialProfiles`, else the documented cap below.
 * - Stock symbols are batched: every financial lookup of one "wave" (root symbols and
 *   `Company.financialProfile` links not below another financial profile) shares calls of up to
 *   FINANCIAL_BATCH_SIZE symbols, so a wave costs ceil(symbols / FINANCIAL_BATCH_SIZE). A financial
 *   link below a financial profile (profile -> company -> profile) is a later wave and counted apart.
 */

/** How a link field is costed, kept in its GraphQL field extensions under `cost`. */
export interface FieldCost {
  /** The action the field calls. */
  action: string;
  /** Symbol lookups are batched instead of counted one call each. */
  batchedSymbols?: boolean;
}

/** The extensions a link field declares: `extensions: linkCost('domain_info')`. */
export function linkCost(action: string, options: { batchedSymbols?: boolean } = {}): { cost: FieldCost } {
  return { cost: { action, ...(options.batchedSymbols ? { batchedSymbols: true } : {}) } };
}

/** The root field whose cost is its distinct symbols divided by the batch size, and its argument. */
export const FINANCIAL_ROOT = { field: 'financialProfiles', symbolsArgument: 'symbols', action: 'company_financial_profile' } as const;

/**
 * Upper bounds for list lengths the schema does not bound with an argument. The upstream returns one
 * page of results; these are generous counts of what such a page holds. When a list turns out longer,
 * the runtime counter still stops the calls at COST_BUDGET.
 */
export const LIST_CAPS: Readonly<Record<string, number>> = {
  /** One page of video search results. */
  'VideositeSearch.videos': 20,
  /** Shorts shelves among the results of one search page. */
  'VideositeSearch.shorts': 3,
  /** Shorts in one shelf. */
  'VideositeShortsSection.items': 10,
  /** Shelves on a channel's home page. */
  'VideositeChannel.videosSections': 6,
  /** Videos in one shelf of a channel page. */
  'VideositeVideoSection.videos': 12,
};

/** Any other list, should a link ever be placed below one. */
export const DEFAULT_LIST_CAP = 25;
