import { sampleDigits } from '../sample-identity.js';
import { DETACHED_IMAGES, type SampleImages } from '../sample-images.js';
import { INDUSTRIES } from '../sample-industries.js';
import { CITIES, citiesIn, cityNamed, FIRST_NAMES, LAST_NAMES, STREETS } from '../sample-places.js';
import { seededAmount, seededDate, seededFraction, seededInt, seededMagnitude, seededPick, wordsOf } from '../sample-seeded.js';
import { websiteDomain } from '../link-keys.js';

/**
 * company_financial_profile (contract 2.9). Symbols are read from "A, B, C" (upper-cased, repeats
 * once); unknown symbols are simply missing from the array, as live. Every other symbol is listed:
 *
 * - the listings below are real companies and indices with their own figures (AAPL, NKE, HUBS,
 *   BRK-B, ^GSPC, ...);
 * - any other symbol gets a listing derived from it: prices, market data, dates, head office and
 *   industry are functions of the symbol, the name and website of its base ("STRIPE" is Stripe, Inc.
 *   at https://www.stripe.com; "VOD.L" trades in London for https://www.vod.co.uk); a share class
 *   ("XYZ-B") belongs to the company of its base; an index ("^XYZ") has no company.
 *
 * Unknown (see isUnlistedSymbol): a symbol whose base starts with ZZ or NOPE (ZZZZ, ZZNOPE, NOPE),
 * mixes letters and digits (QQ1), or ends in an exchange suffix not in EXCHANGES (ABC.XX).
 */
interface Listing {
  companyName: string;
  price: number;
  beta: number;
  volAvg: number;
  mktCap: number;
  lastDiv: number;
  range: string;
  changes: number;
  cik: string | null;
  isin: string | null;
  cusip: string | null;
  exchange: string;
  exchangeShortName: string;
  industry: string | null;
  sector: string | null;
  website: string | null;
  ceo: string | null;
  fullTimeEmployees: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  ipoDate: string | null;
  currency: string;
  country: string | null;
  dcf: number | null;
}

/** A market index: no company, no website, no filings. */
function index(companyName: string, price: number, range: string, changes: number, volAvg: number): Listing {
  return {
    companyName,
    price,
    beta: 1,
    volAvg,
    mktCap: 0,
    lastDiv: 0,
    range,
    changes,
    cik: null,
    isin: null,
    cusip: null,
    exchange: 'Index',
    exchangeShortName: 'INDEX',
    industry: null,
    sector: null,
    website: null,
    ceo: null,
    fullTimeEmployees: null,
    phone: null,
    address: null,
    city: null,
    state: null,
    zip: null,
    ipoDate: null,
    currency: 'USD',
    country: null,
    dcf: null,
  };
}

