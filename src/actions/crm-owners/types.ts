import { builder } from '../../schema/builder.js';
import { bool, dateTime, id, list, obj, type Raw, str, text } from '../../schema/read.js';

interface Team {
  id: string | null;
  name: string | null;
  isPrimary: boolean | null;
}

/** Teams arrive as strings (older shape) or as `{id, name, primary}` objects (current CRM API). */
function teamsOf(value: unknown): Team[] {
  return list(value).flatMap((item): Team[] => {
    if (typeof item === 'string') return text(item) ? [{ id: null, name: text(item), isPrimary: null }] : [];
    const team = obj(item);
    return team ? [{ id: id(team.id), name: text(team.name), isPrimary: bool(team.primary) }] : [];
  });
}

const CrmTeam = builder.objectRef<Team>('CrmTeam').implement({
  description: 'A team of CRM owners.',
  fields: (t) => ({
    id: t.id({
      description: 'Team identifier; null when the upstream sent the team as a plain name.',
      resolve: (team) => team.id,
    }),
    name: t.string({ description: 'Team name.', resolve: (team) => team.name }),
    isPrimary: t.boolean({
      description: "Whether this is the owner's primary team (upstream `primary`); null when not sent.",
      resolve: (team) => team.isPrimary,
    }),
  }),
});

export const CrmOwner = builder.objectRef<Raw>('CrmOwner').implement({
  description: 'An owner (user) of a CRM portal. Archived owners come back with empty names and no teams.',
  fields: (t) => ({
    ownerId: t.id({
      nullable: false,
      description: "Owner identifier within the portal (upstream `id`). Was `id`, which is now the gateway's node id.",
      resolve: (o) => id(o.id) ?? '',
    }),
    email: t.string({ description: 'Email address of the owner.', resolve: (o) => str(o.email) }),
    firstName: t.string({
      description: 'First name as the CRM holds it; the empty string for archived owners.',
      resolve: (o) => str(o.firstName),
    }),
    lastName: t.string({
      description: 'Last name as the CRM holds it; the empty string for archived owners.',
      resolve: (o) => str(o.lastName),
    }),
    fullName: t.string({
      description: 'First and last name joined by a space; null when both are empty.',
      resolve: (o) => fullName(o),
    }),
    isArchived: t.boolean({
      nullable: false,
      description:
        'Whether the owner is archived: the upstream `archived` flag when it sends one (the current CRM API does), else true when both names are empty and there are no teams, the way the older shape reports archived owners.',
      resolve: (o) => bool(o.archived) ?? (!text(o.firstName) && !text(o.lastName) && !Array.isArray(o.teams)),
    }),
    userId: t.id({
      description:
        'The CRM user behind the owner (upstream `userId`, current CRM API), as a string; null when not sent.',
      resolve: (o) => id(o.userId),
    }),
    type: t.string({
      description: 'Kind of owner as the CRM names it (upstream `type`, e.g. "PERSON" or "QUEUE"); null when not sent.',
      resolve: (o) => str(o.type),
    }),
    teamList: t.field({
      type: [CrmTeam],
      nullable: false,
      description:
        'Teams the owner belongs to, with identifiers where the upstream sends team objects (current CRM API) and names only where it sends strings; empty for archived owners.',
      resolve: (o) => teamsOf(o.teams),
    }),
    userRole: t.string({
      description: 'Role of the user in the portal, as the CRM names it.',
      resolve: (o) => str(o.userRole),
    }),
    teams: t.stringList({
      nullable: false,
      description:
        "Names of the teams the owner belongs to (from team strings or team objects' `name`); empty for archived owners.",
      resolve: (o) => teamsOf(o.teams).flatMap((team) => (team.name ? [team.name] : [])),
    }),
    teamCount: t.int({
      nullable: false,
      description: 'Number of teams the owner belongs to.',
      resolve: (o) => teamsOf(o.teams).length,
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the owner was created (UTC).',
      resolve: (o) => dateTime(o.createdAt),
    }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When the owner last changed (UTC).',
      resolve: (o) => dateTime(o.updatedAt),
    }),
  }),
});

function fullName(owner: Raw): string | null {
  const name = [text(owner.firstName), text(owner.lastName)].filter(Boolean).join(' ');
  return name || null;
}
