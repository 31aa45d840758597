/** get_company_object (contract 2.7): minimal for now; the large-profiles issue completes it. */
export function companyObject(domain: string): Record<string, unknown> {
  return { id: '2f6a3c9e-5b1d-4e8a-9c07-3d2b1a0f4e6c', name: 'Sandbox Company', domain, ticker: 'HUBS', type: 'public' };
}
