import { GraphQLError, parse, type ParseOptions, type Source } from 'graphql';
import { checkDocumentShape, tooManyTokens, type DocumentShapeLimits } from './nesting.js';

/**
 * graphql-js's parser behind the shape scan (./nesting.ts: tokens, input nesting, selection nesting),
 * so an oversized or deeply nested document costs one linear pass and never reaches the recursive
 * parser. `maxTokens` is passed on too: the parser's own count is the same as the scan's.
 */
export function parseWithinLimits(limits: DocumentShapeLimits) {
  return (source: string | Source, options?: ParseOptions) => {
    checkDocumentShape(source, limits);
    try {
      return parse(source, { ...options, maxTokens: limits.maxTokens });
    } catch (error) {
      // graphql 16 says "more that N tokens"; later versions may fix the typo.
      if (error instanceof GraphQLError && /Document contains more th(?:an|at) \d+ tokens/.test(error.message))
        throw tooManyTokens(limits.maxTokens);
      throw error;
    }
  };
}
