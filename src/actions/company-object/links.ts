/**
 * Links from a company to other lookups, resolved through this operation's loaders: repeats are
 * deduplicated and every ticker of the operation goes into one financial call.
 */
import { builder } from '../../schema/builder.js';
import { obj } from '../../schema/read.js';
import { link } from '../descriptor.js';
import { domainInfoAction } from '../domain-info/load.js';
import { DomainRecord } from '../domain-info/types.js';
import { financialProfileAction } from '../financial-profile/load.js';
import { FinancialProfile } from '../financial-profile/types.js';
import { domainKey, symbolKey } from '../link-keys.js';
import { companyObjectAction, type CompanySource } from './load.js';
import { Company } from './types.js';

builder.objectFields(Company, (t) => ({
  financialProfile: t.field({
    type: FinancialProfile,
    description:
      "The company's financial and market profile, looked up by its `ticker` in canonical form (as `financialProfiles(symbols:)` reads it). Null, with no lookup, when the company has no ticker; null with a coded error when the lookup fails. The tickers of every company in one operation go upstream in one call.",
    ...link(financialProfileAction, (company: CompanySource) => symbolKey(company.raw.ticker)),
  }),
  domainInfo: t.field({
    type: DomainRecord,
    description:
      'The registration (WHOIS) record of the domain this company was looked up by (as `domainInfo(domain:)` with the same domain), so `company(domain: "x") { domainInfo }` and `domainInfo(domain: "x")` are one lookup.',
    // The key asked for, not the record's own `domain` spelling: the same thing asked two ways is one call.
    ...link(domainInfoAction, (company: CompanySource) => company.requestedDomain),
  }),
  parent: t.field({
    type: Company,
    description:
      'The direct parent company, looked up by `parentDomain` in canonical form. Null, with no lookup, when the company has no known parent.',
    ...link(companyObjectAction, (company: CompanySource) => domainKey(obj(company.raw.parent)?.domain)),
  }),
  ultimateParent: t.field({
    type: Company,
    description:
      'The top-most parent company, looked up by `ultimateParentDomain` in canonical form. A company that is its own top parent links to itself at no extra cost (the lookup is shared). Null, with no lookup, when unknown.',
    ...link(companyObjectAction, (company: CompanySource) => domainKey(obj(company.raw.ultimateParent)?.domain)),
  }),
}));
