/** Links from a financial profile to other lookups, through this operation's loaders. */
import { builder } from '../../schema/builder.js';
import type { Raw } from '../../schema/read.js';
import { companyObjectAction } from '../company-object/load.js';
import { Company } from '../company-object/types.js';
import { link } from '../descriptor.js';
import { websiteDomain } from '../link-keys.js';
import { FinancialProfile } from './types.js';

builder.objectField(FinancialProfile, 'company', (t) =>
  t.field({
    type: Company,
    description:
      'The company behind the symbol, looked up by the registrable domain of `website` ("https://www.hubspot.com" -> "hubspot.com", "https://investors.nike.com" -> "nike.com"). Null, with no lookup, when the profile has no website.',
    ...link(companyObjectAction, (profile: Raw) => websiteDomain(profile.website)),
  }),
);
