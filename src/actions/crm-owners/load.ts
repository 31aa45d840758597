import type { GatewayContext } from '../../context.js';
import { objects, type Raw } from '../../schema/read.js';
import { lookup, responseArray, type LookupSpec } from '../loader.js';

export const GET_CRM_OWNERS = 'get_crm_owners';

const spec: LookupSpec<string, Raw[]> = {
  action: GET_CRM_OWNERS,
  cacheKey: (portal) => portal,
  body: (portal) => ({ crm_portal: portal }),
  parse: (envelope) => objects(responseArray(envelope, GET_CRM_OWNERS)),
};

export function loadCrmOwners(ctx: GatewayContext, portal: string): Promise<Raw[]> {
  return lookup(ctx, spec, portal);
}
