/**
 * Links from a company to other lookups, resolved through this operation's loaders: repeats are
 * deduplicated and every ticker of the operation goes into one financial call.
 */
import { builder } from '../../schema/builder.js';
import { obj, text } from '../../schema/read.js';
import { linkCost } from '../../cost/model.js';
import { DOMAIN_INFO, loadDomainRecord } from '../domain-info/load.js';
import { DomainRecord } from '../domain-info/types.js';
import { COMPANY_FINANCIAL_PROFILE, loadFinancialProfile } from '../financial-profile/load.js';
import { FinancialProfile } from '../financial-profile/types.js';
import { domainKey, symbolKey } from '../link-keys.js';
import { GET_COMPANY_OBJECT, loadCompany, type CompanySource } from './load.js';
import { Company } from './types.js';

/** The domain a company record stands for: its own `domain` when that is a domain name, else the one it was asked for. */
function companyDomain(company: CompanySource): string | null {
  return domainKey(text(company.raw.domain)) ?? domainKey(company.requestedDomain);
}

builder.objectFields(Company, (t) => ({
  financialProfile: t.field({
    type: FinancialProfile,
    nullable: true,
    description:
      'The company\'s financial and market profile, looked up by its `ticker` (as `financialProfiles(symbols:)`). Null, with no lookup, when the company has no ticker; null with a coded error when the lookup fails. The tickers of every company in one operation go upstream in one call.',
    extensions: linkCost(COMPANY_FINANCIAL_PROFILE, { batchedSymbols: true }),
    resolve: (company, _args, ctx) => {
      const symbol = symbolKey(company.raw.ticker);
      return symbol ? loadFinancialProfile(ctx, symbol) : null;
    },
  }),
  domainInfo: t.field({
    type: DomainRecord,
    nullable: true,
    description: 'The registration (WHOIS) record of the company\'s domain (as `domainInfo(domain:)`). Null, with no lookup, when the company has no usable domain.',
    extensions: linkCost(DOMAIN_INFO),
    resolve: (company, _args, ctx) => {
      const domain = companyDomain(company);
      return domain ? loadDomainRecord(ctx, domain) : null;
    },
  }),
  parent: t.field({
    type: Company,
    nullable: true,
    description: 'The direct parent company, looked up by `parentDomain`. Null, with no lookup, when the company has no known parent.',
    extensions: linkCost(GET_COMPANY_OBJECT),
    resolve: (company, _args, ctx) => {
      const domain = domainKey(obj(company.raw.parent)?.domain);
      return domain ? loadCompany(ctx, domain) : null;
    },
  }),
  ultimateParent: t.field({
    type: Company,
    nullable: true,
    description:
      'The top-most parent company, looked up by `ultimateParentDomain`. A company that is its own top parent links to itself at no extra cost (the lookup is shared). Null, with no lookup, when unknown.',
    extensions: linkCost(GET_COMPANY_OBJECT),
    resolve: (company, _args, ctx) => {
      const domain = domainKey(obj(company.raw.ultimateParent)?.domain);
      return domain ? loadCompany(ctx, domain) : null;
    },
  }),
}));
