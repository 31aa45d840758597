import type { GatewayContext } from '../../operation/context.js';
import { defineLookup } from '../descriptor.js';
import { responseObject } from '../loader.js';
import type { Raw } from '../../schema/read.js';

export const DOMAIN_INFO = 'domain_info';

/** A domain record as the upstream sent it, with the domain it was asked for. */
export interface DomainRecordSource {
  raw: Raw;
  requestedDomain: string;
}

/** The registration record of a domain. The key is the canonical domain (requireDomain / domainKey). */
export const domainInfoAction = defineLookup<string, DomainRecordSource>({
  action: DOMAIN_INFO,
  rootField: 'domainInfo',
  cacheKey: (domain) => domain,
  body: (domain) => ({ domain }),
  parse: (envelope, domain) => ({ raw: responseObject(envelope, DOMAIN_INFO), requestedDomain: domain }),
  ttlSeconds: 6 * 3600,
  liveSeconds: 3600,
  namesSymbols: true, // its company link leads to a ticker
});

/** `domain` must already be validated and canonical (lower-case ASCII). */
export function loadDomainRecord(ctx: GatewayContext, domain: string): Promise<DomainRecordSource> {
  return domainInfoAction.load(ctx, domain);
}
