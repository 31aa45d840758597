import type { GatewayContext } from '../../context.js';
import { lookup, responseObject, type LookupSpec } from '../loader.js';
import type { Raw } from '../../schema/read.js';

export const DOMAIN_INFO = 'domain_info';

/** A domain record as the upstream sent it, with the domain it was asked for. */
export interface DomainRecordSource {
  raw: Raw;
  requestedDomain: string;
}

const spec: LookupSpec<string, DomainRecordSource> = {
  action: DOMAIN_INFO,
  cacheKey: (domain) => domain,
  body: (domain) => ({ domain }),
  parse: (envelope, domain) => ({ raw: responseObject(envelope, DOMAIN_INFO), requestedDomain: domain }),
};

/** `domain` must already be validated and canonical (lower-case ASCII). */
export function loadDomainRecord(ctx: GatewayContext, domain: string): Promise<DomainRecordSource> {
  return lookup(ctx, spec, domain);
}
