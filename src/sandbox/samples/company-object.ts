import type { SandboxAnswer } from '../answer.js';
import { sampleDigits, sampleUuid } from '../data/identity.js';
import { DETACHED_IMAGES, type SampleImages } from '../data/images.js';
import { INDUSTRIES, industryNamed } from '../data/industries.js';
import { CITIES, cityNamed, STREETS } from '../data/places.js';
import { seededAmount, seededInt, seededMagnitude, seededPick, seededSubset, seededTimestamp } from '../data/seeded.js';
import { listingOf, tickerOf } from './financial-profile.js';
import { websiteDomain } from '../../actions/link-keys.js';
import { SandboxInputError } from '../input-error.js';
import { isUnregisteredDomain, NOT_FOUND_MESSAGE } from './not-found.js';

/**
 * The company object (contract 2.7). A complete record for any domain, derived from it: the domain
 * comes back in `domain`, the names, handles and site contacts are made from its first label, and
 * the figures, dates, industry and head office are functions of the registrable domain.
 *
 * A listed company's ticker is the one the financial sandbox gives its domain (hubspot.com -> HUBS,
 * nike.com -> NKE, stripe.com -> STRIPE; see tickerOf), and its legal name, head office, employees
 * and market cap are that listing's, so the company and its `financialProfile` agree and the
 * profile's website leads back here. A domain whose ticker the financial sandbox does not know
 * (zzshop.com, web3.io) is a private company without a ticker.
 */
const EMPLOYEE_RANGES: ReadonlyArray<[number, string]> = [
  [10, '1-10'],
  [50, '11-50'],
  [250, '51-250'],
  [1_000, '251-1K'],
  [5_000, '1K-5K'],
  [10_000, '5K-10K'],
  [50_000, '10K-50K'],
  [100_000, '50K-100K'],
];
const REVENUE_RANGES: ReadonlyArray<[number, string]> = [
  [1e6, '$0-$1M'],
  [1e7, '$1M-$10M'],
  [5e7, '$10M-$50M'],
  [1e8, '$50M-$100M'],
  [2.5e8, '$100M-$250M'],
  [5e8, '$250M-$500M'],
  [1e9, '$500M-$1B'],
  [1e10, '$1B-$10B'],
];
const TECH: ReadonlyArray<[string, string]> = [
  ['google_analytics', 'analytics'],
  ['google_tag_manager', 'tag_management'],
  ['salesforce', 'crm'],
  ['amazon_s3', 'cloud_storage'],
  ['cloudflare', 'cdn'],
  ['stripe', 'payment'],
  ['zendesk', 'customer_support'],
  ['segment', 'analytics'],
  ['hubspot', 'marketing_automation'],
  ['fastly', 'cdn'],
  ['okta', 'security'],
  ['slack', 'communications'],
];

function bucket(value: number, ranges: ReadonlyArray<[number, string]>, above: string): string {
  return ranges.find(([max]) => value <= max)?.[1] ?? above;
}

