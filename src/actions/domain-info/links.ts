/** Links from a domain record to other lookups, through this operation's loaders. */
import { builder } from '../../schema/builder.js';
import { str } from '../../schema/read.js';
import { linkCost } from '../../cost/model.js';
import { GET_COMPANY_OBJECT, loadCompany } from '../company-object/load.js';
import { Company } from '../company-object/types.js';
import { domainKey } from '../link-keys.js';
import { DomainRecord } from './types.js';

builder.objectField(DomainRecord, 'company', (t) =>
  t.field({
    type: Company,
    nullable: true,
    description:
      'The company that uses this domain, looked up by `domainName` (as `company(domain:)`). Null, with no lookup, for a domain that is not registered; null with a coded error when the lookup fails.',
    extensions: linkCost(GET_COMPANY_OBJECT),
    resolve: (record, _args, ctx) => {
      if (str(record.raw.domain_registered)?.trim().toLowerCase() === 'no') return null;
      const domain = domainKey(str(record.raw.domain_name) ?? record.requestedDomain);
      return domain ? loadCompany(ctx, domain) : null;
    },
  }),
);
