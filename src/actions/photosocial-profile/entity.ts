import { lookupEntity } from '../entity.js';
import { canonicalUsername, photosocialProfileAction } from './load.js';
import { PhotosocialProfile } from './types.js';

/** A photo-social profile is a Federation entity keyed by its username, in any form `photosocialProfile(username:)` accepts ("@name", a profile URL). */
lookupEntity(PhotosocialProfile, { key: 'username', lookup: photosocialProfileAction, canonical: canonicalUsername });
