import { builder } from '../../schema/builder.js';
import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { crmOwnersAction, loadCrmOwners } from './load.js';
import { looksLikeUrl, looseWebUrl, pathSegments } from '../web-input.js';
import { CrmOwner } from './types.js';

builder.queryField(crmOwnersAction.rootField, (t) =>
  t.field({
    type: [CrmOwner],
    description: 'Owners (users) of a CRM portal (upstream action get_crm_owners), archived ones included.',
    args: {
      portal: t.arg.string({
        required: true,
        description:
          'Portal identifier, e.g. "139981"; a link into the CRM app that names the portal (e.g. "https://app.crm.example/contacts/139981/objects/0-1/views/all") is reduced to it.',
      }),
    },
    resolve: (_root, args, ctx) => {
      const portal = canonicalPortal(requireText('portal', args.portal, 2048));
      if (portal === null)
        throw badInput(
          '"portal" must be the portal\'s numeric identifier such as "139981" (digits only), or a CRM app link that contains it',
          {
            argument: 'portal',
          },
        );
      return loadCrmOwners(ctx, portal);
    },
  }),
);

/** The portal id: digits (leading zeros dropped, as the CRM does), or the first all-digit path segment of an app link. */
export function canonicalPortal(value: string): string | null {
  let digits: string | undefined = value;
  if (looksLikeUrl(value)) {
    const url = looseWebUrl(value);
    digits = url ? pathSegments(url).find((segment) => /^\d{1,20}$/.test(segment)) : undefined;
  }
  if (digits === undefined || !/^\d{1,20}$/.test(digits)) return null;
  return digits.replace(/^0+(?=\d)/, '');
}
