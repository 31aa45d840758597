import { builder } from '../../schema/builder.js';
import { requireHandle } from './handle.js';
import { loadProfessionalProfile, professionalnetProfileAction } from './load.js';
import { ProfessionalProfile } from './types.js';

builder.queryField(professionalnetProfileAction.rootField, (t) =>
  t.field({
    type: ProfessionalProfile,
    description:
      "A person's profile on the professional network (upstream action get_professionalnet_profile): headline, location, career, education, certifications, publications, skills. The upstream payload is large; select only the fields you show. One upstream call per distinct handle per operation.",
    args: {
      handle: t.arg.string({
        required: true,
        description:
          'The profile handle, 3 to 100 letters, digits, "-" or "_" (e.g. "sam-rivera"), case-insensitive; a profile link with or without its scheme, a sub-page or tracking parameters ("www.professionalnet.example/in/sam-rivera/details/experience/") is reduced to the handle. Links are accepted on linkedin.com and professionalnet.example (with their subdomains) only: any other host is BAD_USER_INPUT before any upstream call.',
      }),
    },
    resolve: (_root, args, ctx) => loadProfessionalProfile(ctx, requireHandle('handle', args.handle)),
  }),
);
