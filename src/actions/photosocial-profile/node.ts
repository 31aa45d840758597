import { canonicalKey, lookupNode } from '../node.js';
import { canonicalUsername, GET_PHOTOSOCIAL_PROFILE, loadPhotosocialProfile } from './load.js';
import { PhotosocialProfile } from './types.js';

/** A photo-social profile is a node keyed by the (lower-case) username it was looked up by. */
lookupNode(PhotosocialProfile, {
  action: GET_PHOTOSOCIAL_PROFILE,
  keyOf: (profile) => profile.requestedUsername,
  load: (ctx, key) =>
    loadPhotosocialProfile(
      ctx,
      canonicalKey(key, (value) => canonicalUsername('id', value)),
    ),
});
