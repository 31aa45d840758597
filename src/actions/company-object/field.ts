import { builder } from '../../schema/builder.js';
import { requireDomain } from '../validate.js';
import { companyObjectAction, loadCompany } from './load.js';
import { Company } from './types.js';

builder.queryField(companyObjectAction.rootField, (t) =>
  t.field({
    type: Company,
    description:
      "Enriched company data found by the company's web domain (upstream action get_company_object): firmographics, categories, location, social accounts, metrics. One upstream call per distinct domain per operation.",
    args: {
      domain: t.arg.string({
        required: true,
        description:
          'The company\'s web domain, e.g. "hubspot.com". A web address is reduced to its domain ("https://www.hubspot.com/pricing" and "www.hubspot.com" are "hubspot.com"); case, a "www." or "m." prefix and a trailing dot are ignored; internationalised names are accepted.',
      }),
    },
    resolve: (_root, args, ctx) => loadCompany(ctx, requireDomain('domain', args.domain)),
  }),
);
