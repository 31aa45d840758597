import type { GatewayContext } from '../../context.js';
import type { Raw } from '../../schema/read.js';
import { lookup, responseObject, type LookupSpec } from '../loader.js';

export const GET_COMPANY_OBJECT = 'get_company_object';

/** A company object as the upstream sent it, with the domain it was asked for. */
export interface CompanySource {
  raw: Raw;
  requestedDomain: string;
}

const spec: LookupSpec<string, CompanySource> = {
  action: GET_COMPANY_OBJECT,
  cacheKey: (domain) => domain,
  body: (domain) => ({ domain }),
  parse: (envelope, domain) => ({ raw: responseObject(envelope, GET_COMPANY_OBJECT), requestedDomain: domain }),
};

/** `domain` must already be validated and canonical (requireDomain: lower-case ASCII). */
export function loadCompany(ctx: GatewayContext, domain: string): Promise<CompanySource> {
  return lookup(ctx, spec, domain);
}
