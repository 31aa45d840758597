import { canonicalKey, lookupNode } from '../node.js';
import { requireDomain } from '../validate.js';
import { GET_COMPANY_OBJECT, loadCompany } from './load.js';
import { Company } from './types.js';

/** A company is a node keyed by the domain it was looked up by. */
lookupNode(Company, {
  action: GET_COMPANY_OBJECT,
  keyOf: (company) => company.requestedDomain,
  load: (ctx, key) =>
    loadCompany(
      ctx,
      canonicalKey(key, (value) => requireDomain('id', value)),
    ),
});
