import { builder } from '../../schema/builder.js';
import { canonicalUsername, loadPhotosocialProfile, photosocialProfileAction } from './load.js';
import { PhotosocialProfile } from './types.js';

builder.queryField(photosocialProfileAction.rootField, (t) =>
  t.field({
    type: PhotosocialProfile,
    description:
      'The public profile of a photo-sharing social account (upstream action get_photosocial_profile). One upstream call per distinct username per operation, whatever the case or a leading "@". Null with NOT_FOUND when the upstream has no such profile.',
    args: {
      username: t.arg.string({
        required: true,
        description:
          'Account name, e.g. "natgeo" or "@natgeo": 1 to 30 letters, digits, "." or "_" after an optional leading "@"; case-insensitive. A profile link with or without its scheme, a sub-page or tracking parameters ("https://www.photosocial.example/natgeo/reels/?igsh=x") is reduced to the username. Links are accepted on instagram.com and photosocial.example (with their subdomains) only: any other host is BAD_USER_INPUT before any upstream call.',
      }),
    },
    resolve: (_root, args, ctx) => loadPhotosocialProfile(ctx, canonicalUsername('username', args.username)),
  }),
);
