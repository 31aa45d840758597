import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { itRejectsBeforeUpstream } from '../support/assertions.js';
import { sampleDigits } from '../../src/sandbox/data/identity.js';

describe('crmOwners against the sandbox', () => {
  it('resolves every field, archived owners included', async ({ sandbox: gw }) => {
    const { body } = await gw.query(
      '{ crmOwners(portal: "139981") { ownerId email firstName lastName fullName isArchived userRole teams teamCount createdAt updatedAt } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.crmOwners).toEqual([
      {
        ownerId: sampleDigits('owner:139981:1', 8),
        email: 'nora.ek@hooli.example',
        firstName: 'Nora',
        lastName: 'Ek',
        fullName: 'Nora Ek',
        isArchived: false,
        userRole: 'Sales Manager',
        teams: ['Sales EMEA', 'Partnerships'],
        teamCount: 2,
        createdAt: '2020-01-08T02:02:04.662Z',
        updatedAt: '2026-08-13T01:24:18.953Z',
      },
      {
        ownerId: sampleDigits('owner:139981:2', 8),
        email: 'sam.lopez@hooli.example',
        firstName: 'Sam',
        lastName: 'Lopez',
        fullName: 'Sam Lopez',
        isArchived: false,
        userRole: 'CS Representative',
        teams: ['Customer Success'],
        teamCount: 1,
        createdAt: '2018-05-11T18:33:23.644Z',
        updatedAt: '2026-08-18T00:55:57.638Z',
      },
      {
        ownerId: '98100017',
        email: 'portal.admin@hooli.example',
        firstName: 'Portal',
        lastName: 'Admin',
        fullName: 'Portal Admin',
        isArchived: false,
        userRole: 'Super Admin',
        teams: [],
        teamCount: 0,
        createdAt: '2021-01-30T09:39:55.988Z',
        updatedAt: '2026-08-02T07:13:07.079Z',
      },
      {
        ownerId: sampleDigits('owner:139981:4', 8),
        email: 'former.employee@hooli.example',
        firstName: '',
        lastName: '',
        fullName: null,
        isArchived: true,
        userRole: 'Sales Representative',
        teams: [],
        teamCount: 0,
        createdAt: '2021-12-17T05:25:27.207Z',
        updatedAt: '2023-11-12T16:14:32.920Z',
      },
    ]);
  });

  itRejectsBeforeUpstream('crmOwners', 'portal', 'ownerId', [['12a4'], [''], ['  '], ['1'.repeat(21)], ['-5']]);
});
