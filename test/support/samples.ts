/** Ten companies the sandbox knows, each listed on an exchange: their financial profiles can go in one call. */
const TEN_LISTED_DOMAINS = [
  'apple.com',
  'nike.com',
  'microsoft.com',
  'abc.xyz',
  'amazon.com',
  'tesla.com',
  'meta.com',
  'nvidia.com',
  'ibm.com',
  'oracle.com',
];

/** An operation asking each of those ten companies (aliased c0…c9) for its financial profile's symbol. */
export const TEN_COMPANIES_WITH_SYMBOLS = `{ ${TEN_LISTED_DOMAINS.map(
  (domain, i) => `c${i}: company(domain: "${domain}") { financialProfile { symbol } }`,
).join('\n')} }`;