function companyObject(domain: string, images: SampleImages = DETACHED_IMAGES): Record<string, unknown> {
  const host = domain.trim().toLowerCase().replace(/\.$/, '');
  // No company behind a domain nobody registered: the domain lookup says the same of it.
  if (isUnregisteredDomain(host)) throw new SandboxInputError(NOT_FOUND_MESSAGE);
  const registrable = websiteDomain(`https://${host}`) ?? host;
  const label = registrable.split('.')[0] || 'sandbox';
  const name = label.charAt(0).toUpperCase() + label.slice(1);
  const seed = (what: string) => `company:${registrable}:${what}`;

  const ticker = tickerOf(registrable);
  const listing = ticker ? listingOf(ticker) : null;
  const industry = listing ? industryNamed(listing.industry) : seededPick(seed('industry'), INDUSTRIES);
  const city = cityNamed(listing?.city ?? '') ?? seededPick(seed('city'), CITIES);
  const address = listing?.address ?? `${seededInt(seed('number'), 1, 2999)} ${seededPick(seed('street'), STREETS)}`;
  const [, streetNumber = null, streetName = address] = /^(\d+)\s+(.+)$/.exec(address) ?? [];
  const zip = listing?.zip ?? `${city.zipPrefix}${sampleDigits(seed('zip'), 2)}`;
  const phone = listing?.phone
    ? `+${city.dial} ${listing.phone.split(' ').join('-')}`
    : `+${city.dial} ${city.area}-${seededInt(seed('phone'), 200, 999)}-${seededInt(seed('line'), 1000, 9999)}`;
  const employees = Number(listing?.fullTimeEmployees ?? seededMagnitude(seed('employees'), 8, 40_000));
  const annualRevenue = Math.round((employees * seededInt(seed('revenue'), 120, 450)) / 100) * 100_000;
  const usRank = seededMagnitude(seed('rank'), 40, 2_000_000);
  const ipoYear = Number(listing?.ipoDate?.slice(0, 4) ?? 2000);
  const tech = seededSubset(seed('tech'), TECH, 8);
  const twitterHandle = name.replace(/[^A-Za-z0-9_]/g, '');
  return {
    id: sampleUuid(`company:${host}`),
    name,
    legalName: listing?.companyName ?? `${name}, Inc.`,
    domain: host,
    domainAliases: seededSubset(
      seed('aliases'),
      [`${label}.net`, `${label}.io`, `get${label}.com`, `${label}-inbound.com`, `${label}.de`, `${label}hq.com`],
      3,
    ),
    site: {
      phoneNumbers: [phone, `+${city.dial === '1' ? '353' : '1'} ${seededInt(seed('phone2'), 200, 999)} ${seededInt(seed('line2'), 1000, 9999)}`],
      emailAddresses: [`info@${host}`, `press@${host}`, listing ? `investors@${host}` : `careers@${host}`],
    },
    category: industry.category,
    tags: industry.tags,
    description: `${name} ${industry.offers}`,
    foundedYear: listing ? seededInt(seed('founded'), ipoYear - 25, ipoYear - 2) : seededInt(seed('founded'), 1950, 2022),
    location: `${address}, ${city.city}, ${city.stateCode} ${zip}, ${city.countryCode === 'US' ? 'USA' : city.country}`,
    timeZone: city.timeZone,
    utcOffset: city.utcOffset,
    geo: {
      streetNumber,
      streetName,
      subPremise: seededPick(seed('premise'), ['5th Floor', 'Suite 100', 'Floor 12', 'Building 2', 'Suite 400']),
      streetAddress: address,
      city: city.city,
      postalCode: zip,
      state: city.state,
      stateCode: city.stateCode,
      country: city.country,
      countryCode: city.countryCode,
      lat: Number((city.lat + seededAmount(seed('lat'), -0.02, 0.02, 7)).toFixed(7)),
      lng: Number((city.lng + seededAmount(seed('lng'), -0.02, 0.02, 7)).toFixed(7)),
    },
    logo: images.url('logo', registrable),
    facebook: { handle: label, likes: seededMagnitude(seed('likes'), 800, 40_000_000) },
    linkedin: { handle: `company/${label}` },
    twitter: {
      handle: twitterHandle,
      id: sampleDigits(`twitter:${host}`, 8),
      bio: `News, product updates and stories from the ${name} team.`,
      followers: seededMagnitude(seed('followers'), 1_000, 90_000_000),
      following: seededMagnitude(seed('following'), 10, 9_000),
      location: `${city.city}, ${city.stateCode}`,
      site: `https://www.${host}`,
      avatar: images.url('avatar', `microblog-${registrable}`),
    },
    crunchbase: { handle: `organization/${label}` },
    emailProvider: false,
    type: listing ? 'public' : 'private',
    ticker: listing ? ticker : null,
    identifiers: {
      usCIK: city.countryCode === 'US' ? (listing?.cik ?? null) : null,
      usEIN: city.countryCode === 'US' ? `${sampleDigits(seed('ein'), 2)}-${sampleDigits(seed('ein-serial'), 7)}` : null,
    },
    phone,
    metrics: {
      alexaUsRank: usRank,
      alexaGlobalRank: Math.round(usRank * seededAmount(seed('global'), 1.5, 4)),
      trafficRank: usRank < 5_000 ? 'very_high' : usRank < 50_000 ? 'high' : usRank < 500_000 ? 'medium' : 'low',
      employees,
      employeesRange: bucket(employees, EMPLOYEE_RANGES, '100K+'),
      marketCap: listing ? Math.round(listing.mktCap) : null,
      raised: seededMagnitude(seed('raised'), 500_000, 2_000_000_000),
      annualRevenue,
      estimatedAnnualRevenue: bucket(annualRevenue, REVENUE_RANGES, '$10B+'),
      fiscalYearEnd: seededPick(seed('fiscal'), [12, 12, 12, 12, 6, 9, 3]),
    },
    indexedAt: seededTimestamp(seed('indexed'), '2026-09-01T00:00:00Z', '2026-11-20T00:00:00Z').replace(/\.\d{3}Z$/, '.000Z'),
    tech: tech.map(([technology]) => technology),
    techCategories: [...new Set(tech.map(([, group]) => group))],
    parent: { domain: null },
    ultimateParent: { domain: host },
  };
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['domain'],
  respond: (b, images) => ({ response: companyObject(String(b.domain), images) }),
};
