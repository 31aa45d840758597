import { canonicalKey, lookupNode } from '../node.js';
import { requireHandle } from './handle.js';
import { GET_PROFESSIONALNET_PROFILE, loadProfessionalProfile } from './load.js';
import { ProfessionalProfile } from './types.js';

/** A professional profile is a node keyed by the canonical handle it was looked up by. */
lookupNode(ProfessionalProfile, {
  action: GET_PROFESSIONALNET_PROFILE,
  keyOf: (profile) => profile.handle,
  load: (ctx, key) =>
    loadProfessionalProfile(
      ctx,
      canonicalKey(key, (value) => requireHandle('id', value)),
    ),
});
