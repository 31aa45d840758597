import { loadConfig } from '../../src/config.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/actions/all.js';
import type { FieldCost } from '../../src/cost/model.js';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import { schema } from '../../src/graph/index.js';

const SRC = new URL('../../src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The types the root fields return: a field elsewhere that returns one of them is a link. */
const ACTION_TYPES = new Set(
  Object.values(schema.getQueryType()!.getFields()).map((field) => getNamedType(field.type).name),
);

function everyField(): Array<{ type: string; field: GraphQLField<unknown, unknown> }> {
  return Object.values(schema.getTypeMap())
    .filter(
      (type): type is Extract<GraphQLNamedType, { getFields: unknown }> =>
        (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith('__') && type !== schema.getQueryType(),
    )
    .flatMap((type) =>
      Object.values(type.getFields()).map((field) => ({
        type: type.name,
        field: field as GraphQLField<unknown, unknown>,
      })),
    );
}

describe('one descriptor per action', () => {
  it('the registry holds all eleven actions, each with its own root field', () => {
    expect(ACTIONS).toHaveLength(11);
    const rootFields = Object.keys(schema.getQueryType()!.getFields());
    for (const action of ACTIONS) expect(rootFields).toContain(action.rootField);
    expect(new Set(ACTIONS.map((a) => a.rootField)).size).toBe(11);
  });

  it('TTLs come from the descriptors, and the sandbox answers every action and no other', () => {
    for (const action of ACTIONS) expect(loadConfig({}).cache.ttlMs[action.action]).toBe(action.ttlSeconds * 1000);
    expect(Object.keys(SANDBOX_ACTIONS).sort()).toEqual(ACTIONS.map((a) => a.action).sort());
  });

  it("every action's name appears in src only inside its own folder (and its sandbox sample of the same name)", () => {
    const sources = files(SRC).filter((path) => path.endsWith('.ts'));
    const home = (path: string) =>
      relative(SRC, path)
        .replace(/^sandbox\/samples\/([a-z-]+)\.ts$/, 'actions/$1')
        .split('/')
        .slice(0, 2)
        .join('/');
    for (const { action, rootField } of ACTIONS) {
      const dirs = new Set(sources.filter((path) => readFileSync(path, 'utf8').includes(action)).map(home));
      expect([...dirs], `${action} (${rootField})`).toHaveLength(1);
      expect([...dirs][0]).toMatch(/^actions\/[a-z-]+$/);
    }
  });

  it('every link field (a non-root field returning an action type) declares its cost, derived from its target', () => {
    const links = everyField().filter(({ field }) => ACTION_TYPES.has(getNamedType(field.type).name));
    expect(links.length).toBeGreaterThanOrEqual(8);
    for (const { type, field } of links) {
      const cost = field.extensions?.cost as FieldCost | undefined;
      expect(cost, `${type}.${field.name}`).toBeDefined();
      const target = ACTIONS.find((a) => a.action === cost!.action)!;
      expect(target, `${type}.${field.name}`).toBeDefined();
      expect(Boolean(cost!.batchedSymbols)).toBe(Boolean(target.batchedSymbols));
    }
  });

  it('every list with a link anywhere below it takes an optional `first:` and declares the most items the upstream returns', () => {
    const hasLinkBelow = (name: string, seen = new Set<string>()): boolean => {
      if (seen.has(name)) return false;
      seen.add(name);
      const type = schema.getType(name);
      if (!type || !(isObjectType(type) || isInterfaceType(type))) return false;
      return Object.values(type.getFields()).some(
        (f) => f.extensions?.cost !== undefined || hasLinkBelow(getNamedType(f.type).name, seen),
      );
    };
    const lists = everyField().filter(({ field }) => {
      const type = isNonNullType(field.type) ? field.type.ofType : field.type;
      return isListType(type) && hasLinkBelow(getNamedType(field.type).name);
    });
    expect(lists.map(({ type, field }) => `${type}.${field.name}`).sort()).toEqual([
      'VideositeChannel.videosSections',
      'VideositeSearch.channels',
      'VideositeSearch.shorts',
      'VideositeSearch.videos',
      'VideositeShortsSection.items',
      'VideositeVideoSection.videos',
    ]);
    for (const { field } of lists) {
      const first = field.args.find((a) => a.name === 'first');
      expect(first?.type.toString()).toBe('Int');
      expect(first?.defaultValue).toBeUndefined();
      expect(field.extensions?.listBound).toEqual({ most: expect.any(Number) });
    }
  });
});
