import type { SandboxAnswer } from '../answer.js';
import { sampleDigits } from '../data/identity.js';
import { DETACHED_IMAGES, type SampleImages } from '../data/images.js';
import { INDUSTRIES } from '../data/industries.js';
import { citiesIn, FIRST_NAMES, LAST_NAMES, STREETS } from '../data/places.js';
import { seededAmount, seededDate, seededFraction, seededInt, seededMagnitude, seededPick, wordsOf } from '../data/seeded.js';
import { websiteDomain } from '../../actions/link-keys.js';

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

/** A listing's name and market figures (DCF value last). */
type Quote = [
  companyName: string,
  price: number,
  beta: number,
  volAvg: number,
  mktCap: number,
  lastDiv: number,
  range: string,
  changes: number,
  dcf: number | null,
];
/** A listed company's filing ids, industry (its sector is the one INDUSTRIES gives) and IPO date. */
type Filing = [cik: string, isin: string, cusip: string, industry: string, ipoDate: string];
/** A listed company's website, CEO, head count and head office. */
type Office = [website: string, ceo: string, fullTimeEmployees: string, phone: string, address: string, city: string, state: string, zip: string];
/** Where a listing trades; an index has no country. */
interface Venue {
  exchange: string;
  exchangeShortName: string;
  currency: string;
  countryCode: string | null;
}

const NO_FILING = [null, null, null, null, null] as const;
const NO_OFFICE = [null, null, null, null, null, null, null, null] as const;

/** The listing of a quote on a venue, with the company's filing and office (none for an index). */
function listing(venue: Venue, quote: Quote, filing: Filing | typeof NO_FILING = NO_FILING, office: Office | typeof NO_OFFICE = NO_OFFICE): Listing {
  const [companyName, price, beta, volAvg, mktCap, lastDiv, range, changes, dcf] = quote;
  const [cik, isin, cusip, industry, ipoDate] = filing;
  const [website, ceo, fullTimeEmployees, phone, address, city, state, zip] = office;
  return {
    companyName,
    price,
    beta,
    volAvg,
    mktCap,
    lastDiv,
    range,
    changes,
    cik,
    isin,
    cusip,
    exchange: venue.exchange,
    exchangeShortName: venue.exchangeShortName,
    industry,
    sector: industry === null ? null : INDUSTRIES.find((entry) => entry.industry === industry)!.sector,
    website,
    ceo,
    fullTimeEmployees,
    phone,
    address,
    city,
    state,
    zip,
    ipoDate,
    currency: venue.currency,
    country: venue.countryCode,
    dcf,
  };
}

const INDEX: Venue = { exchange: 'Index', exchangeShortName: 'INDEX', currency: 'USD', countryCode: null };

/** A market index: no company, no website, no filings. */
function index(companyName: string, price: number, range: string, changes: number, volAvg: number): Listing {
  return listing(INDEX, [companyName, price, 1, volAvg, 0, 0, range, changes, null]);
}

