import { lookupEntity } from '../entity.js';
import { canonicalSymbol, financialProfileAction } from './load.js';
import { FinancialProfile } from './types.js';

/**
 * A financial profile is a Federation entity keyed by its stock symbol, in any form `financialProfiles(symbols:)`
 * accepts ("brk.b", "$BRK/B"); every symbol of one `_entities` request goes upstream in one call.
 */
lookupEntity(FinancialProfile, { key: 'symbol', lookup: financialProfileAction, canonical: canonicalSymbol });
