/** get_professionalnet_profile (contract 2.6): minimal for now; the large-profiles issue completes it. */
export function professionalnetProfile(handle: string): Record<string, unknown> {
  return { profile_id: handle, first_name: 'Sam', last_name: 'Rivera', sub_title: 'Engineering Manager', skills: ['GraphQL'] };
}
