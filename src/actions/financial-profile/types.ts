import { builder } from '../../schema/builder.js';
import { bool, date, float, type Raw, safeInt, str, url } from '../../schema/read.js';

export interface PriceRange {
  low: number;
  high: number;
}

const PriceRangeType = builder.objectRef<PriceRange>('PriceRange').implement({
  description: 'A price range parsed from the upstream text "low-high".',
  fields: (t) => ({
    low: t.float({
      nullable: false,
      description: 'Lowest price of the range, in the trading currency.',
      resolve: (r) => r.low,
    }),
    high: t.float({
      nullable: false,
      description: 'Highest price of the range, in the trading currency.',
      resolve: (r) => r.high,
    }),
  }),
});

export const FinancialProfile = builder.objectRef<Raw>('FinancialProfile').implement({
  description:
    'Financial and market profile of a listed company (upstream action company_financial_profile). Prices are in `currency`.',
  fields: (t) => ({
    symbol: t.string({
      nullable: false,
      description: 'Stock symbol, upper-case (e.g. AAPL).',
      resolve: (p) => str(p.symbol)?.trim().toUpperCase() ?? '',
    }),
    companyName: t.string({ description: 'Company name.', resolve: (p) => str(p.companyName) }),
    price: t.float({ description: 'Current share price.', resolve: (p) => float(p.price) }),
    change: t.float({
      description: 'Price change over the last session (upstream `changes`).',
      resolve: (p) => float(p.changes),
    }),
    range: t.string({
      description:
        'Price range as the upstream wrote it, "low-high" (e.g. "164.08-199.62"); see `priceRange` for numbers.',
      resolve: (p) => str(p.range),
    }),
    priceRange: t.field({
      type: PriceRangeType,
      description: 'The price range as numbers; null when `range` cannot be read as "low-high".',
      resolve: (p) => parseRange(p.range),
    }),
    beta: t.float({ description: 'Beta: volatility relative to the market.', resolve: (p) => float(p.beta) }),
    averageVolume: t.field({
      type: 'SafeInt',
      description: 'Average daily trading volume in shares (upstream `volAvg`).',
      resolve: (p) => wholeNumber(p.volAvg),
    }),
    marketCap: t.float({
      description: 'Market capitalisation in the trading currency (upstream `mktCap`); often beyond 2^31, hence Float.',
      resolve: (p) => float(p.mktCap),
    }),
    lastDividend: t.float({
      description: 'Last dividend per share (upstream `lastDiv`; whole or fractional).',
      resolve: (p) => float(p.lastDiv),
    }),
    currency: t.string({ description: 'Trading currency, ISO 4217 (e.g. USD).', resolve: (p) => str(p.currency) }),
    exchange: t.string({
      description: 'Exchange name (e.g. "NASDAQ Global Select").',
      resolve: (p) => str(p.exchange),
    }),
    exchangeShortName: t.string({
      description: 'Exchange abbreviation (e.g. NASDAQ).',
      resolve: (p) => str(p.exchangeShortName),
    }),
    cik: t.string({
      description: 'Central Index Key at the securities regulator, as text with leading zeros.',
      resolve: (p) => str(p.cik),
    }),
    isin: t.string({ description: 'International Securities Identification Number.', resolve: (p) => str(p.isin) }),
    cusip: t.string({ description: 'CUSIP identifier.', resolve: (p) => str(p.cusip) }),
    industry: t.string({ description: 'Industry.', resolve: (p) => str(p.industry) }),
    sector: t.string({ description: 'Sector.', resolve: (p) => str(p.sector) }),
    website: t.field({
      type: 'URL',
      description: 'Company website; null when the upstream value is not an http(s) URL.',
      resolve: (p) => url(p.website),
    }),
    description: t.string({ description: 'Business description.', resolve: (p) => str(p.description) }),
    ceo: t.string({ description: 'Chief executive officer.', resolve: (p) => str(p.ceo) }),
    country: t.string({ description: 'Country of incorporation, ISO 3166-1 alpha-2.', resolve: (p) => str(p.country) }),
    fullTimeEmployees: t.field({
      type: 'SafeInt',
      description: 'Full-time employees as a number; null when the upstream text is not a whole number.',
      resolve: (p) => parseCount(p.fullTimeEmployees),
    }),
    fullTimeEmployeesText: t.string({
      description: 'Full-time employees exactly as the upstream wrote it (numeric text).',
      resolve: (p) => str(p.fullTimeEmployees),
    }),
    phone: t.string({ description: 'Investor or head-office phone number.', resolve: (p) => str(p.phone) }),
    address: t.string({ description: 'Street address of the head office.', resolve: (p) => str(p.address) }),
    city: t.string({ description: 'City of the head office.', resolve: (p) => str(p.city) }),
    state: t.string({ description: 'State or region of the head office.', resolve: (p) => str(p.state) }),
    zip: t.string({ description: 'Postal code of the head office.', resolve: (p) => str(p.zip) }),
    dcf: t.float({ description: 'Discounted-cash-flow value per share.', resolve: (p) => float(p.dcf) }),
    dcfDiff: t.float({
      description: 'Difference between the DCF value and the price (upstream `dcfDiff`).',
      resolve: (p) => float(p.dcfDiff),
    }),
    logoUrl: t.field({ type: 'URL', description: 'Logo image URL.', resolve: (p) => url(p.image) }),
    ipoDate: t.field({
      type: 'Date',
      description: 'Date of the initial public offering.',
      resolve: (p) => date(p.ipoDate),
    }),
    isDefaultImage: t.boolean({
      description:
        "True when `image` is a generic placeholder rather than the company's logo (upstream `defaultImage`).",
      resolve: (p) => bool(p.defaultImage),
    }),
    isEtf: t.boolean({ description: 'Whether the symbol is an exchange-traded fund.', resolve: (p) => bool(p.isEtf) }),
    isActivelyTrading: t.boolean({
      description: 'Whether the symbol currently trades.',
      resolve: (p) => bool(p.isActivelyTrading),
    }),
    isAdr: t.boolean({
      description: 'Whether the symbol is an American depositary receipt.',
      resolve: (p) => bool(p.isAdr),
    }),
    isFund: t.boolean({ description: 'Whether the symbol is a fund.', resolve: (p) => bool(p.isFund) }),
  }),
});

const RANGE = /^\s*(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)\s*$/;

function parseRange(value: unknown): PriceRange | null {
  const match = typeof value === 'string' ? RANGE.exec(value) : null;
  if (!match) return null;
  return { low: Number(match[1]), high: Number(match[2]) };
}

function wholeNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? safeInt(Math.round(value)) : null;
}

function parseCount(value: unknown): number | null {
  if (typeof value === 'number') return safeInt(value);
  const digits = typeof value === 'string' ? value.trim().replace(/,/g, '') : '';
  return /^\d+$/.test(digits) ? safeInt(Number(digits)) : null;
}
