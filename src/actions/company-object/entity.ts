import { lookupEntity } from '../entity.js';
import { requireDomain } from '../validate.js';
import { companyObjectAction } from './load.js';
import { Company } from './types.js';

/** A company is a Federation entity keyed by its domain, in any form `company(domain:)` accepts (a URL, "www.", any case). */
lookupEntity(Company, { key: 'domain', lookup: companyObjectAction, canonical: requireDomain });
