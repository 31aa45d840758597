import { maxAliasesRule as armorAliases } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule as armorDirectives } from '@escape.tech/graphql-armor-max-directives';
import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import { overLimit, type CountLimit } from './count-rule.js';

type ArmorOptions = {
  n: number;
  allowList?: string[];
  propagateOnRejection: boolean;
  onReject: Array<(context: ValidationContext | null, error: GraphQLError) => void>;
};

/**
 * A graphql-armor rule whose refusal is reported as the gateway's (its code, 400, the limit) instead of
 * thrown: armor says "… limit of N exceeded, found M.", and M is read back from that.
 */
function armored(
  rule: (options: ArmorOptions) => (context: ValidationContext) => object,
  refusal: Omit<CountLimit, 'count'>,
  limit: number,
  options: Partial<ArmorOptions> = {},
): ValidationRule {
  const armorRule = rule({
    ...options,
    n: limit,
    propagateOnRejection: false,
    onReject: [
      (context, error) =>
        context?.reportError(overLimit(refusal, Number(/found (\S+)\.$/.exec(error.message)?.[1] ?? Infinity), limit)),
    ],
  });
  // Its visitor class types OperationDefinition loosely; it is a visitor all the same.
  return armorRule as ValidationRule;
}

/**
 * MAX_ALIASES_EXCEEDED: an operation uses more than `limit` aliases, counted as it would execute:
 * `__typename` aliases included, and a fragment's aliases once per spread (armor measures each fragment once).
 */
export const maxAliasesRule = (limit: number) =>
  // Armor exempts `__typename` aliases by default; each is an alias all the same.
  armored(armorAliases, { code: 'MAX_ALIASES_EXCEEDED', noun: 'aliases', verb: 'uses' }, limit, { allowList: [] });

/**
 * MAX_DIRECTIVES_EXCEEDED: an operation carries more than `limit` directives: the operation's own
 * and every field's and inline fragment's, a fragment's once per spread.
 */
export const maxDirectivesRule = (limit: number) =>
  armored(armorDirectives, { code: 'MAX_DIRECTIVES_EXCEEDED', noun: 'directives', verb: 'uses' }, limit);
