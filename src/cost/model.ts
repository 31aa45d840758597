/**
 * The cost model: how many upstream calls a field can make at most. Costs are the number of
 * upstream calls, nothing else: a field that reads data already fetched costs 0.
 *
 * - Every root field of Query is one lookup: 1 call (`financialProfiles` counts by symbol, below).
 * - A link field (a field that resolves another action from data in hand) carries its cost in its
 *   GraphQL extensions, derived from the target action's descriptor by `link(...)` in
 *   src/actions/descriptor.ts: 1 call per parent object.
 * - Everything below a list field is multiplied by the list's length. Lists are complete unless the
 *   client cuts them with `first:`, so the length counted is `first` when given, else the most items
 *   the upstream returns in that list (every list that links resolve below takes `first:` and
 *   declares that number in its extensions as `listBound`); the number of symbols asked for
 *   `financialProfiles`; else DEFAULT_LIST_CAP below. A list with no link below it costs nothing,
 *   whatever its length.
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

/**
 * A root field whose cost is its distinct symbols divided by the batch size declares, in its
 * extensions under `symbols`, the argument that holds them and their canonical form (so "BRK.B" and
 * "BRK-B" count once, as they are one lookup).
 */
export interface SymbolsArgument {
  argument: string;
  canonical: (symbol: string) => string | null;
  /** The most symbols the field takes (a router's demand control assumes this many items). */
  max?: number;
}

/** What the estimate counts for a list field with a `first:` argument, kept in its GraphQL extensions under `listBound`. */
export interface ListBound {
  /** The most items the upstream returns in this list: counted when the client gives no `first` (or a larger one). */
  most: number;
}

/** Any other list, should a link ever be placed below one without `first` (a test forbids it). */
export const DEFAULT_LIST_CAP = 25;
