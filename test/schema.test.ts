import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isObjectType, isEnumType, isInputObjectType } from 'graphql';
import { printedSchema, printedSubgraph, SCHEMA_FILE, SUBGRAPH_FILE } from '../src/graph/print.js';
import { schema } from '../src/graph/index.js';

describe('schema', () => {
  it('schema/schema.graphql is the schema printed from code (run `npm run schema:print` after a change)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });

  it('schema/subgraph.graphql is the Federation subgraph SDL printed from code, as `_service { sdl }` answers it (docs/federation.md)', () => {
    expect(readFileSync(SUBGRAPH_FILE, 'utf8')).toBe(printedSubgraph());
  });

  it('describes every type, field, argument and enum value', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : [])
            if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type))
        for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('directives', () => {
  it('keeps the specified directives beside @fresh, @defer and @stream', () => {
    const names = schema.getDirectives().map((directive) => directive.name);
    for (const name of ['include', 'skip', 'deprecated', 'specifiedBy', 'oneOf', 'fresh', 'defer', 'stream'])
      expect(names).toContain(name);
  });
});
