import type { GatewayContext } from '../../operation/context.js';
import { objects, type Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseArray } from '../loader.js';

export const GET_CRM_OWNERS = 'get_crm_owners';

/** Owners of a CRM portal. The key is the portal's numeric identifier. */
export const crmOwnersAction = defineLookup<string, Raw[]>({
  action: GET_CRM_OWNERS,
  rootField: 'crmOwners',
  cacheKey: (portal) => portal,
  body: (portal) => ({ crm_portal: portal }),
  parse: (envelope) => objects(responseArray(envelope, GET_CRM_OWNERS)),
  ttlSeconds: 300,
  liveSeconds: 300,
  namesSymbols: false,
});

export function loadCrmOwners(ctx: GatewayContext, portal: string): Promise<Raw[]> {
  return crmOwnersAction.load(ctx, portal);
}
