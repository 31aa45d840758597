import { builder } from '../../schema/builder.js';
import { badInput } from '../../upstream/errors.js';
import { requireText } from '../validate.js';
import { loadCrmOwners } from './load.js';
import { CrmOwner } from './types.js';

builder.queryField('crmOwners', (t) =>
  t.field({
    type: [CrmOwner],
    nullable: true,
    description: 'Owners (users) of a CRM portal (upstream action get_crm_owners), archived ones included.',
    args: {
      portal: t.arg.string({ required: true, description: 'Portal identifier: digits only, e.g. "139981".' }),
    },
    resolve: (_root, args, ctx) => {
      const portal = requireText('portal', args.portal, 20);
      if (!/^\d+$/.test(portal)) throw badInput('"portal" must be the portal\'s numeric identifier (digits only)', { argument: 'portal' });
      return loadCrmOwners(ctx, portal);
    },
  }),
);
