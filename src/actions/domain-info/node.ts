import { canonicalKey, lookupNode } from '../node.js';
import { requireDomain } from '../validate.js';
import { DOMAIN_INFO, loadDomainRecord } from './load.js';
import { DomainRecord } from './types.js';

/** A registration record is a node keyed by the domain it was looked up by. */
lookupNode(DomainRecord, {
  action: DOMAIN_INFO,
  keyOf: (record) => record.requestedDomain,
  load: (ctx, key) =>
    loadDomainRecord(
      ctx,
      canonicalKey(key, (value) => requireDomain('id', value)),
    ),
});
