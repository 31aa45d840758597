import { canonicalKey, itemNode } from '../node.js';
import { id } from '../../schema/read.js';
import { canonicalPortal } from './field.js';
import { GET_CRM_OWNERS, loadCrmOwners } from './load.js';
import { CrmOwner } from './types.js';

/** An owner is a node keyed by its portal and its owner id; fetched again from the portal's owner list. */
itemNode(CrmOwner, {
  action: GET_CRM_OWNERS,
  itemKey: (owner) => id(owner.id),
  load: (ctx, key) =>
    loadCrmOwners(
      ctx,
      canonicalKey(key, (value) => canonicalPortal(value) ?? ''),
    ),
  items: (owners) => owners,
});
