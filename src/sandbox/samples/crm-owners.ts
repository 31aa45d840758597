import type { SandboxAnswer } from '../answer.js';
import { sampleDigits } from '../data/identity.js';
import { FIRST_NAMES, LAST_NAMES } from '../data/places.js';
import { seededPick, seededSubset, seededTimestamp } from '../data/seeded.js';

const COMPANIES = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'vandelay'];
const TEAMS = ['Sales EMEA', 'Sales Americas', 'Enterprise', 'Customer Success', 'Partnerships', 'Inbound'];

/**
 * get_crm_owners (contract 2.10): three active owners and one archived one (empty names, no teams).
 * Names, e-mail domain, teams and dates are derived from the portal id.
 */
function crmOwners(portal: string): Record<string, unknown>[] {
  const seed = (what: string) => `crm:${portal}:${what}`;
  const company = seededPick(seed('company'), COMPANIES);
  const person = (n: number) => {
    const firstName = seededPick(seed(`first${n}`), FIRST_NAMES);
    const lastName = seededPick(seed(`last${n}`), LAST_NAMES);
    return { email: `${firstName}.${lastName}@${company}.example`.toLowerCase(), firstName, lastName };
  };
  const created = (n: number) => seededTimestamp(seed(`created${n}`), '2018-01-01T00:00:00Z', '2023-12-31T00:00:00Z');
  const updated = (n: number) => seededTimestamp(seed(`updated${n}`), '2026-01-01T00:00:00Z', '2026-11-15T00:00:00Z');
  return [
    {
      id: sampleDigits(`owner:${portal}:1`, 8),
      ...person(1),
      createdAt: created(1),
      updatedAt: updated(1),
      teams: seededSubset(seed('teams1'), TEAMS, 2),
      userRole: 'Sales Manager',
    },
    {
      id: sampleDigits(`owner:${portal}:2`, 8),
      ...person(2),
      createdAt: created(2),
      updatedAt: updated(2),
      teams: seededSubset(seed('teams2'), TEAMS, 1),
      userRole: 'CS Representative',
    },
    {
      id: `${portal.slice(-3)}00017`,
      email: `portal.admin@${company}.example`,
      firstName: 'Portal',
      lastName: 'Admin',
      createdAt: created(3),
      updatedAt: updated(3),
      teams: [],
      userRole: 'Super Admin',
    },
    {
      id: sampleDigits(`owner:${portal}:4`, 8),
      email: `former.employee@${company}.example`,
      firstName: '',
      lastName: '',
      createdAt: created(4),
      updatedAt: seededTimestamp(seed('updated4'), '2023-01-01T00:00:00Z', '2024-12-31T00:00:00Z'),
      userRole: 'Sales Representative',
    },
  ];
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = { required: ['crm_portal'], respond: (b) => ({ response: crmOwners(String(b.crm_portal)) }) };
