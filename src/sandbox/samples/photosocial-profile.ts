/** get_photosocial_profile (contract 2.2): minimal for now; the large-profiles issue completes it. */
export function photosocialProfile(username: string): Record<string, unknown> {
  return { username, full_name: 'Sandbox Account', id: '1067259270', photosocial_pk: '1067259270', follower_count: 1520334, is_private: false, is_verified: true };
}
