/**
 * Dates and timestamps in the forms the real upstream data uses, read into ISO text:
 * "2024-03-26", "2024-03-26T12:00:00Z" (RFC 3339), "2025-02-12T00:14:58" (no zone: read as UTC),
 * "Mar 26, 2024" / "March 26, 2024" / "26 Mar 2024". Anything else is null, and the fields that
 * carry a parsed value keep the upstream text beside it (`…Text`).
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function monthOf(name: string): number | null {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  const full = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  if (index < 0) return null;
  return name.length === 3 || name.toLowerCase() === full[index] || (name.length === 4 && name.toLowerCase() === 'sept')
    ? index + 1
    : null;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const MONTH_DAY_YEAR = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/;
const DAY_MONTH_YEAR = /^(\d{1,2}) ([A-Za-z]{3,9})\.?,? (\d{4})$/;

/** The calendar date of a date or timestamp text, "YYYY-MM-DD"; null when it is none of the known forms. */
export function parseDateText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  let match = ISO_DATE.exec(text) ?? ISO_DATE_TIME.exec(text);
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = MONTH_DAY_YEAR.exec(text);
  if (match) {
    const month = monthOf(match[1]!);
    return month === null ? null : isoDate(Number(match[3]), month, Number(match[2]));
  }
  match = DAY_MONTH_YEAR.exec(text);
  if (match) {
    const month = monthOf(match[2]!);
    return month === null ? null : isoDate(Number(match[3]), month, Number(match[1]));
  }
  return null;
}

/**
 * An RFC 3339 timestamp for a timestamp text: one with a zone as written (normalised only to
 * "T" and "+hh:mm"), one without a zone read as UTC ("Z" appended), a date alone as its midnight UTC.
 */
export function parseDateTimeText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const match = ISO_DATE_TIME.exec(text);
  if (match) {
    const [, y, mo, d, h, mi, s, fraction, zone] = match;
    if (isoDate(Number(y), Number(mo), Number(d)) === null || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)
      return null;
    const offset =
      !zone || zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
    return `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${fraction ?? ''}${offset}`;
  }
  const day = parseDateText(text);
  return day === null ? null : `${day}T00:00:00Z`;
}
