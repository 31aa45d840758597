import { builder } from '../../schema/builder.js';
import { dateTime, id, list, strings, text, type Raw } from '../../schema/read.js';

export const CrmOwner = builder.objectRef<Raw>('CrmOwner').implement({
  description: 'An owner (user) of a CRM portal. Archived owners come back with empty names and no teams.',
  fields: (t) => ({
    ownerId: t.id({ description: 'Owner identifier within the portal (upstream `id`). Was `id`, which is now the gateway\'s node id.', resolve: (o) => id(o.id) ?? '' }),
    email: t.string({ nullable: true, description: 'Email address of the owner.', resolve: (o) => text(o.email) }),
    firstName: t.string({ nullable: true, description: 'First name; null when the upstream sends it empty (archived owners).', resolve: (o) => text(o.firstName) }),
    lastName: t.string({ nullable: true, description: 'Last name; null when the upstream sends it empty (archived owners).', resolve: (o) => text(o.lastName) }),
    fullName: t.string({ nullable: true, description: 'First and last name joined by a space; null when both are empty.', resolve: (o) => fullName(o) }),
    isArchived: t.boolean({
      description: 'True when the owner looks archived: both names empty and no teams, the way the upstream reports archived owners.',
      resolve: (o) => !text(o.firstName) && !text(o.lastName) && !Array.isArray(o.teams),
    }),
    userRole: t.string({ nullable: true, description: 'Role of the user in the portal, as the CRM names it.', resolve: (o) => text(o.userRole) }),
    teams: t.stringList({ description: 'Teams the owner belongs to; empty for archived owners.', resolve: (o) => strings(o.teams) }),
    teamCount: t.int({ description: 'Number of teams the owner belongs to.', resolve: (o) => list(o.teams).length }),
    createdAt: t.field({ type: 'DateTime', nullable: true, description: 'When the owner was created (UTC).', resolve: (o) => dateTime(o.createdAt) }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, description: 'When the owner last changed (UTC).', resolve: (o) => dateTime(o.updatedAt) }),
  }),
});

function fullName(owner: Raw): string | null {
  const name = [text(owner.firstName), text(owner.lastName)].filter(Boolean).join(' ');
  return name || null;
}
