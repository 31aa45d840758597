import { builder } from '../../schema/builder.js';
import { requireDomain } from '../validate.js';
import { domainInfoAction, loadDomainRecord } from './load.js';
import { DomainRecord } from './types.js';

builder.queryField(domainInfoAction.rootField, (t) =>
  t.field({
    type: DomainRecord,
    description:
      'The registration record of a domain (upstream action domain_info). One upstream call per distinct domain per operation.',
    args: {
      domain: t.arg.string({
        required: true,
        description:
          'Domain name to look up, e.g. "example.com". A web address is reduced to its domain ("https://www.example.com/about" is "example.com"); case, a "www." or "m." prefix and a trailing dot are ignored; internationalised names are accepted.',
      }),
    },
    resolve: (_root, args, ctx) => loadDomainRecord(ctx, requireDomain('domain', args.domain)),
  }),
);
