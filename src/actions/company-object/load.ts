import type { GatewayContext } from '../../operation/context.js';
import type { Raw } from '../../schema/read.js';
import { defineLookup } from '../descriptor.js';
import { responseObject } from '../loader.js';

export const GET_COMPANY_OBJECT = 'get_company_object';

/** A company object as the upstream sent it, with the domain it was asked for. */
export interface CompanySource {
  raw: Raw;
  requestedDomain: string;
}

/** Enriched company data by domain. The key is the canonical domain (requireDomain / domainKey). */
export const companyObjectAction = defineLookup<string, CompanySource>({
  action: GET_COMPANY_OBJECT,
  rootField: 'company',
  cacheKey: (domain) => domain,
  body: (domain) => ({ domain }),
  parse: (envelope, domain) => ({ raw: responseObject(envelope, GET_COMPANY_OBJECT), requestedDomain: domain }),
  ttlSeconds: 6 * 3600,
  liveSeconds: 3600,
  namesSymbols: true, // a company's ticker
});

/** `domain` must already be validated and canonical (requireDomain: lower-case ASCII). */
export function loadCompany(ctx: GatewayContext, domain: string): Promise<CompanySource> {
  return companyObjectAction.load(ctx, domain);
}
