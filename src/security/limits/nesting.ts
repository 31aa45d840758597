// Own, not graphql-armor's max-tokens: one lexer pass bounds tokens and nesting together, before graphql-js's recursive parser.
import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import { rejection } from '../errors.js';

/** What the scan before parsing bounds (each the limit it refuses above). */
export interface DocumentShapeLimits {
  /** Lexical tokens (MAX_TOKENS_EXCEEDED). */
  maxTokens: number;
  /** Lists and input objects nested in argument values, default values and list types (MAX_INPUT_DEPTH_EXCEEDED). */
  maxInputDepth: number;
  /** Selection sets nested in one another, fields and inline fragments alike (MAX_DEPTH_EXCEEDED). */
  maxSelectionNesting: number;
}

type Opened = 'selection' | 'value' | 'parenthesis';

/**
 * graphql-js parses (and validates) by recursion, one call chain per nesting level: a list literal
 * nested a few thousand deep overflows the stack (RangeError, HTTP 500, an error log line per request)
 * before the token limit is reached. This scan walks the document's tokens in a loop, with an explicit
 * stack of the brackets it opened, and refuses it as soon as a limit is crossed, so the parser only ever
 * sees a document of bounded nesting. A `{` opens an input object when a value is expected (inside
 * parentheses, a list or another input object), a selection set otherwise; every `[` is a list (a list
 * value or a list type). A document the lexer cannot read is left to the parser, which reports the
 * same syntax error at the same place, having nested no deeper than this scan allowed.
 */
export function checkDocumentShape(source: string | Source, limits: DocumentShapeLimits): void {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  const opened: Opened[] = [];
  let values = 0;
  let selections = 0;
  let tokens = 0;
  for (;;) {
    let kind: TokenKind;
    try {
      kind = lexer.advance().kind;
    } catch (error) {
      if (error instanceof GraphQLError) return;
      throw error;
    }
    if (kind === TokenKind.EOF) return;
    if (++tokens > limits.maxTokens) throw tooManyTokens(limits.maxTokens);
    switch (kind) {
      case TokenKind.BRACE_L: {
        const inside = opened.at(-1);
        if (inside === undefined || inside === 'selection') {
          opened.push('selection');
          if (++selections > limits.maxSelectionNesting) throw tooDeepSelections(limits.maxSelectionNesting);
        } else {
          opened.push('value');
          if (++values > limits.maxInputDepth) throw tooDeepInput(limits.maxInputDepth);
        }
        break;
      }
      case TokenKind.BRACKET_L:
        opened.push('value');
        if (++values > limits.maxInputDepth) throw tooDeepInput(limits.maxInputDepth);
        break;
      case TokenKind.PAREN_L:
        opened.push('parenthesis');
        break;
      case TokenKind.BRACE_R:
      case TokenKind.BRACKET_R:
      case TokenKind.PAREN_R: {
        const closed = opened.pop();
        if (closed === 'value') values -= 1;
        else if (closed === 'selection') selections -= 1;
        break;
      }
    }
  }
}

export const tooManyTokens = (maxTokens: number) =>
  rejection('MAX_TOKENS_EXCEEDED', `The operation has more than ${maxTokens} tokens.`, 400, {
    extensions: { limit: maxTokens },
  });

const tooDeepInput = (limit: number) =>
  rejection(
    'MAX_INPUT_DEPTH_EXCEEDED',
    `An argument value nests lists or input objects more than ${limit} deep.`,
    400,
    { extensions: { limit } },
  );

const tooDeepSelections = (limit: number) =>
  rejection('MAX_DEPTH_EXCEEDED', `The operation nests selection sets more than ${limit} deep.`, 400, {
    extensions: { limit },
  });
