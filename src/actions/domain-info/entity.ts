import { lookupEntity } from '../entity.js';
import { builder } from '../../schema/builder.js';
import { requireDomain } from '../validate.js';
import { domainInfoAction } from './load.js';
import { DomainRecord } from './types.js';

// `domainName` is the registry's spelling; the entity's key is the domain the record was looked up by.
builder.objectField(DomainRecord, 'requestedDomain', (t) =>
  t.string({
    nullable: false,
    description:
      'The domain this record was looked up by, in canonical form (lower-case ASCII, no "www."): the key of `domainInfo(domain:)`, and the Federation key of this type.',
    resolve: (record) => record.requestedDomain,
  }),
);

/** A registration record is a Federation entity keyed by the domain asked, in any form `domainInfo(domain:)` accepts. */
lookupEntity(DomainRecord, { key: 'requestedDomain', lookup: domainInfoAction, canonical: requireDomain });
