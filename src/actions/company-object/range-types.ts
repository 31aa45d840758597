import { builder } from '../../schema/builder.js';
import type { NumberRange } from './ranges.js';

/** A whole-number range such as an employee count band; shared with the professional profile's companies. */
export const CountRange = builder.objectRef<NumberRange>('CountRange').implement({
  description:
    'A range of whole numbers, such as a company\'s employee count band ("251-1K" reads as 251 to 1000). Either bound is null when the range is open on that side ("10K+" has no maximum).',
  fields: (t) => ({
    min: t.field({
      type: 'SafeInt',
      description: 'Lowest value of the range; null when the range has no lower bound.',
      resolve: (r) => r.min,
    }),
    max: t.field({
      type: 'SafeInt',
      description: 'Highest value of the range; null when the range is open-ended (e.g. "10K+").',
      resolve: (r) => r.max,
    }),
  }),
});

export const MoneyRange = builder.objectRef<NumberRange>('MoneyRange').implement({
  description:
    'A money range parsed from display text such as "$10M-$50M" (10,000,000 to 50,000,000). Amounts are in the currency the text used (US dollars for company data).',
  fields: (t) => ({
    min: t.float({
      description: 'Lowest amount of the range; null when the range has no lower bound.',
      resolve: (r) => r.min,
    }),
    max: t.float({
      description: 'Highest amount of the range; null when the range is open-ended (e.g. "$10B+").',
      resolve: (r) => r.max,
    }),
  }),
});
