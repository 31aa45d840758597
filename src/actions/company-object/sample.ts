import { sampleDigits, sampleUuid } from '../sample-identity.js';

/**
 * get_company_object (contract 2.7). A complete, listed-software-company record for any domain: the
 * domain comes back in `domain`, the names, handles and site contacts are made from its first label.
 * The ticker is HUBS so that the financial sandbox knows it, except for the domains of the other
 * listed companies the financial sandbox knows (apple.com is AAPL, ...), so that links from several
 * companies to their financial profiles name different symbols; marketCap and annualRevenue exceed 2^31.
 */
const TICKERS: Record<string, string> = {
  'apple.com': 'AAPL',
  'nike.com': 'NKE',
  'microsoft.com': 'MSFT',
  'abc.xyz': 'GOOGL',
  'amazon.com': 'AMZN',
  'tesla.com': 'TSLA',
  'meta.com': 'META',
  'nvidia.com': 'NVDA',
  'ibm.com': 'IBM',
  'oracle.com': 'ORCL',
  'coca-colacompany.com': 'KO',
};

export function companyObject(domain: string): Record<string, unknown> {
  const host = domain.trim().toLowerCase().replace(/\.$/, '');
  const label = host.split('.')[0] || 'sandbox';
  const name = label.charAt(0).toUpperCase() + label.slice(1);
  return {
    id: sampleUuid(`company:${host}`),
    name,
    legalName: `${name}, Inc.`,
    domain: host,
    domainAliases: [`${label}.net`, `${label}-inbound.com`, `${label}.de`],
    site: {
      phoneNumbers: ['+1 888-482-7768', '+353 1 518 7500'],
      emailAddresses: [`info@${host}`, `press@${host}`, `investors@${host}`],
    },
    category: {
      sector: 'Information Technology',
      industryGroup: 'Software & Services',
      industry: 'Software',
      subIndustry: 'Application Software',
      gicsCode: '45103010',
      sicCode: '73',
      sic4Codes: ['7372'],
      naicsCode: '51',
      naics6Codes: ['513210', '541511'],
      naics6Codes2022: ['513210'],
    },
    tags: ['Technology', 'SAAS', 'B2B', 'Enterprise', 'Marketing Automation', 'CRM'],
    description: `${name} offers a cloud-based customer platform of marketing, sales, service, content and operations software for mid-market businesses.`,
    foundedYear: 2006,
    location: '2 Canal Park, Cambridge, MA 02141, USA',
    timeZone: 'America/New_York',
    utcOffset: -5,
    geo: {
      streetNumber: '2',
      streetName: 'Canal Park',
      subPremise: '5th Floor',
      streetAddress: '2 Canal Park',
      city: 'Cambridge',
      postalCode: '02141',
      state: 'Massachusetts',
      stateCode: 'MA',
      country: 'United States',
      countryCode: 'US',
      lat: 42.3688272,
      lng: -71.0712543,
    },
    logo: `https://logo.company-data.example/${host}`,
    facebook: { handle: label, likes: 314_582 },
    linkedin: { handle: `company/${label}` },
    twitter: {
      handle: name,
      id: sampleDigits(`twitter:${host}`, 8),
      bio: `Helping millions grow better. Customer platform news from the ${name} team.`,
      followers: 812_944,
      following: 4_571,
      location: 'Cambridge, MA',
      site: `https://www.${host}`,
      avatar: `https://pbs.microblog-images.example/profile_images/${label}_400x400.png`,
    },
    crunchbase: { handle: `organization/${label}` },
    emailProvider: false,
    type: 'public',
    ticker: TICKERS[host] ?? 'HUBS',
    identifiers: { usCIK: '0001404655', usEIN: '20-2632791' },
    phone: '+1 888-482-7768',
    metrics: {
      alexaUsRank: 1_214,
      alexaGlobalRank: 2_987,
      trafficRank: 'very_high',
      employees: 7_663,
      employeesRange: '5K-10K',
      marketCap: 3_200_000_000,
      raised: 100_500_000,
      annualRevenue: 2_627_000_000,
      estimatedAnnualRevenue: '$1B-$10B',
      fiscalYearEnd: 12,
    },
    indexedAt: '2026-10-28T04:17:52.000Z',
    tech: ['google_analytics', 'google_tag_manager', 'salesforce', 'amazon_s3', 'cloudflare', 'stripe', 'zendesk', 'segment'],
    techCategories: ['analytics', 'tag_management', 'crm', 'cloud_storage', 'cdn', 'payment', 'customer_support'],
    parent: { domain: null },
    ultimateParent: { domain: host },
  };
}