const LISTINGS: Record<string, Listing> = {
  AAPL: {
    companyName: 'Apple Inc.',
    price: 228.52,
    beta: 1.24,
    volAvg: 54_231_780,
    mktCap: 3_474_520_000_000,
    lastDiv: 1,
    range: '164.08-237.49',
    changes: 1.87,
    cik: '0000320193',
    isin: 'US0378331005',
    cusip: '037833100',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Consumer Electronics',
    sector: 'Technology',
    website: 'https://www.apple.com',
    ceo: 'Mr. Timothy D. Cook',
    fullTimeEmployees: '161000',
    phone: '408 996 1010',
    address: 'One Apple Park Way',
    city: 'Cupertino',
    state: 'CA',
    zip: '95014',
    ipoDate: '1980-12-12',
    currency: 'USD',
    country: 'US',
    dcf: 147.64,
  },
  NKE: {
    companyName: 'NIKE, Inc.',
    price: 76.41,
    beta: 1.02,
    volAvg: 12_408_230,
    mktCap: 114_552_140_000,
    lastDiv: 1.54,
    range: '70.75-123.39',
    changes: -0.62,
    cik: '0000320187',
    isin: 'US6541061031',
    cusip: '654106103',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Apparel - Footwear & Accessories',
    sector: 'Consumer Cyclical',
    website: 'https://investors.nike.com',
    ceo: 'Mr. Elliott J. Hill',
    fullTimeEmployees: '79400',
    phone: '503 671 6453',
    address: 'One Bowerman Drive',
    city: 'Beaverton',
    state: 'OR',
    zip: '97005-6453',
    ipoDate: '1980-12-02',
    currency: 'USD',
    country: 'US',
    dcf: 58.07,
  },
  HUBS: {
    companyName: 'HubSpot, Inc.',
    price: 742.3,
    beta: 1.66,
    volAvg: 611_905,
    mktCap: 37_885_576_433,
    lastDiv: 0,
    range: '434.84-768.36',
    changes: 12.08,
    cik: '0001404655',
    isin: 'US4435731009',
    cusip: '443573100',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Software - Application',
    sector: 'Technology',
    website: 'https://www.hubspot.com',
    ceo: 'Ms. Yamini Rangan',
    fullTimeEmployees: '7663',
    phone: '888 482 7768',
    address: '2 Canal Park',
    city: 'Cambridge',
    state: 'MA',
    zip: '02141',
    ipoDate: '2014-10-09',
    currency: 'USD',
    country: 'US',
    dcf: 214.32,
  },
  MSFT: {
    companyName: 'Microsoft Corporation',
    price: 415.49,
    beta: 0.9,
    volAvg: 20_148_612,
    mktCap: 3_088_410_000_000,
    lastDiv: 3.32,
    range: '366.50-468.35',
    changes: -2.11,
    cik: '0000789019',
    isin: 'US5949181045',
    cusip: '594918104',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Software - Infrastructure',
    sector: 'Technology',
    website: 'https://www.microsoft.com',
    ceo: 'Mr. Satya Nadella',
    fullTimeEmployees: '228000',
    phone: '425 882 8080',
    address: 'One Microsoft Way',
    city: 'Redmond',
    state: 'WA',
    zip: '98052-6399',
    ipoDate: '1986-03-13',
    currency: 'USD',
    country: 'US',
    dcf: 305.91,
  },
  GOOGL: {
    companyName: 'Alphabet Inc.',
    price: 172.63,
    beta: 1.03,
    volAvg: 26_311_044,
    mktCap: 2_118_900_000_000,
    lastDiv: 0.8,
    range: '130.67-191.75',
    changes: 0.94,
    cik: '0001652044',
    isin: 'US02079K3059',
    cusip: '02079K305',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Internet Content & Information',
    sector: 'Communication Services',
    website: 'https://abc.xyz',
    ceo: 'Mr. Sundar Pichai',
    fullTimeEmployees: '181269',
    phone: '650 253 0000',
    address: '1600 Amphitheatre Parkway',
    city: 'Mountain View',
    state: 'CA',
    zip: '94043',
    ipoDate: '2004-08-19',
    currency: 'USD',
    country: 'US',
    dcf: 139.2,
  },
  AMZN: {
    companyName: 'Amazon.com, Inc.',
    price: 186.51,
    beta: 1.15,
    volAvg: 41_880_530,
    mktCap: 1_958_700_000_000,
    lastDiv: 0,
    range: '139.52-201.20',
    changes: 2.4,
    cik: '0001018724',
    isin: 'US0231351067',
    cusip: '023135106',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Specialty Retail',
    sector: 'Consumer Cyclical',
    website: 'https://www.amazon.com',
    ceo: 'Mr. Andrew R. Jassy',
    fullTimeEmployees: '1551000',
    phone: '206 266 1000',
    address: '410 Terry Avenue North',
    city: 'Seattle',
    state: 'WA',
    zip: '98109-5210',
    ipoDate: '1997-05-15',
    currency: 'USD',
    country: 'US',
    dcf: 120.44,
  },
  TSLA: {
    companyName: 'Tesla, Inc.',
    price: 248.5,
    beta: 2.3,
    volAvg: 96_402_118,
    mktCap: 793_460_000_000,
    lastDiv: 0,
    range: '138.80-299.29',
    changes: -4.76,
    cik: '0001318605',
    isin: 'US88160R1014',
    cusip: '88160R101',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Auto - Manufacturers',
    sector: 'Consumer Cyclical',
    website: 'https://www.tesla.com',
    ceo: 'Mr. Elon R. Musk',
    fullTimeEmployees: '140473',
    phone: '512 516 8177',
    address: '1 Tesla Road',
    city: 'Austin',
    state: 'TX',
    zip: '78725',
    ipoDate: '2010-06-29',
    currency: 'USD',
    country: 'US',
    dcf: 62.87,
  },
  META: {
    companyName: 'Meta Platforms, Inc.',
    price: 563.33,
    beta: 1.21,
    volAvg: 11_203_977,
    mktCap: 1_424_900_000_000,
    lastDiv: 2,
    range: '313.66-602.95',
    changes: 5.18,
    cik: '0001326801',
    isin: 'US30303M1027',
    cusip: '30303M102',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Internet Content & Information',
    sector: 'Communication Services',
    website: 'https://www.meta.com',
    ceo: 'Mr. Mark Elliot Zuckerberg',
    fullTimeEmployees: '70799',
    phone: '650 543 4800',
    address: '1 Meta Way',
    city: 'Menlo Park',
    state: 'CA',
    zip: '94025',
    ipoDate: '2012-05-18',
    currency: 'USD',
    country: 'US',
    dcf: 410.05,
  },
  NVDA: {
    companyName: 'NVIDIA Corporation',
    price: 118.85,
    beta: 1.68,
    volAvg: 312_488_120,
    mktCap: 2_915_300_000_000,
    lastDiv: 0.04,
    range: '45.01-140.76',
    changes: 1.02,
    cik: '0001045810',
    isin: 'US67066G1040',
    cusip: '67066G104',
    exchange: 'NASDAQ Global Select',
    exchangeShortName: 'NASDAQ',
    industry: 'Semiconductors',
    sector: 'Technology',
    website: 'https://www.nvidia.com',
    ceo: 'Mr. Jen-Hsun Huang',
    fullTimeEmployees: '29600',
    phone: '408 486 2000',
    address: '2788 San Tomas Expressway',
    city: 'Santa Clara',
    state: 'CA',
    zip: '95051',
    ipoDate: '1999-01-22',
    currency: 'USD',
    country: 'US',
    dcf: 61.34,
  },
  IBM: {
    companyName: 'International Business Machines Corporation',
    price: 214.67,
    beta: 0.71,
    volAvg: 4_205_338,
    mktCap: 198_320_000_000,
    lastDiv: 6.67,
    range: '151.42-224.15',
    changes: -0.35,
    cik: '0000051143',
    isin: 'US4592001014',
    cusip: '459200101',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Information Technology Services',
    sector: 'Technology',
    website: 'https://www.ibm.com',
    ceo: 'Mr. Arvind Krishna',
    fullTimeEmployees: '282200',
    phone: '914 499 1900',
    address: 'One New Orchard Road',
    city: 'Armonk',
    state: 'NY',
    zip: '10504',
    ipoDate: '1915-11-11',
    currency: 'USD',
    country: 'US',
    dcf: 167.9,
  },
  ORCL: {
    companyName: 'Oracle Corporation',
    price: 169.78,
    beta: 1.01,
    volAvg: 8_930_402,
    mktCap: 470_610_000_000,
    lastDiv: 1.6,
    range: '99.26-178.61',
    changes: 0.57,
    cik: '0001341439',
    isin: 'US68389X1054',
    cusip: '68389X105',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Software - Infrastructure',
    sector: 'Technology',
    website: 'https://www.oracle.com',
    ceo: 'Ms. Safra Ada Catz',
    fullTimeEmployees: '162000',
    phone: '737 867 1000',
    address: '2300 Oracle Way',
    city: 'Austin',
    state: 'TX',
    zip: '78741',
    ipoDate: '1986-03-12',
    currency: 'USD',
    country: 'US',
    dcf: 98.71,
  },
  KO: {
    companyName: 'The Coca-Cola Company',
    price: 63.92,
    beta: 0.61,
    volAvg: 14_102_663,
    mktCap: 275_380_000_000,
    lastDiv: 1.94,
    range: '57.93-73.53',
    changes: 0.12,
    cik: '0000021344',
    isin: 'US1912161007',
    cusip: '191216100',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Beverages - Non-Alcoholic',
    sector: 'Consumer Defensive',
    website: 'https://www.coca-colacompany.com',
    ceo: 'Mr. James Robert B. Quincey',
    fullTimeEmployees: '79100',
    phone: '404 676 2121',
    address: 'One Coca-Cola Plaza',
    city: 'Atlanta',
    state: 'GA',
    zip: '30313',
    ipoDate: '1919-09-05',
    currency: 'USD',
    country: 'US',
    dcf: 51.18,
  },
  'BRK-B': {
    companyName: 'Berkshire Hathaway Inc.',
    price: 468.21,
    beta: 0.87,
    volAvg: 3_912_440,
    mktCap: 1_010_300_000_000,
    lastDiv: 0,
    range: '395.66-491.67',
    changes: 1.34,
    cik: '0001067983',
    isin: 'US0846707026',
    cusip: '084670702',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Insurance - Diversified',
    sector: 'Financial Services',
    website: 'https://www.berkshirehathaway.com',
    ceo: 'Mr. Warren E. Buffett',
    fullTimeEmployees: '392400',
    phone: '402 346 1400',
    address: '3555 Farnam Street',
    city: 'Omaha',
    state: 'NE',
    zip: '68131',
    ipoDate: '1996-05-09',
    currency: 'USD',
    country: 'US',
    dcf: 401.77,
  },
  'BRK-A': {
    companyName: 'Berkshire Hathaway Inc.',
    price: 703_112.5,
    beta: 0.87,
    volAvg: 8_310,
    mktCap: 1_010_300_000_000,
    lastDiv: 0,
    range: '593280.00-741971.39',
    changes: 1_870.25,
    cik: '0001067983',
    isin: 'US0846701086',
    cusip: '084670108',
    exchange: 'New York Stock Exchange',
    exchangeShortName: 'NYSE',
    industry: 'Insurance - Diversified',
    sector: 'Financial Services',
    website: 'https://www.berkshirehathaway.com',
    ceo: 'Mr. Warren E. Buffett',
    fullTimeEmployees: '392400',
    phone: '402 346 1400',
    address: '3555 Farnam Street',
    city: 'Omaha',
    state: 'NE',
    zip: '68131',
    ipoDate: '1980-03-17',
    currency: 'USD',
    country: 'US',
    dcf: 603_350.1,
  },
  '^GSPC': index('S&P 500', 5_998.74, '4953.56-6147.43', 24.86, 2_916_650_000),
  '^DJI': index('Dow Jones Industrial Average', 43_729.93, '37611.56-45073.63', -103.47, 389_120_000),
  '^IXIC': index('NASDAQ Composite', 19_218.17, '15222.78-20204.58', 131.84, 7_105_330_000),
};

