import type { GraphQLError } from 'graphql';
import { ActionError } from '../kernel/errors.js';

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The code of each error, as clients see it in `extensions.code` (or the ActionError a resolver
 * threw, before masking). Codes are the gateway's and GraphQL's own; anything else counts as OTHER
 * and an error without a code as UNCODED, so metrics labels stay a bounded set.
 */
export function errorCodesOf(errors: readonly GraphQLError[] | undefined): string[] {
  if (!errors?.length) return [];
  return errors.map((error) => {
    const code = error.extensions?.code ?? (error.originalError instanceof ActionError ? error.originalError.code : undefined);
    if (code === undefined) return 'UNCODED';
    return typeof code === 'string' && CODE.test(code) ? code : 'OTHER';
  });
}
