import { canonicalKey, lookupNode } from '../node.js';
import { str } from '../../schema/read.js';
import { canonicalSymbol, COMPANY_FINANCIAL_PROFILE, loadFinancialProfile } from './load.js';
import { FinancialProfile } from './types.js';

/**
 * A financial profile is a node keyed by its stock symbol (upper case: the key profiles are cached
 * and batched by). Fetching profiles by id batches their symbols into one call, like `financialProfiles`.
 */
lookupNode(FinancialProfile, {
  action: COMPANY_FINANCIAL_PROFILE,
  keyOf: (profile) => str(profile.symbol)?.trim().toUpperCase() ?? '',
  load: (ctx, key) =>
    loadFinancialProfile(
      ctx,
      canonicalKey(key, (value) => canonicalSymbol('id', value)),
    ),
});
