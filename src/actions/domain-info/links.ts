/** Links from a domain record to other lookups, through this operation's loaders. */
import { builder } from '../../schema/builder.js';
import { str } from '../../schema/read.js';
import { companyObjectAction } from '../company-object/load.js';
import { Company } from '../company-object/types.js';
import { link } from '../descriptor.js';
import type { DomainRecordSource } from './load.js';
import { DomainRecord } from './types.js';

builder.objectField(DomainRecord, 'company', (t) =>
  t.field({
    type: Company,
    description:
      'The company that uses this domain, looked up by the domain this record was asked for (as `company(domain:)` with the same domain), so `domainInfo(domain: "x") { company }` and `company(domain: "x")` are one lookup. Null, with no lookup, for a domain that is not registered; null with a coded error when the lookup fails.',
    // The requested (canonical) domain, not the record's `domain_name`, which may be another spelling ("www.cnn.com").
    ...link(companyObjectAction, (record: DomainRecordSource) =>
      str(record.raw.domain_registered)?.trim().toLowerCase() === 'no' ? null : record.requestedDomain,
    ),
  }),
);
