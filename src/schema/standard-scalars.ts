/**
 * Hand-written because graphql-scalars can only be imported whole (its exports allow no deep import):
 * 84 modules loaded at every start for four scalars. Date, DateTime, JSON and SafeInt, with the names, descriptions, `@specifiedBy` URLs and behaviour of
 * graphql-scalars' scalars of the same names (the printed schema is unchanged): a Date is an RFC 3339
 * `full-date`, a DateTime an RFC 3339 `date-time` given back at UTC (`2025-02-12T00:14:58.000Z`), JSON any
 * JSON value, SafeInt an integer within ±(2^53 − 1).
 */
import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';

const RFC_3339_DATE = /^(\d{4})-(0[1-9]|1[012])-(0[1-9]|[12]\d|3[01])$/;
const RFC_3339_DATE_TIME =
  /^(\d{4}-(?:0[1-9]|1[012])-(?:0[1-9]|[12]\d|3[01]))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Whether `text` is a `full-date` that exists (no 30 February, 29 February in leap years only). */
function isDate(text: string): boolean {
  const match = RFC_3339_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The instant of an RFC 3339 `date-time` text whose date exists, else null. */
function dateTimeOf(text: string): Date | null {
  const upper = text.toUpperCase();
  const match = RFC_3339_DATE_TIME.exec(upper);
  if (!match || !isDate(match[1]!)) return null;
  const instant = new Date(upper);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

const invalid = (message: string, node?: ValueNode) => new GraphQLError(message, node ? { nodes: node } : {});

export const DateScalar = new GraphQLScalarType<string, string>({
  name: 'Date',
  description:
    'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  serialize(value) {
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw invalid('Date cannot represent an invalid Date instance');
      return value.toISOString().slice(0, 10);
    }
    if (typeof value === 'string' && isDate(value)) return value;
    throw invalid(`Date cannot represent ${JSON.stringify(value)}: not an RFC 3339 full-date`);
  },
  parseValue(value) {
    if (typeof value === 'string' && isDate(value)) return value;
    throw invalid(`Date cannot represent ${JSON.stringify(value)}: not an RFC 3339 full-date`);
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING && isDate(ast.value)) return ast.value;
    throw invalid(`Date cannot represent ${print(ast)}: not an RFC 3339 full-date`, ast);
  },
});

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description:
    'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  serialize(value) {
    const instant =
      value instanceof Date
        ? value
        : typeof value === 'string'
          ? dateTimeOf(value)
          : typeof value === 'number'
            ? new Date(value)
            : null;
    if (instant === null || Number.isNaN(instant.getTime()))
      throw invalid(`DateTime cannot represent ${JSON.stringify(value)}: not an RFC 3339 date-time`);
    return instant.toISOString();
  },
  parseValue(value) {
    const instant = value instanceof Date ? value : typeof value === 'string' ? dateTimeOf(value) : null;
    if (instant === null || Number.isNaN(instant.getTime()))
      throw invalid(`DateTime cannot represent ${JSON.stringify(value)}: not an RFC 3339 date-time`);
    return instant;
  },
  parseLiteral(ast) {
    const instant = ast.kind === Kind.STRING ? dateTimeOf(ast.value) : null;
    if (instant === null) throw invalid(`DateTime cannot represent ${print(ast)}: not an RFC 3339 date-time`, ast);
    return instant;
  },
});

/** A literal as the JSON value it writes; a variable as its value. */
function jsonLiteral(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number.parseFloat(ast.value);
    case Kind.OBJECT: {
      const value: Record<string, unknown> = Object.create(null);
      for (const field of ast.fields) value[field.name.value] = jsonLiteral(field.value, variables);
      return value;
    }
    case Kind.LIST:
      return ast.values.map((item) => jsonLiteral(item, variables));
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    case Kind.ENUM:
      throw invalid(`JSON cannot represent the enum value ${ast.value}`, ast);
  }
}

const ECMA_404 = 'http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf';

export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: `The \`JSON\` scalar type represents JSON values as specified by [ECMA-404](${ECMA_404}).`,
  specifiedByURL: ECMA_404,
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: jsonLiteral,
});

/** The integer a SafeInt holds, or the error naming why `shown` is none. */
function safeInteger(value: unknown, shown: string, node?: ValueNode): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw invalid(`SafeInt cannot represent non-integer value: ${shown}`, node);
  if (!Number.isSafeInteger(value)) throw invalid(`SafeInt cannot represent unsafe integer value: ${shown}`, node);
  return value;
}

export const SafeIntScalar = new GraphQLScalarType<number, number>({
  name: 'SafeInt',
  description:
    'The `SafeInt` scalar type represents non-fractional signed whole numeric values that are considered safe as defined by the ECMAScript specification.',
  specifiedByURL: 'https://www.ecma-international.org/ecma-262/#sec-number.issafeinteger',
  serialize(value) {
    if (typeof value === 'boolean') return value ? 1 : 0;
    const number = typeof value === 'string' && value !== '' ? Number(value) : value;
    return safeInteger(number, String(value));
  },
  parseValue: (value) => safeInteger(value, String(value)),
  parseLiteral: (ast) =>
    safeInteger(ast.kind === Kind.INT ? Number.parseInt(ast.value, 10) : Number.NaN, print(ast), ast),
});
