import { validate, type DocumentNode, type GraphQLError, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { OperationLimits } from '../settings.js';
import { maxAliasesRule, maxDirectivesRule } from './armor.js';
import { INTROSPECTION_DEPTH, maxDepthRule } from './depth.js';
import { noIntrospectionRule } from './introspection.js';
import { onlyQueriesRule } from './only-queries.js';
import { maxRootFieldsRule } from './root-fields.js';
import { maxRepeatedFieldsRule } from './repeated-fields.js';
import { parseWithinLimits } from './parse.js';

/**
 * The operation limits, all before execution: tokens and nesting before parsing, then the limit rules as a
 * validation pass of their own that runs BEFORE graphql-js's specified rules and stops there, so
 * an alias bomb never reaches the quadratic OverlappingFieldsCanBeMerged check, let alone a
 * resolver. Verdicts are remembered per parsed document (Yoga caches parsed documents by text).
 */
export function useOperationLimits(limits: OperationLimits, options: { introspection: boolean }): Plugin {
  const rules: ValidationRule[] = [
    onlyQueriesRule,
    maxDepthRule(limits.maxDepth, options.introspection),
    maxAliasesRule(limits.maxAliases),
    maxRootFieldsRule(limits.maxRootFields),
    maxDirectivesRule(limits.maxDirectives),
    ...(options.introspection ? [] : [noIntrospectionRule]),
    // Last of the limits: a document over another limit is told of that one first.
    maxRepeatedFieldsRule(limits.maxRepeatedFields),
    // The cost budget (COST_LIMIT_EXCEEDED) is not one of these rules: it needs the variables, so
    // src/cost/plugin.ts checks it when the operation is about to execute, still before any upstream call.
  ];
  const parse = parseWithinLimits({
    maxTokens: limits.maxTokens,
    maxInputDepth: limits.maxInputDepth,
    // Room for an inline fragment at every field level of the deepest operation allowed; MAX_DEPTH
    // itself is checked on the parsed document, fragments expanded.
    maxSelectionNesting: 2 * Math.max(limits.maxDepth, options.introspection ? INTROSPECTION_DEPTH : 0),
  });
  const verdicts = new WeakMap<DocumentNode, readonly GraphQLError[]>();

  return {
    onParse({ setParseFn }) {
      setParseFn(parse);
    },
    onValidate({ params: { schema, documentAST: document }, setResult }) {
      const documentAST = document as DocumentNode;
      let errors = verdicts.get(documentAST);
      if (!errors) {
        errors = validate(schema, documentAST, rules, { maxErrors: 10 });
        verdicts.set(documentAST, errors);
      }
      if (errors.length > 0) setResult([...errors]);
    },
  };
}
