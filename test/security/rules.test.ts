import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { maxAliasesRule, maxDirectivesRule } from '../../src/security/limits/armor.js';
import { INTROSPECTION_DEPTH, maxDepthRule } from '../../src/security/limits/depth.js';
import { maxRootFieldsRule } from '../../src/security/limits/root-fields.js';

// A recursive schema, so that depth is only bounded by the rule.
const schema = buildSchema('type Query { node: Node, other: Node } type Node { child: Node, name: String }');
const codes = (query: string, rule: Parameters<typeof validate>[2]) =>
  validate(schema, parse(query), rule).map((e) => e.extensions.code);

describe('limit rules on their own', () => {
  it('depth counts fields, not fragments, and expands a reused fragment at each place it is spread', () => {
    const rule = [maxDepthRule(4, true)];
    // F is 2 deep: fine under node (3), too deep under node.child.child (5).
    expect(codes('{ node { ...F } } fragment F on Node { child { name } }', rule)).toEqual([]);
    expect(
      codes('{ node { ...F } other { child { child { ...F } } } } fragment F on Node { child { name } }', rule),
    ).toEqual(['MAX_DEPTH_EXCEEDED']);
    expect(
      codes(
        '{ node { ...F } } fragment F on Node { ...G } fragment G on Node { ... on Node { child { name } } }',
        rule,
      ),
    ).toEqual([]);
  });

  it('introspection gets exactly the allowance of the standard introspection query', () => {
    const nested = (n: number) => `__schema { types { ${'ofType { '.repeat(n)}name${' }'.repeat(n)} } }`;
    expect(codes(`{ ${nested(INTROSPECTION_DEPTH - 3)} }`, [maxDepthRule(4, true)])).toEqual([]);
    expect(codes(`{ ${nested(INTROSPECTION_DEPTH - 2)} }`, [maxDepthRule(4, true)])).toEqual(['MAX_DEPTH_EXCEEDED']);
    expect(codes(`{ ${nested(2)} }`, [maxDepthRule(4, false)])).toEqual(['MAX_DEPTH_EXCEEDED']);
  });

  it('aliases, root fields and directives count a fragment once per spread', () => {
    const doc =
      '{ a: node { ...F } b: node { ...F } ...R ...R } fragment F on Node { x: name @skip(if: false) } fragment R on Query { other { name } }';
    expect(codes(doc, [maxAliasesRule(4)])).toEqual([]);
    expect(codes(doc, [maxAliasesRule(3)])).toEqual(['MAX_ALIASES_EXCEEDED']);
    expect(codes(doc, [maxRootFieldsRule(4)])).toEqual([]);
    expect(codes(doc, [maxRootFieldsRule(3)])).toEqual(['MAX_ROOT_FIELDS_EXCEEDED']);
    expect(codes(doc, [maxDirectivesRule(2)])).toEqual([]);
    expect(codes(doc, [maxDirectivesRule(1)])).toEqual(['MAX_DIRECTIVES_EXCEEDED']);
  });
});