/** The listings above, in their order (the first ten are the benchmarks' ten symbols). */
export const SANDBOX_SYMBOLS = Object.keys(LISTINGS);

/** Exchanges by symbol suffix ("VOD.L"), with the web domain ending of their companies. */
const EXCHANGES: Readonly<Record<string, { exchange: string; exchangeShortName: string; currency: string; countryCode: string; tld: string }>> = {
  L: { exchange: 'London Stock Exchange', exchangeShortName: 'LSE', currency: 'GBp', countryCode: 'GB', tld: 'co.uk' },
  DE: { exchange: 'Deutsche Börse Xetra', exchangeShortName: 'XETRA', currency: 'EUR', countryCode: 'DE', tld: 'de' },
  PA: { exchange: 'Euronext Paris', exchangeShortName: 'EURONEXT', currency: 'EUR', countryCode: 'FR', tld: 'fr' },
  T: { exchange: 'Tokyo Stock Exchange', exchangeShortName: 'JPX', currency: 'JPY', countryCode: 'JP', tld: 'co.jp' },
  HK: { exchange: 'Hong Kong Stock Exchange', exchangeShortName: 'HKSE', currency: 'HKD', countryCode: 'HK', tld: 'com.hk' },
  TO: { exchange: 'Toronto Stock Exchange', exchangeShortName: 'TSX', currency: 'CAD', countryCode: 'CA', tld: 'ca' },
  AX: { exchange: 'Australian Securities Exchange', exchangeShortName: 'ASX', currency: 'AUD', countryCode: 'AU', tld: 'com.au' },
};
const US_EXCHANGES = [
  { exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ' },
  { exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE' },
];
const LEGAL_FORMS: Readonly<Record<string, string>> = {
  US: ', Inc.',
  GB: ' plc',
  DE: ' AG',
  FR: ' SA',
  JP: ' Corporation',
  HK: ' Holdings Limited',
  CA: ' Inc.',
  AU: ' Limited',
};

interface ParsedSymbol {
  index: boolean;
  /** Letters and digits before any share class or exchange suffix. */
  base: string;
  shareClass: string | null;
  suffix: string | null;
}

const SHAPE = /^(\^?)([A-Z0-9]+)(?:[-./ ]([A-CK]))?(?:\.([A-Z]{1,2}))?$/;

function parse(symbol: string): ParsedSymbol | null {
  const match = SHAPE.exec(symbol);
  if (!match) return null;
  return { index: match[1] === '^', base: match[2]!, shareClass: match[3] ?? null, suffix: match[4] ?? null };
}

/** The sandbox's rule for symbols it has no profile for (their lookups are NOT_FOUND). */
export function isUnlistedSymbol(symbol: string): boolean {
  if (LISTINGS[symbol]) return false;
  const parsed = parse(symbol);
  if (!parsed) return true;
  const { base, suffix } = parsed;
  return /^(ZZ|NOPE)/.test(base) || (/[A-Z]/.test(base) && /\d/.test(base)) || (suffix !== null && !EXCHANGES[suffix]);
}

/** The profiles of the symbols in "A, B, C", in the order asked; unknown symbols left out. */
export function financialProfiles(company: string, images: SampleImages = DETACHED_IMAGES): Record<string, unknown>[] {
  const requested = company
    .split(',')
    .map((symbol) => symbol.trim().toUpperCase())
    .filter(Boolean);
  return [...new Set(requested)].flatMap((symbol) => {
    const listing = listingOf(symbol);
    if (!listing) return [];
    const domain = websiteDomain(listing.website);
    const about = listing.industry
      ? `${listing.companyName} operates in ${listing.industry.toLowerCase()} within the ${listing.sector?.toLowerCase()} sector, headquartered in ${listing.city}, ${listing.state}.`
      : `${listing.companyName} is a market index; its price is the index level.`;
    return [
      {
        symbol,
        ...listing,
        description: about,
        dcfDiff: listing.dcf === null ? null : Number((listing.price - listing.dcf).toFixed(2)),
        // The same picture as the company's logo (`company(domain:)`), so one company looks the same from both sides.
        image: images.url('logo', domain ?? symbol),
        defaultImage: false,
        isEtf: false,
        isActivelyTrading: true,
        isAdr: false,
        isFund: false,
      },
    ];
  });
}

/** The listing of a symbol: its own above, or one derived from it; null when unknown. */
export function listingOf(symbol: string): Listing | null {
  if (LISTINGS[symbol]) return LISTINGS[symbol];
  if (isUnlistedSymbol(symbol)) return null;
  const { index: isIndex, base, shareClass, suffix } = parse(symbol)!;
  const market = (what: string) => `listing:${symbol}:${what}`;
  const price = seededMagnitude(market('price'), 300, 90_000) / 100;
  const low = Number((price * seededAmount(market('low'), 0.6, 0.95)).toFixed(2));
  const high = Number((price * seededAmount(market('high'), 1.02, 1.4)).toFixed(2));
  const changes = Number((price * seededAmount(market('change'), -0.04, 0.04, 4)).toFixed(2));
  if (isIndex)
    return index(
      `${wordsOf(base.toLowerCase()).join(' ')} Index`,
      price,
      `${low.toFixed(2)}-${high.toFixed(2)}`,
      changes,
      seededMagnitude(market('volume'), 1e8, 5e9),
    );

  // The company behind the symbol: the same for every share class of one base on one exchange.
  const company = (what: string) => `listed:${base}${suffix ? `.${suffix}` : ''}:${what}`;
  const venue = suffix ? EXCHANGES[suffix]! : { ...seededPick(company('exchange'), US_EXCHANGES), currency: 'USD', countryCode: 'US', tld: 'com' };
  const city = seededPick(company('city'), citiesIn(venue.countryCode));
  const industry = seededPick(company('industry'), INDUSTRIES);
  const name = wordsOf(base.toLowerCase()).join(' ');
  const shares = seededMagnitude(company('shares'), 20_000_000, 5_000_000_000);
  const dividend = seededFraction(company('pays')) < 0.4 ? seededAmount(market('dividend'), 0.1, 4) : 0;
  const cusip = `${sampleDigits(company('cusip'), 6)}${shareClass === 'A' ? '10' : '20'}${seededInt(market('cusip'), 0, 9)}`;
  return {
    companyName: `${name}${LEGAL_FORMS[venue.countryCode] ?? ', Inc.'}`,
    price,
    beta: seededAmount(company('beta'), 0.3, 2.5),
    volAvg: seededMagnitude(market('volume'), 50_000, 80_000_000),
    mktCap: Math.round(price * shares),
    lastDiv: dividend,
    range: `${low.toFixed(2)}-${high.toFixed(2)}`,
    changes,
    cik: `000${sampleDigits(company('cik'), 7)}`,
    isin: `${venue.countryCode}${cusip}${seededInt(market('isin'), 0, 9)}`,
    cusip,
    exchange: venue.exchange,
    exchangeShortName: venue.exchangeShortName,
    industry: industry.industry,
    sector: industry.sector,
    website: `https://www.${base.toLowerCase()}.${venue.tld}`,
    ceo: `${seededPick(company('title'), ['Mr.', 'Ms.'])} ${seededPick(company('first'), FIRST_NAMES)} ${seededPick(company('last'), LAST_NAMES)}`,
    fullTimeEmployees: String(seededMagnitude(company('employees'), 40, 250_000)),
    phone: `${city.area} ${seededInt(company('phone'), 200, 999)} ${seededInt(company('line'), 1000, 9999)}`,
    address: `${seededInt(company('number'), 1, 2999)} ${seededPick(company('street'), STREETS)}`,
    city: city.city,
    state: city.stateCode,
    zip: `${city.zipPrefix}${sampleDigits(company('zip'), 2)}`,
    ipoDate: seededDate(company('ipo'), '1980-01-01', '2023-12-31'),
    currency: venue.currency,
    country: venue.countryCode,
    dcf: Number((price * seededAmount(market('dcf'), 0.5, 1.4)).toFixed(2)),
  };
}

/** The company domains of the listings above: "hubspot.com" -> "HUBS" (the first listing of a domain wins). */
let knownTickers: Map<string, string> | undefined;

/** Web domain endings that name an exchange, for derived tickers ("vod.co.uk" -> "VOD.L"). */
const SUFFIX_OF_TLD = new Map(Object.entries(EXCHANGES).map(([suffix, venue]) => [venue.tld, suffix]));

/**
 * The ticker of the company at a registrable domain, so that its financial profile's website leads
 * back to it: the listings' own domains first (nike.com -> NKE), otherwise the domain's first label
 * upper-cased, with the exchange suffix of a country domain (stripe.com -> STRIPE, vod.co.uk ->
 * VOD.L). Null, a company that is not listed, when that symbol is unknown (zzshop.com, web3.io).
 */
export function tickerOf(domain: string): string | null {
  knownTickers ??= new Map(
    Object.entries(LISTINGS)
      .reverse()
      .flatMap(([symbol, listing]) => {
        const site = websiteDomain(listing.website);
        return site ? [[site, symbol] as const] : [];
      }),
  );
  const known = knownTickers.get(domain);
  if (known) return known;
  const [label = '', ...rest] = domain.split('.');
  const suffix = SUFFIX_OF_TLD.get(rest.join('.'));
  const base = label
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, suffix ? 12 : 15);
  const ticker = suffix ? `${base}.${suffix}` : base;
  return base === '' || isUnlistedSymbol(ticker) ? null : ticker;
}

/** The city of a listing's head office, for the company data (listings name cities the samples know). */
export function headOfficeOf(listing: Listing) {
  return cityNamed(listing.city ?? '') ?? CITIES[0]!;
}