/** The US exchanges, with the web domain ending of their companies. */
const US_EXCHANGES = [
  { exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', currency: 'USD', countryCode: 'US', tld: 'com' },
  { exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE', currency: 'USD', countryCode: 'US', tld: 'com' },
];

/** A US company of the table below: its quote, its filing led by its exchange's short name, its office. */
function listed(quote: Quote, [exchangeShortName, ...filing]: ['NASDAQ' | 'NYSE', ...Filing], office: Office): Listing {
  return listing(US_EXCHANGES.find((venue) => venue.exchangeShortName === exchangeShortName)!, quote, filing, office);
}

/**
 * The real listings, a company's in three rows:
 * [companyName, price, beta, volAvg, mktCap, lastDiv, range, changes, dcf],
 * [exchangeShortName, cik, isin, cusip, industry, ipoDate],
 * [website, ceo, fullTimeEmployees, phone, address, city, state, zip].
 */
const LISTINGS: Record<string, Listing> = {
  AAPL: listed(
    ['Apple Inc.', 228.52, 1.24, 54_231_780, 3_474_520_000_000, 1, '164.08-237.49', 1.87, 147.64],
    ['NASDAQ', '0000320193', 'US0378331005', '037833100', 'Consumer Electronics', '1980-12-12'],
    ['https://www.apple.com', 'Mr. Timothy D. Cook', '161000', '408 996 1010', 'One Apple Park Way', 'Cupertino', 'CA', '95014'],
  ),
  NKE: listed(
    ['NIKE, Inc.', 76.41, 1.02, 12_408_230, 114_552_140_000, 1.54, '70.75-123.39', -0.62, 58.07],
    ['NYSE', '0000320187', 'US6541061031', '654106103', 'Apparel - Footwear & Accessories', '1980-12-02'],
    ['https://investors.nike.com', 'Mr. Elliott J. Hill', '79400', '503 671 6453', 'One Bowerman Drive', 'Beaverton', 'OR', '97005-6453'],
  ),
  HUBS: listed(
    ['HubSpot, Inc.', 742.3, 1.66, 611_905, 37_885_576_433, 0, '434.84-768.36', 12.08, 214.32],
    ['NYSE', '0001404655', 'US4435731009', '443573100', 'Software - Application', '2014-10-09'],
    ['https://www.hubspot.com', 'Ms. Yamini Rangan', '7663', '888 482 7768', '2 Canal Park', 'Cambridge', 'MA', '02141'],
  ),
  MSFT: listed(
    ['Microsoft Corporation', 415.49, 0.9, 20_148_612, 3_088_410_000_000, 3.32, '366.50-468.35', -2.11, 305.91],
    ['NASDAQ', '0000789019', 'US5949181045', '594918104', 'Software - Infrastructure', '1986-03-13'],
    ['https://www.microsoft.com', 'Mr. Satya Nadella', '228000', '425 882 8080', 'One Microsoft Way', 'Redmond', 'WA', '98052-6399'],
  ),
  GOOGL: listed(
    ['Alphabet Inc.', 172.63, 1.03, 26_311_044, 2_118_900_000_000, 0.8, '130.67-191.75', 0.94, 139.2],
    ['NASDAQ', '0001652044', 'US02079K3059', '02079K305', 'Internet Content & Information', '2004-08-19'],
    ['https://abc.xyz', 'Mr. Sundar Pichai', '181269', '650 253 0000', '1600 Amphitheatre Parkway', 'Mountain View', 'CA', '94043'],
  ),
  AMZN: listed(
    ['Amazon.com, Inc.', 186.51, 1.15, 41_880_530, 1_958_700_000_000, 0, '139.52-201.20', 2.4, 120.44],
    ['NASDAQ', '0001018724', 'US0231351067', '023135106', 'Specialty Retail', '1997-05-15'],
    ['https://www.amazon.com', 'Mr. Andrew R. Jassy', '1551000', '206 266 1000', '410 Terry Avenue North', 'Seattle', 'WA', '98109-5210'],
  ),
  TSLA: listed(
    ['Tesla, Inc.', 248.5, 2.3, 96_402_118, 793_460_000_000, 0, '138.80-299.29', -4.76, 62.87],
    ['NASDAQ', '0001318605', 'US88160R1014', '88160R101', 'Auto - Manufacturers', '2010-06-29'],
    ['https://www.tesla.com', 'Mr. Elon R. Musk', '140473', '512 516 8177', '1 Tesla Road', 'Austin', 'TX', '78725'],
  ),
  META: listed(
    ['Meta Platforms, Inc.', 563.33, 1.21, 11_203_977, 1_424_900_000_000, 2, '313.66-602.95', 5.18, 410.05],
    ['NASDAQ', '0001326801', 'US30303M1027', '30303M102', 'Internet Content & Information', '2012-05-18'],
    ['https://www.meta.com', 'Mr. Mark Elliot Zuckerberg', '70799', '650 543 4800', '1 Meta Way', 'Menlo Park', 'CA', '94025'],
  ),
  NVDA: listed(
    ['NVIDIA Corporation', 118.85, 1.68, 312_488_120, 2_915_300_000_000, 0.04, '45.01-140.76', 1.02, 61.34],
    ['NASDAQ', '0001045810', 'US67066G1040', '67066G104', 'Semiconductors', '1999-01-22'],
    ['https://www.nvidia.com', 'Mr. Jen-Hsun Huang', '29600', '408 486 2000', '2788 San Tomas Expressway', 'Santa Clara', 'CA', '95051'],
  ),
  IBM: listed(
    ['International Business Machines Corporation', 214.67, 0.71, 4_205_338, 198_320_000_000, 6.67, '151.42-224.15', -0.35, 167.9],
    ['NYSE', '0000051143', 'US4592001014', '459200101', 'Information Technology Services', '1915-11-11'],
    ['https://www.ibm.com', 'Mr. Arvind Krishna', '282200', '914 499 1900', 'One New Orchard Road', 'Armonk', 'NY', '10504'],
  ),
  ORCL: listed(
    ['Oracle Corporation', 169.78, 1.01, 8_930_402, 470_610_000_000, 1.6, '99.26-178.61', 0.57, 98.71],
    ['NYSE', '0001341439', 'US68389X1054', '68389X105', 'Software - Infrastructure', '1986-03-12'],
    ['https://www.oracle.com', 'Ms. Safra Ada Catz', '162000', '737 867 1000', '2300 Oracle Way', 'Austin', 'TX', '78741'],
  ),
  KO: listed(
    ['The Coca-Cola Company', 63.92, 0.61, 14_102_663, 275_380_000_000, 1.94, '57.93-73.53', 0.12, 51.18],
    ['NYSE', '0000021344', 'US1912161007', '191216100', 'Beverages - Non-Alcoholic', '1919-09-05'],
    ['https://www.coca-colacompany.com', 'Mr. James Robert B. Quincey', '79100', '404 676 2121', 'One Coca-Cola Plaza', 'Atlanta', 'GA', '30313'],
  ),
  'BRK-B': listed(
    ['Berkshire Hathaway Inc.', 468.21, 0.87, 3_912_440, 1_010_300_000_000, 0, '395.66-491.67', 1.34, 401.77],
    ['NYSE', '0001067983', 'US0846707026', '084670702', 'Insurance - Diversified', '1996-05-09'],
    ['https://www.berkshirehathaway.com', 'Mr. Warren E. Buffett', '392400', '402 346 1400', '3555 Farnam Street', 'Omaha', 'NE', '68131'],
  ),
  'BRK-A': listed(
    ['Berkshire Hathaway Inc.', 703_112.5, 0.87, 8_310, 1_010_300_000_000, 0, '593280.00-741971.39', 1_870.25, 603_350.1],
    ['NYSE', '0001067983', 'US0846701086', '084670108', 'Insurance - Diversified', '1980-03-17'],
    ['https://www.berkshirehathaway.com', 'Mr. Warren E. Buffett', '392400', '402 346 1400', '3555 Farnam Street', 'Omaha', 'NE', '68131'],
  ),
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
function isUnlistedSymbol(symbol: string): boolean {
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

/**
 * With a moving market, each call's prices: the listing's price moved by a few tenths of a percent, a different
 * amount at each call (the first call's is the listing's own), so a live query has changes to show.
 */
function moved(profiles: Record<string, unknown>[], moment: number | undefined): Record<string, unknown>[] {
  if (!moment) return profiles;
  return profiles.map((profile) => {
    const price = profile.price as number;
    return { ...profile, price: Number((price * (1 + 0.004 * Math.sin(moment * 1.7))).toFixed(2)) };
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
  const venue = suffix ? EXCHANGES[suffix]! : seededPick(company('exchange'), US_EXCHANGES);
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

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['company'],
  respond: (b, images, moment) => ({ response: moved(financialProfiles(String(b.company), images), moment) }),
};
