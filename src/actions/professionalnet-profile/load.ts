import type { GatewayContext } from '../../context.js';
import type { Raw } from '../../schema/read.js';
import { lookup, responseObject, type LookupSpec } from '../loader.js';

export const GET_PROFESSIONALNET_PROFILE = 'get_professionalnet_profile';

/** A profile as the upstream sent it, with the handle it was asked for. */
export interface ProfessionalProfileSource {
  raw: Raw;
  handle: string;
}

const spec: LookupSpec<string, ProfessionalProfileSource> = {
  action: GET_PROFESSIONALNET_PROFILE,
  cacheKey: (handle) => handle,
  body: (handle) => ({ profile_handle: handle }),
  parse: (envelope, handle) => ({ raw: responseObject(envelope, GET_PROFESSIONALNET_PROFILE), handle }),
};

/** `handle` must already be validated and canonical (requireHandle). */
export function loadProfessionalProfile(ctx: GatewayContext, handle: string): Promise<ProfessionalProfileSource> {
  return lookup(ctx, spec, handle);
}
