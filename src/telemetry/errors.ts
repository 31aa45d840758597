import type { GraphQLError } from 'graphql';
import { ActionError } from '../kernel/errors.js';

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The code of the one error that stands for the errors a response leaves out (src/server/error-bound.ts). */
export const ERRORS_OMITTED = 'ERRORS_OMITTED';

/**
 * The code of each error, as clients see it in `extensions.code` (or the ActionError a resolver
 * threw, before masking). Codes are the gateway's and GraphQL's own; anything else counts as OTHER
 * and an error without a code as UNCODED, so metrics labels stay a bounded set. The error standing
 * for those a response left out counts as the errors it stands for.
 */
export function errorCodesOf(errors: readonly GraphQLError[] | undefined): string[] {
  if (!errors?.length) return [];
  const codes: string[] = [];
  for (const error of errors) {
    const code =
      error.extensions?.code ?? (error.originalError instanceof ActionError ? error.originalError.code : undefined);
    if (code === ERRORS_OMITTED && isCounts(error.extensions.byCode)) {
      for (const [omitted, count] of Object.entries(error.extensions.byCode))
        for (let i = 0; i < count; i += 1) codes.push(omitted);
    } else if (code === undefined) codes.push('UNCODED');
    else codes.push(typeof code === 'string' && CODE.test(code) ? code : 'OTHER');
  }
  return codes;
}

function isCounts(value: unknown): value is Record<string, number> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((count) => Number.isInteger(count) && count >= 0)
  );
}

/** How many times each code occurs. */
export function countByCode(codes: readonly string[]): Record<string, number> {
  const byCode: Record<string, number> = {};
  for (const code of codes) byCode[code] = (byCode[code] ?? 0) + 1;
  return byCode;
}
