import { GraphQLError, parse, type ParseOptions, type Source } from 'graphql';
import { rejection } from '../errors.js';

/**
 * graphql-js's parser with its `maxTokens` option: the lexer stops at the limit, so an oversized
 * document costs at most `maxTokens` tokens of work and never reaches validation. MAX_TOKENS_EXCEEDED.
 */
export function parseWithTokenLimit(maxTokens: number) {
  return (source: string | Source, options?: ParseOptions) => {
    try {
      return parse(source, { ...options, maxTokens });
    } catch (error) {
      // graphql 16 says "more that N tokens"; later versions may fix the typo.
      if (error instanceof GraphQLError && /Document contains more th(?:an|at) \d+ tokens/.test(error.message)) {
        throw rejection('MAX_TOKENS_EXCEEDED', `The operation has more than ${maxTokens} tokens.`, 400, { extensions: { limit: maxTokens } });
      }
      throw error;
    }
  };
}
