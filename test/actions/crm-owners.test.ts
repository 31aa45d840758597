import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { rejectsBeforeUpstream } from '../support/assertions.js';
import { sampleDigits } from '../../src/actions/sample-identity.js';

describe('crmOwners against the sandbox', () => {
  it('resolves every field, archived owners included', async ({ sandbox: gw }) => {
    const { body } = await gw.query(
      '{ crmOwners(portal: "139981") { ownerId email firstName lastName fullName isArchived userRole teams teamCount createdAt updatedAt } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.crmOwners).toEqual([
      {
        ownerId: sampleDigits('owner:139981:1', 8),
        email: 'maria.lopez@acme.example',
        firstName: 'Maria',
        lastName: 'Lopez',
        fullName: 'Maria Lopez',
        isArchived: false,
        userRole: 'Sales Manager',
        teams: ['Sales EMEA', 'Enterprise'],
        teamCount: 2,
        createdAt: '2021-03-04T09:15:22.481Z',
        updatedAt: '2026-10-30T17:02:11.904Z',
      },
      {
        ownerId: sampleDigits('owner:139981:2', 8),
        email: 'dev.patel@acme.example',
        firstName: 'Dev',
        lastName: 'Patel',
        fullName: 'Dev Patel',
        isArchived: false,
        userRole: 'CS Representative',
        teams: ['Customer Success'],
        teamCount: 1,
        createdAt: '2022-07-19T13:40:05.118Z',
        updatedAt: '2026-09-12T08:21:47.035Z',
      },
      {
        ownerId: '98100017',
        email: 'portal.admin@acme.example',
        firstName: 'Portal',
        lastName: 'Admin',
        fullName: 'Portal Admin',
        isArchived: false,
        userRole: 'Super Admin',
        teams: [],
        teamCount: 0,
        createdAt: '2020-01-08T11:00:00.000Z',
        updatedAt: '2026-11-01T10:10:10.010Z',
      },
      {
        ownerId: sampleDigits('owner:139981:4', 8),
        email: 'former.employee@acme.example',
        firstName: '',
        lastName: '',
        fullName: null,
        isArchived: true,
        userRole: 'Sales Representative',
        teams: [],
        teamCount: 0,
        createdAt: '2019-05-27T16:45:31.672Z',
        updatedAt: '2023-02-14T12:00:58.300Z',
      },
    ]);
  });

  it.for([['12a4'], [''], ['  '], ['1'.repeat(21)], ['-5']])('rejects portal %j before any upstream call', async ([portal], { sandbox: gw }) => {
    await rejectsBeforeUpstream(gw, 'query($p: String!) { crmOwners(portal: $p) { ownerId } }', { p: portal }, { field: 'crmOwners', argument: 'portal' });
  });
});
