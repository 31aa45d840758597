import { sampleDigits } from '../sample-identity.js';

/** get_crm_owners (contract 2.10): three active owners and one archived one (empty names, no teams). */
export function crmOwners(portal: string): Record<string, unknown>[] {
  return [
    {
      id: sampleDigits(`owner:${portal}:1`, 8),
      email: 'maria.lopez@acme.example',
      firstName: 'Maria',
      lastName: 'Lopez',
      createdAt: '2021-03-04T09:15:22.481Z',
      updatedAt: '2026-10-30T17:02:11.904Z',
      teams: ['Sales EMEA', 'Enterprise'],
      userRole: 'Sales Manager',
    },
    {
      id: sampleDigits(`owner:${portal}:2`, 8),
      email: 'dev.patel@acme.example',
      firstName: 'Dev',
      lastName: 'Patel',
      createdAt: '2022-07-19T13:40:05.118Z',
      updatedAt: '2026-09-12T08:21:47.035Z',
      teams: ['Customer Success'],
      userRole: 'CS Representative',
    },
    {
      id: `${portal.slice(-3)}00017`,
      email: 'portal.admin@acme.example',
      firstName: 'Portal',
      lastName: 'Admin',
      createdAt: '2020-01-08T11:00:00.000Z',
      updatedAt: '2026-11-01T10:10:10.010Z',
      teams: [],
      userRole: 'Super Admin',
    },
    {
      id: sampleDigits(`owner:${portal}:4`, 8),
      email: 'former.employee@acme.example',
      firstName: '',
      lastName: '',
      createdAt: '2019-05-27T16:45:31.672Z',
      updatedAt: '2023-02-14T12:00:58.300Z',
      userRole: 'Sales Representative',
    },
  ];
}
