import { builder } from '../../schema/builder.js';
import { id, type Raw, safeInt, str, url } from '../../schema/read.js';

export const CompanySocialHandle = builder.objectRef<Raw>('CompanySocialHandle').implement({
  description:
    "A company's account on a social or business-data site, identified by its handle (the path after the site's host).",
  fields: (t) => ({
    handle: t.string({
      description: 'The handle as the site uses it in its URLs, e.g. "company/hubspot" or "organization/hubspot".',
      resolve: (s) => str(s.handle),
    }),
  }),
});

export const CompanyFacebook = builder.objectRef<Raw>('CompanyFacebook').implement({
  description: "A company's page on the social network (upstream `facebook`).",
  fields: (t) => ({
    handle: t.string({ description: 'The page handle, e.g. "hubspot".', resolve: (s) => str(s.handle) }),
    likes: t.field({ type: 'SafeInt', description: 'Number of likes of the page.', resolve: (s) => safeInt(s.likes) }),
  }),
});

export const CompanyTwitter = builder.objectRef<Raw>('CompanyTwitter').implement({
  description:
    "A company's microblogging account (upstream `twitter`). The whole object is null for companies without one.",
  fields: (t) => ({
    handle: t.string({ description: 'The account handle without "@", e.g. "HubSpot".', resolve: (s) => str(s.handle) }),
    accountId: t.id({
      description:
        'Numeric account identifier, as a string (upstream `id`). Was `id`: this gateway keeps `id` for node ids.',
      resolve: (s) => id(s.id),
    }),
    bio: t.string({ description: "The account's biography text.", resolve: (s) => str(s.bio) }),
    location: t.string({ description: 'Location the account gives, free text.', resolve: (s) => str(s.location) }),
    avatarUrl: t.field({
      type: 'URL',
      description: 'Profile image URL (upstream `avatar`).',
      resolve: (s) => url(s.avatar),
    }),
    siteUrl: t.field({
      type: 'URL',
      description: 'Website linked from the account (upstream `site`); often a short link.',
      resolve: (s) => url(s.site),
    }),
    followerCount: t.field({
      type: 'SafeInt',
      description: 'Number of followers (upstream `followers`).',
      resolve: (s) => safeInt(s.followers),
    }),
    followingCount: t.field({
      type: 'SafeInt',
      description: 'Number of accounts it follows (upstream `following`).',
      resolve: (s) => safeInt(s.following),
    }),
  }),
});
