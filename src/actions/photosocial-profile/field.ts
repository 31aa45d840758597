import { builder } from '../../schema/builder.js';
import { canonicalUsername, loadPhotosocialProfile } from './load.js';
import { PhotosocialProfile } from './types.js';

builder.queryField('photosocialProfile', (t) =>
  t.field({
    type: PhotosocialProfile,
    nullable: true,
    description:
      'The public profile of a photo-sharing social account (upstream action get_photosocial_profile). One upstream call per distinct username per operation, whatever the case or a leading "@". Null with NOT_FOUND when the upstream has no such profile.',
    args: {
      username: t.arg.string({
        required: true,
        description: 'Account name, e.g. "natgeo" or "@natgeo": 1 to 30 letters, digits, "." or "_" after an optional leading "@"; case-insensitive.',
      }),
    },
    resolve: (_root, args, ctx) => loadPhotosocialProfile(ctx, canonicalUsername('username', args.username)),
  }),
);
