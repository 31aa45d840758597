/**
 * company_financial_profile (contract 2.9). Symbols are read from "A, B, C"; each known symbol gets
 * its complete profile, unknown symbols are simply missing from the array, as live.
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
  cik: string;
  isin: string;
  cusip: string;
  exchange: string;
  exchangeShortName: string;
  industry: string;
  sector: string;
  website: string;
  ceo: string;
  fullTimeEmployees: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  ipoDate: string;
  dcf: number;
}

const LISTINGS: Record<string, Listing> = {
  AAPL: { companyName: 'Apple Inc.', price: 228.52, beta: 1.24, volAvg: 54_231_780, mktCap: 3_474_520_000_000, lastDiv: 1, range: '164.08-237.49', changes: 1.87, cik: '0000320193', isin: 'US0378331005', cusip: '037833100', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Consumer Electronics', sector: 'Technology', website: 'https://www.apple.com', ceo: 'Mr. Timothy D. Cook', fullTimeEmployees: '161000', phone: '408 996 1010', address: 'One Apple Park Way', city: 'Cupertino', state: 'CA', zip: '95014', ipoDate: '1980-12-12', dcf: 147.64 },
  NKE: { companyName: 'NIKE, Inc.', price: 76.41, beta: 1.02, volAvg: 12_408_230, mktCap: 114_552_140_000, lastDiv: 1.54, range: '70.75-123.39', changes: -0.62, cik: '0000320187', isin: 'US6541061031', cusip: '654106103', exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE', industry: 'Apparel - Footwear & Accessories', sector: 'Consumer Cyclical', website: 'https://investors.nike.com', ceo: 'Mr. Elliott J. Hill', fullTimeEmployees: '79400', phone: '503 671 6453', address: 'One Bowerman Drive', city: 'Beaverton', state: 'OR', zip: '97005-6453', ipoDate: '1980-12-02', dcf: 58.07 },
  HUBS: { companyName: 'HubSpot, Inc.', price: 742.3, beta: 1.66, volAvg: 611_905, mktCap: 37_885_576_433, lastDiv: 0, range: '434.84-768.36', changes: 12.08, cik: '0001404655', isin: 'US4435731009', cusip: '443573100', exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE', industry: 'Software - Application', sector: 'Technology', website: 'https://www.hubspot.com', ceo: 'Ms. Yamini Rangan', fullTimeEmployees: '7663', phone: '888 482 7768', address: '2 Canal Park', city: 'Cambridge', state: 'MA', zip: '02141', ipoDate: '2014-10-09', dcf: 214.32 },
  MSFT: { companyName: 'Microsoft Corporation', price: 415.49, beta: 0.9, volAvg: 20_148_612, mktCap: 3_088_410_000_000, lastDiv: 3.32, range: '366.50-468.35', changes: -2.11, cik: '0000789019', isin: 'US5949181045', cusip: '594918104', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Software - Infrastructure', sector: 'Technology', website: 'https://www.microsoft.com', ceo: 'Mr. Satya Nadella', fullTimeEmployees: '228000', phone: '425 882 8080', address: 'One Microsoft Way', city: 'Redmond', state: 'WA', zip: '98052-6399', ipoDate: '1986-03-13', dcf: 305.91 },
  GOOGL: { companyName: 'Alphabet Inc.', price: 172.63, beta: 1.03, volAvg: 26_311_044, mktCap: 2_118_900_000_000, lastDiv: 0.8, range: '130.67-191.75', changes: 0.94, cik: '0001652044', isin: 'US02079K3059', cusip: '02079K305', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Internet Content & Information', sector: 'Communication Services', website: 'https://abc.xyz', ceo: 'Mr. Sundar Pichai', fullTimeEmployees: '181269', phone: '650 253 0000', address: '1600 Amphitheatre Parkway', city: 'Mountain View', state: 'CA', zip: '94043', ipoDate: '2004-08-19', dcf: 139.2 },
  AMZN: { companyName: 'Amazon.com, Inc.', price: 186.51, beta: 1.15, volAvg: 41_880_530, mktCap: 1_958_700_000_000, lastDiv: 0, range: '139.52-201.20', changes: 2.4, cik: '0001018724', isin: 'US0231351067', cusip: '023135106', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Specialty Retail', sector: 'Consumer Cyclical', website: 'https://www.aboutamazon.com', ceo: 'Mr. Andrew R. Jassy', fullTimeEmployees: '1551000', phone: '206 266 1000', address: '410 Terry Avenue North', city: 'Seattle', state: 'WA', zip: '98109-5210', ipoDate: '1997-05-15', dcf: 120.44 },
  TSLA: { companyName: 'Tesla, Inc.', price: 248.5, beta: 2.3, volAvg: 96_402_118, mktCap: 793_460_000_000, lastDiv: 0, range: '138.80-299.29', changes: -4.76, cik: '0001318605', isin: 'US88160R1014', cusip: '88160R101', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Auto - Manufacturers', sector: 'Consumer Cyclical', website: 'https://www.tesla.com', ceo: 'Mr. Elon R. Musk', fullTimeEmployees: '140473', phone: '512 516 8177', address: '1 Tesla Road', city: 'Austin', state: 'TX', zip: '78725', ipoDate: '2010-06-29', dcf: 62.87 },
  META: { companyName: 'Meta Platforms, Inc.', price: 563.33, beta: 1.21, volAvg: 11_203_977, mktCap: 1_424_900_000_000, lastDiv: 2, range: '313.66-602.95', changes: 5.18, cik: '0001326801', isin: 'US30303M1027', cusip: '30303M102', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Internet Content & Information', sector: 'Communication Services', website: 'https://investor.atmeta.com', ceo: 'Mr. Mark Elliot Zuckerberg', fullTimeEmployees: '70799', phone: '650 543 4800', address: '1 Meta Way', city: 'Menlo Park', state: 'CA', zip: '94025', ipoDate: '2012-05-18', dcf: 410.05 },
  NVDA: { companyName: 'NVIDIA Corporation', price: 118.85, beta: 1.68, volAvg: 312_488_120, mktCap: 2_915_300_000_000, lastDiv: 0.04, range: '45.01-140.76', changes: 1.02, cik: '0001045810', isin: 'US67066G1040', cusip: '67066G104', exchange: 'NASDAQ Global Select', exchangeShortName: 'NASDAQ', industry: 'Semiconductors', sector: 'Technology', website: 'https://www.nvidia.com', ceo: 'Mr. Jen-Hsun Huang', fullTimeEmployees: '29600', phone: '408 486 2000', address: '2788 San Tomas Expressway', city: 'Santa Clara', state: 'CA', zip: '95051', ipoDate: '1999-01-22', dcf: 61.34 },
  IBM: { companyName: 'International Business Machines Corporation', price: 214.67, beta: 0.71, volAvg: 4_205_338, mktCap: 198_320_000_000, lastDiv: 6.67, range: '151.42-224.15', changes: -0.35, cik: '0000051143', isin: 'US4592001014', cusip: '459200101', exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE', industry: 'Information Technology Services', sector: 'Technology', website: 'https://www.ibm.com', ceo: 'Mr. Arvind Krishna', fullTimeEmployees: '282200', phone: '914 499 1900', address: 'One New Orchard Road', city: 'Armonk', state: 'NY', zip: '10504', ipoDate: '1915-11-11', dcf: 167.9 },
  ORCL: { companyName: 'Oracle Corporation', price: 169.78, beta: 1.01, volAvg: 8_930_402, mktCap: 470_610_000_000, lastDiv: 1.6, range: '99.26-178.61', changes: 0.57, cik: '0001341439', isin: 'US68389X1054', cusip: '68389X105', exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE', industry: 'Software - Infrastructure', sector: 'Technology', website: 'https://www.oracle.com', ceo: 'Ms. Safra Ada Catz', fullTimeEmployees: '162000', phone: '737 867 1000', address: '2300 Oracle Way', city: 'Austin', state: 'TX', zip: '78741', ipoDate: '1986-03-12', dcf: 98.71 },
  KO: { companyName: 'The Coca-Cola Company', price: 63.92, beta: 0.61, volAvg: 14_102_663, mktCap: 275_380_000_000, lastDiv: 1.94, range: '57.93-73.53', changes: 0.12, cik: '0000021344', isin: 'US1912161007', cusip: '191216100', exchange: 'New York Stock Exchange', exchangeShortName: 'NYSE', industry: 'Beverages - Non-Alcoholic', sector: 'Consumer Defensive', website: 'https://www.coca-colacompany.com', ceo: 'Mr. James Robert B. Quincey', fullTimeEmployees: '79100', phone: '404 676 2121', address: 'One Coca-Cola Plaza', city: 'Atlanta', state: 'GA', zip: '30313', ipoDate: '1919-09-05', dcf: 51.18 },
};

export const SANDBOX_SYMBOLS = Object.keys(LISTINGS);

export function financialProfiles(company: string): Record<string, unknown>[] {
  const requested = company.split(',').map((symbol) => symbol.trim().toUpperCase()).filter(Boolean);
  return [...new Set(requested)].flatMap((symbol) => {
    const listing = LISTINGS[symbol];
    if (!listing) return [];
    return [
      {
        symbol,
        ...listing,
        description: `${listing.companyName} operates in ${listing.industry.toLowerCase()} within the ${listing.sector.toLowerCase()} sector, headquartered in ${listing.city}, ${listing.state}.`,
        currency: 'USD',
        country: 'US',
        dcfDiff: Number((listing.price - listing.dcf).toFixed(2)),
        image: `https://images.financialmodelingprep.example/symbol/${symbol}.png`,
        defaultImage: false,
        isEtf: false,
        isActivelyTrading: true,
        isAdr: false,
        isFund: false,
      },
    ];
  });
}
