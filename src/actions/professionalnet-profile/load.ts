import type { GatewayContext } from '../../operation/context.js';
import type { Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseObject } from '../loader.js';

export const GET_PROFESSIONALNET_PROFILE = 'get_professionalnet_profile';

/** A profile as the upstream sent it, with the handle it was asked for. */
export interface ProfessionalProfileSource {
  raw: Raw;
  handle: string;
}

/** A professional-network profile. The key is the canonical handle (requireHandle). */
export const professionalnetProfileAction = defineLookup<string, ProfessionalProfileSource>({
  action: GET_PROFESSIONALNET_PROFILE,
  rootField: 'professionalnetProfile',
  cacheKey: (handle) => handle,
  body: (handle) => ({ profile_handle: handle }),
  parse: (envelope, handle) => ({ raw: responseObject(envelope, GET_PROFESSIONALNET_PROFILE), handle }),
  ttlSeconds: 3600,
  liveSeconds: 3600,
  namesSymbols: false,
});

/** `handle` must already be validated and canonical (requireHandle). */
export function loadProfessionalProfile(ctx: GatewayContext, handle: string): Promise<ProfessionalProfileSource> {
  return professionalnetProfileAction.load(ctx, handle);
}
