import { lookupEntity } from '../entity.js';
import { requireHandle } from './handle.js';
import { professionalnetProfileAction } from './load.js';
import { ProfessionalProfile } from './types.js';

/** A professional profile is a Federation entity keyed by its handle, in any form `professionalnetProfile(handle:)` accepts (a profile URL, any case). */
lookupEntity(ProfessionalProfile, { key: 'handle', lookup: professionalnetProfileAction, canonical: requireHandle });
