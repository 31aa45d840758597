import { builder } from '../../schema/builder.js';
import { float, int, type Raw, safeInt, str, text } from '../../schema/read.js';
import { CountRange, MoneyRange } from './range-types.js';
import { parseAmount, parseAmountRange, type NumberRange } from './ranges.js';

/** `employees` is a number in most records and a range text ("251-1K") in some. */
function employeeCount(metrics: Raw): number | null {
  const value = metrics.employees;
  if (typeof value === 'number') return safeInt(value);
  return typeof value === 'string' && /^\s*\d[\d,]*\s*$/.test(value) ? parseAmount(value) : null;
}

/** The band as text: `employeesRange`, or `employees` when the upstream put the band there. */
function employeeBand(metrics: Raw): string | null {
  const range = text(metrics.employeesRange);
  if (range) return range;
  return employeeCount(metrics) === null ? text(metrics.employees) : null;
}

function employeeRange(metrics: Raw): NumberRange | null {
  return parseAmountRange(employeeBand(metrics));
}

export const CompanyMetrics = builder.objectRef<Raw>('CompanyMetrics').implement({
  description:
    'Size, money and web-traffic figures of a company. Money is in US dollars; any figure can be null when the upstream does not know it.',
  fields: (t) => ({
    employees: t.field({
      type: 'SafeInt',
      description:
        'Number of employees, when the upstream gives a number. Some records give only a band (e.g. "251-1K"): then this is null and the band is in `employeesRange` / `employeeCountRange`.',
      resolve: employeeCount,
    }),
    employeesRange: t.string({
      description:
        'Employee band as display text, e.g. "251-1K" or "10K+" (upstream `employeesRange`, or `employees` when the upstream sent the band there).',
      resolve: employeeBand,
    }),
    employeeCountRange: t.field({
      type: CountRange,
      description:
        'The employee band as numbers ("251-1K" is 251 to 1000; "10K+" is at least 10000); null when there is no readable band.',
      resolve: employeeRange,
    }),
    marketCap: t.float({
      description: 'Market capitalisation in US dollars; often beyond 2^31, hence Float. Null for private companies.',
      resolve: (m) => float(m.marketCap),
    }),
    annualRevenue: t.float({
      description: 'Annual revenue in US dollars, when reported; often beyond 2^31, hence Float.',
      resolve: (m) => float(m.annualRevenue),
    }),
    estimatedAnnualRevenue: t.string({
      description: 'Estimated annual revenue band as display text, e.g. "$1B-$10B".',
      resolve: (m) => str(m.estimatedAnnualRevenue),
    }),
    estimatedAnnualRevenueRange: t.field({
      type: MoneyRange,
      description:
        'The estimated annual revenue band as amounts ("$1B-$10B" is 1e9 to 1e10); null when `estimatedAnnualRevenue` is not a readable band.',
      resolve: (m) => parseAmountRange(m.estimatedAnnualRevenue),
    }),
    raised: t.float({
      description: 'Total funding raised, in US dollars; null when unknown (common for public companies).',
      resolve: (m) => float(m.raised),
    }),
    fiscalYearEnd: t.int({
      description: 'Month in which the fiscal year ends, 1 (January) to 12 (December).',
      resolve: (m) => month(m.fiscalYearEnd),
    }),
    alexaGlobalRank: t.field({
      type: 'SafeInt',
      description: "Global web-traffic rank of the company's site (1 is the busiest).",
      resolve: (m) => safeInt(m.alexaGlobalRank),
    }),
    alexaUsRank: t.field({
      type: 'SafeInt',
      description: "United States web-traffic rank of the company's site (upstream `alexaUsRank`).",
      resolve: (m) => safeInt(m.alexaUsRank),
    }),
    trafficRank: t.string({
      description: 'Web-traffic level as a word, e.g. "very_high", "high", "medium", "low".',
      resolve: (m) => str(m.trafficRank),
    }),
  }),
});

function month(value: unknown): number | null {
  const m = int(value);
  return m !== null && m >= 1 && m <= 12 ? m : null;
}
