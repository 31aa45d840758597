import { builder } from '../../schema/builder.js';
import { bool, date, float, safeInt, str, text, url, type Raw } from '../../schema/read.js';

export interface PriceRange {
  low: number;
  high: number;
}

const PriceRangeType = builder.objectRef<PriceRange>('PriceRange').implement({
  description: 'A price range parsed from the upstream text "low-high".',
  fields: (t) => ({
    low: t.float({ description: 'Lowest price of the range, in the trading currency.', resolve: (r) => r.low }),
    high: t.float({ description: 'Highest price of the range, in the trading currency.', resolve: (r) => r.high }),
  }),
});

export const FinancialProfile = builder.objectRef<Raw>('FinancialProfile').implement({
  description: 'Financial and market profile of a listed company (upstream action company_financial_profile). Prices are in `currency`.',
  fields: (t) => ({
    symbol: t.string({ description: 'Stock symbol, upper-case (e.g. AAPL).', resolve: (p) => str(p.symbol)?.trim().toUpperCase() ?? '' }),
    companyName: t.string({ nullable: true, description: 'Company name.', resolve: (p) => text(p.companyName) }),
    price: t.float({ nullable: true, description: 'Current share price.', resolve: (p) => float(p.price) }),
    change: t.float({ nullable: true, description: 'Price change over the last session (upstream `changes`).', resolve: (p) => float(p.changes) }),
    range: t.string({
      nullable: true,
      description: 'Price range as the upstream wrote it, "low-high" (e.g. "164.08-199.62"); see `priceRange` for numbers.',
      resolve: (p) => text(p.range),
    }),
    priceRange: t.field({
      type: PriceRangeType,
      nullable: true,
      description: 'The price range as numbers; null when `range` cannot be read as "low-high".',
      resolve: (p) => parseRange(p.range),
    }),
    beta: t.float({ nullable: true, description: 'Beta: volatility relative to the market.', resolve: (p) => float(p.beta) }),
    averageVolume: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Average daily trading volume in shares (upstream `volAvg`).',
      resolve: (p) => wholeNumber(p.volAvg),
    }),
    marketCap: t.float({
      nullable: true,
      description: 'Market capitalisation in the trading currency (upstream `mktCap`); often beyond 2^31, hence Float.',
      resolve: (p) => float(p.mktCap),
    }),
    lastDividend: t.float({
      nullable: true,
      description: 'Last dividend per share (upstream `lastDiv`; whole or fractional).',
      resolve: (p) => float(p.lastDiv),
    }),
    currency: t.string({ nullable: true, description: 'Trading currency, ISO 4217 (e.g. USD).', resolve: (p) => text(p.currency) }),
    exchange: t.string({ nullable: true, description: 'Exchange name (e.g. "NASDAQ Global Select").', resolve: (p) => text(p.exchange) }),
    exchangeShortName: t.string({ nullable: true, description: 'Exchange abbreviation (e.g. NASDAQ).', resolve: (p) => text(p.exchangeShortName) }),
    cik: t.string({ nullable: true, description: 'Central Index Key at the securities regulator, as text with leading zeros.', resolve: (p) => text(p.cik) }),
    isin: t.string({ nullable: true, description: 'International Securities Identification Number.', resolve: (p) => text(p.isin) }),
    cusip: t.string({ nullable: true, description: 'CUSIP identifier.', resolve: (p) => text(p.cusip) }),
    industry: t.string({ nullable: true, description: 'Industry.', resolve: (p) => text(p.industry) }),
    sector: t.string({ nullable: true, description: 'Sector.', resolve: (p) => text(p.sector) }),
    website: t.field({
      type: 'URL',
      nullable: true,
      description: 'Company website; null when the upstream value is not an http(s) URL.',
      resolve: (p) => url(p.website),
    }),
    description: t.string({ nullable: true, description: 'Business description.', resolve: (p) => text(p.description) }),
    ceo: t.string({ nullable: true, description: 'Chief executive officer.', resolve: (p) => text(p.ceo) }),
    country: t.string({ nullable: true, description: 'Country of incorporation, ISO 3166-1 alpha-2.', resolve: (p) => text(p.country) }),
    fullTimeEmployees: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Full-time employees as a number; null when the upstream text is not a whole number.',
      resolve: (p) => parseCount(p.fullTimeEmployees),
    }),
    fullTimeEmployeesText: t.string({
      nullable: true,
      description: 'Full-time employees exactly as the upstream wrote it (numeric text).',
      resolve: (p) => text(p.fullTimeEmployees),
    }),
    phone: t.string({ nullable: true, description: 'Investor or head-office phone number.', resolve: (p) => text(p.phone) }),
    address: t.string({ nullable: true, description: 'Street address of the head office.', resolve: (p) => text(p.address) }),
    city: t.string({ nullable: true, description: 'City of the head office.', resolve: (p) => text(p.city) }),
    state: t.string({ nullable: true, description: 'State or region of the head office.', resolve: (p) => text(p.state) }),
    zip: t.string({ nullable: true, description: 'Postal code of the head office.', resolve: (p) => text(p.zip) }),
    dcf: t.float({ nullable: true, description: 'Discounted-cash-flow value per share.', resolve: (p) => float(p.dcf) }),
    dcfDiff: t.float({ nullable: true, description: 'Difference between the DCF value and the price (upstream `dcfDiff`).', resolve: (p) => float(p.dcfDiff) }),
    logoUrl: t.field({ type: 'URL', nullable: true, description: 'Logo image URL.', resolve: (p) => url(p.image) }),
    image: t.field({
      deprecationReason: 'Use `logoUrl`: a company logo is `logoUrl` across the schema.',
      type: 'URL',
      nullable: true,
      description: 'Logo image URL.',
      resolve: (p) => url(p.image),
    }),
    ipoDate: t.field({ type: 'Date', nullable: true, description: 'Date of the initial public offering.', resolve: (p) => date(p.ipoDate) }),
    isDefaultImage: t.boolean({
      nullable: true,
      description: "True when `image` is a generic placeholder rather than the company's logo (upstream `defaultImage`).",
      resolve: (p) => bool(p.defaultImage),
    }),
    isEtf: t.boolean({ nullable: true, description: 'Whether the symbol is an exchange-traded fund.', resolve: (p) => bool(p.isEtf) }),
    isActivelyTrading: t.boolean({ nullable: true, description: 'Whether the symbol currently trades.', resolve: (p) => bool(p.isActivelyTrading) }),
    isAdr: t.boolean({ nullable: true, description: 'Whether the symbol is an American depositary receipt.', resolve: (p) => bool(p.isAdr) }),
    isFund: t.boolean({ nullable: true, description: 'Whether the symbol is a fund.', resolve: (p) => bool(p.isFund) }),
  }),
});

const RANGE = /^\s*(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)\s*$/;

export function parseRange(value: unknown): PriceRange | null {
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
