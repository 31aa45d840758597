import { builder } from '../../schema/builder.js';
import { int, obj, type Raw } from '../../schema/read.js';

/** The parts of a date the profile gives, each checked: a year 1-9999, a month 1-12, a day valid in its month. */
export interface DateParts {
  year: number | null;
  month: number | null;
  day: number | null;
}

function dateParts(raw: Raw): DateParts {
  const year = int(raw.year);
  const month = int(raw.month);
  const day = int(raw.day);
  const validYear = year !== null && year >= 1 && year <= 9999 ? year : null;
  const validMonth = month !== null && month >= 1 && month <= 12 ? month : null;
  const daysInMonth = validMonth === null ? 31 : new Date(Date.UTC(validYear ?? 2000, validMonth, 0)).getUTCDate();
  const validDay = day !== null && day >= 1 && day <= daysInMonth ? day : null;
  return { year: validYear, month: validMonth, day: validDay };
}

/**
 * The date as an ISO 8601 partial date, as precise as its parts allow: "2019", "2019-04" or
 * "2019-04-12". Null without a year; a day without a month is dropped.
 */
function isoPartialDate(raw: Raw): string | null {
  const { year, month, day } = dateParts(raw);
  if (year === null) return null;
  const yyyy = String(year).padStart(4, '0');
  if (month === null) return yyyy;
  const mm = String(month).padStart(2, '0');
  return day === null ? `${yyyy}-${mm}` : `${yyyy}-${mm}-${String(day).padStart(2, '0')}`;
}

export const PartialDate = builder.objectRef<Raw>('PartialDate').implement({
  description:
    'A date that may be known only to the year or the month, as profiles give them (e.g. a job that started "April 2019"). Use `iso` for display or sorting.',
  fields: (t) => ({
    year: t.int({ description: 'Year, e.g. 2019; null when not given.', resolve: (d) => dateParts(d).year }),
    month: t.int({
      description: 'Month 1 (January) to 12 (December); null when only the year is known.',
      resolve: (d) => dateParts(d).month,
    }),
    day: t.int({ description: 'Day of the month 1 to 31; null when not given.', resolve: (d) => dateParts(d).day }),
    iso: t.string({
      description:
        'The date as an ISO 8601 partial date, as precise as its parts: "2019", "2019-04" or "2019-04-12". Null when the year is unknown (an open end of a period).',
      resolve: isoPartialDate,
    }),
  }),
});

/** A date group with at least one part; an empty group (`{}` or all nulls) is no date at all. */
function givenDate(value: unknown): Raw | null {
  const raw = obj(value);
  if (!raw) return null;
  const parts = dateParts(raw);
  return parts.year === null && parts.month === null && parts.day === null ? null : raw;
}

export const Period = builder.objectRef<Raw>('Period').implement({
  description:
    'A span of time on a profile (a job, a course of study, a certification\'s validity). An `end` without a year means "to the present".',
  fields: (t) => ({
    start: t.field({
      type: PartialDate,
      description: 'When the period began; null when not given (an empty date group is null, not a date of nulls).',
      resolve: (p) => givenDate(p.start),
    }),
    end: t.field({
      type: PartialDate,
      description: 'When the period ended; null, or a date without a year, when it has not ended.',
      resolve: (p) => givenDate(p.end),
    }),
    isOngoing: t.boolean({
      nullable: false,
      description:
        'True when the period has a start year but no end year: a current job, a study in progress, a certification without expiry.',
      resolve: (p) => {
        const start = obj(p.start);
        const end = obj(p.end);
        return start !== null && dateParts(start).year !== null && (end === null || dateParts(end).year === null);
      },
    }),
  }),
});
