/**
 * The static cost estimate: the most upstream calls an operation can make, computed from the
 * document before anything runs (see model.ts for how each field counts).
 *
 * It walks the operation from its root the way execution would, rather than with graphql's `visit`:
 * a field's cost is multiplied by the lengths of every list above it, and a fragment spread costs
 * what its fragment costs at that spread's place, so the walk carries the multiplier down and
 * expands fragments where they are spread. Fields are collected per response key as execution
 * collects them (repeated selections of one field merge, aliases are separate fields), fragments
 * and inline fragments apply by their type condition, @skip/@include are honoured, and arguments
 * are read with the operation's variables.
 *
 * It also records each list with a `first:` argument that has a link below it, by its response path,
 * and `firstOverrides` re-runs the walk as if the client had written another `first:` there: that is
 * how a refusal finds the `first:` that would bring an operation under its budget (./suggest.ts).
 */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  visit,
} from 'graphql';
import { lookupsOfNodeIds, NODE_ROOTS } from '../identity/global-id.js';
import { DEFAULT_LIST_CAP, type FieldCost, type ListBound, type SymbolsArgument } from './model.js';
import { entityLookups, type EntityCosts } from './entities.js';

export interface CostEstimate {
  /** The most upstream calls the operation can make. */
  cost: number;
  /** Of which: calls of one key each (root lookups and links). */
  lookupCalls: number;
  /** Of which: batched symbol calls. */
  symbolCalls: number;
  /** How many financial link fields the operation selects (times their multipliers). */
  symbolLinks: number;
  /** The lists with a `first:` argument and a link below them, most costly first. */
  lists: BoundedList[];
}

/** A list the client can cut with `first:`, with links below it. */
export interface BoundedList {
  /** Response path of the list field from the root, by response key: "videositeChannel.videosSections.videos". */
  path: string;
  /** The items counted for it: `first` as written, or the most the upstream returns. */
  counted: number;
  /** The calls made below it at most (summed over its parents' items; symbol slots counted as calls). */
  costBelow: number;
}

export interface EstimateInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
  /** FINANCIAL_BATCH_SIZE. */
  batchSize: number;
  /** Whether an action's lookups are stock symbols batched into one call (from the action registry). */
  batchedSymbols: (action: string) => boolean;
  /** `first` as if written on the lists at these response paths (see BoundedList.path). */
  firstOverrides?: ReadonlyMap<string, number>;
}

interface Walk {
  schema: GraphQLSchema;
  batchedSymbols: (action: string) => boolean;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  lookupCalls: number;
  symbolLinks: number;
  /** Distinct symbols named by root fields (the first wave). */
  rootSymbols: Set<string>;
  /** Symbol slots by wave: index 0 is the first wave. */
  waves: number[];
  firstOverrides: ReadonlyMap<string, number>;
  lists: Map<string, BoundedList>;
}

/** The estimate, or null when the operation cannot be found or its variables do not coerce (execution reports that). */
export function estimateCost(input: EstimateInput): CostEstimate | null {
  const operations = input.document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = input.operationName
    ? operations.find((op) => op.name?.value === input.operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) return null;
  const rootType = input.schema.getRootType(operation.operation);
  if (!rootType) return null;
  const coerced = getVariableValues(input.schema, operation.variableDefinitions ?? [], input.variables ?? {});
  if (coerced.errors) return null;

  const walk: Walk = {
    schema: input.schema,
    batchedSymbols: input.batchedSymbols,
    fragments: new Map(
      input.document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((f) => [f.name.value, f]),
    ),
    variables: coerced.coerced,
    lookupCalls: 0,
    symbolLinks: 0,
    rootSymbols: new Set(),
    waves: [],
    firstOverrides: input.firstOverrides ?? new Map(),
    lists: new Map(),
  };
  // Only queries reach lookups; mutations and subscriptions do not exist in this schema.
  const isQuery = operation.operation === 'query';
  walkSelections(walk, rootType, [operation.selectionSet], 1, 0, isQuery, '');

  walk.waves[0] = (walk.waves[0] ?? 0) + walk.rootSymbols.size;
  const symbolCalls = walk.waves.reduce((sum, slots) => sum + Math.ceil(slots / input.batchSize), 0);
  const lists = [...walk.lists.values()].filter((list) => list.costBelow > 0).sort((a, b) => b.costBelow - a.costBelow);
  return {
    cost: walk.lookupCalls + symbolCalls,
    lookupCalls: walk.lookupCalls,
    symbolCalls,
    symbolLinks: walk.symbolLinks,
    lists,
  };
}

/**
 * The variables an estimate can depend on: the walk reads variables only through @skip/@include, `first`
 * and the arguments of the root fields counted by their arguments (`financialProfiles(symbols:)`,
 * `node(id:)`, `nodes(ids:)`). Any other variable (a domain, a username) changes which lookups are made,
 * never how many, so one estimate serves every value of it. Over-inclusive where that is simpler: every
 * argument of a field with one of those root names counts, wherever the field is.
 */
export function costVariables(schema: GraphQLSchema, document: DocumentNode): ReadonlySet<string> {
  const countedByArguments = new Set(Object.keys(NODE_ROOTS));
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (field.extensions?.symbols || field.extensions?.entities) countedByArguments.add(field.name);
  }
  const names = new Set<string>();
  const collect = (value: ValueNode): void => {
    if (value.kind === Kind.VARIABLE) names.add(value.name.value);
    else if (value.kind === Kind.LIST) value.values.forEach(collect);
    else if (value.kind === Kind.OBJECT) for (const field of value.fields) collect(field.value);
  };
  visit(document, {
    Field(node) {
      const all = countedByArguments.has(node.name.value);
      for (const argument of node.arguments ?? []) if (all || argument.name.value === 'first') collect(argument.value);
    },
    Directive(node) {
      if (node.name.value === GraphQLSkipDirective.name || node.name.value === GraphQLIncludeDirective.name)
        for (const argument of node.arguments ?? []) collect(argument.value);
    },
  });
  return names;
}

function walkSelections(
  walk: Walk,
  type: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  multiplier: number,
  wave: number,
  isRoot: boolean,
  parentPath: string,
): void {
  for (const [key, nodes] of collectFields(walk, type, selectionSets)) {
    const name = nodes[0]!.name.value;
    if (name.startsWith('__')) continue; // introspection and __typename call nothing
    const field = type.getFields()[name];
    if (!field) continue; // validation has rejected it already
    const args = argumentsOf(walk, field, nodes[0]!);
    const entities = isRoot ? (field.extensions?.entities as EntityCosts | undefined) : undefined;
    if (entities) {
      walkEntities(walk, nodes, args, entities, wave, parentPath === '' ? key : `${parentPath}.${key}`);
      continue;
    }

    let childWave = wave;
    const declared = field.extensions?.cost as FieldCost | undefined;
    const symbolsArgument = isRoot ? (field.extensions?.symbols as SymbolsArgument | undefined) : undefined;
    if (symbolsArgument) {
      for (const symbol of symbolsOf(args, symbolsArgument)) walk.rootSymbols.add(symbol);
      childWave = wave + 1;
    } else if (isRoot && NODE_ROOTS[name]) {
      // node(id:) / nodes(ids:): one lookup per distinct lookup the ids name; symbols join the root batch.
      const { lookups, symbols } = lookupsOfNodeIds(args[NODE_ROOTS[name].argument], walk.batchedSymbols);
      walk.lookupCalls += lookups;
      for (const symbol of symbols) walk.rootSymbols.add(symbol);
      childWave = wave + 1;
    } else if (declared?.batchedSymbols) {
      walk.waves[wave] = (walk.waves[wave] ?? 0) + multiplier;
      walk.symbolLinks += multiplier;
      childWave = wave + 1;
    } else if (declared || isRoot) {
      walk.lookupCalls += multiplier;
    }

    const subSelections = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    if (subSelections.length === 0) continue;
    const path = parentPath === '' ? key : `${parentPath}.${key}`;
    const bound = field.extensions?.listBound as ListBound | undefined;
    const length = listLength(
      field,
      walk.firstOverrides.has(path) ? { ...args, first: walk.firstOverrides.get(path) } : args,
      isRoot,
    );
    const childMultiplier = multiplier * length;
    const named = getNamedType(field.type) as GraphQLNamedType;
    const objectTypes = isObjectType(named)
      ? [named]
      : isAbstractType(named)
        ? walk.schema.getPossibleTypes(named)
        : [];
    const before = walk.lookupCalls + walk.symbolLinks;
    // Each item is one of the possible types; counting every one of them is an upper bound.
    for (const objectType of objectTypes)
      walkSelections(walk, objectType, subSelections, childMultiplier, childWave, false, path);
    if (bound) {
      const list = walk.lists.get(path) ?? { path, counted: length, costBelow: 0 };
      list.counted = Math.max(list.counted, length);
      list.costBelow += walk.lookupCalls + walk.symbolLinks - before;
      walk.lists.set(path, list);
    }
  }
}

/**
 * Federation's `_entities(representations:)` (./entities.ts): one lookup per distinct key of each type,
 * symbols in the root batch; what is selected below a type counts once per distinct key of it.
 */
function walkEntities(
  walk: Walk,
  nodes: FieldNode[],
  args: Record<string, unknown>,
  entities: EntityCosts,
  wave: number,
  path: string,
): void {
  const { keys, symbols } = entityLookups(args.representations, entities);
  for (const symbol of symbols) walk.rootSymbols.add(symbol);
  const subSelections = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const [typename, ofType] of keys) {
    const type = walk.schema.getType(typename);
    if (!isObjectType(type)) continue;
    const batched = entities[typename]!.batchedSymbols;
    if (!batched) walk.lookupCalls += ofType.size;
    walkSelections(walk, type, subSelections, ofType.size, batched ? wave + 1 : wave, false, path);
  }
}

/** The fields of one selection for objects of `type`, by response key, as execution collects them. */
function collectFields(
  walk: Walk,
  type: GraphQLObjectType,
  selectionSets: readonly SelectionSetNode[],
  visited = new Set<string>(),
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const add = (key: string, node: FieldNode) => {
    const list = fields.get(key);
    if (list) list.push(node);
    else fields.set(key, [node]);
  };
  for (const selectionSet of selectionSets) {
    for (const selection of selectionSet.selections) {
      if (!included(walk, selection)) continue;
      if (selection.kind === Kind.FIELD) {
        add(selection.alias?.value ?? selection.name.value, selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (selection.typeCondition && !applies(walk, selection.typeCondition.name.value, type)) continue;
        for (const [key, nodes] of collectFields(walk, type, [selection.selectionSet], visited))
          for (const node of nodes) add(key, node);
      } else {
        const name = selection.name.value;
        const fragment = walk.fragments.get(name);
        if (!fragment || visited.has(name) || !applies(walk, fragment.typeCondition.name.value, type)) continue;
        // One set for the whole collection, as graphql-js does: a fragment spread twice in one
        // selection adds its fields once, so a chain of double spreads costs linear, not exponential, time.
        visited.add(name);
        for (const [key, nodes] of collectFields(walk, type, [fragment.selectionSet], visited))
          for (const node of nodes) add(key, node);
      }
    }
  }
  return fields;
}

function applies(walk: Walk, condition: string, type: GraphQLObjectType): boolean {
  if (condition === type.name) return true;
  const conditionType = walk.schema.getType(condition);
  return conditionType !== undefined && isAbstractType(conditionType) && walk.schema.isSubType(conditionType, type);
}

function included(walk: Walk, node: { directives?: readonly DirectiveNode[] }): boolean {
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, walk.variables)?.if === true) return false;
    if (getDirectiveValues(GraphQLIncludeDirective, node, walk.variables)?.if === false) return false;
  } catch {
    // a bad directive argument fails execution; count the selection
  }
  return true;
}

function argumentsOf(walk: Walk, field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> {
  try {
    return getArgumentValues(field, node, walk.variables);
  } catch {
    return {}; // execution reports the bad argument on the field
  }
}

function symbolsOf(args: Record<string, unknown>, symbols: SymbolsArgument): string[] {
  const value = args[symbols.argument];
  // A symbol that does not reduce is refused by the field; counting it as written is an upper bound.
  return Array.isArray(value)
    ? value.filter((s): s is string => typeof s === 'string').map((s) => symbols.canonical(s) ?? s)
    : [];
}

/** How many items a list field returns at most; 1 for a field that is not a list. */
function listLength(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>, isRoot: boolean): number {
  let type = getNullableType(field.type);
  let length = 1;
  while (isListType(type)) {
    length *= listBound(field, args, isRoot);
    type = getNullableType(type.ofType);
  }
  return length;
}

function listBound(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>, isRoot: boolean): number {
  const symbols = isRoot ? (field.extensions?.symbols as SymbolsArgument | undefined) : undefined;
  if (symbols) return symbolsOf(args, symbols).length;
  if (isRoot && NODE_ROOTS[field.name]?.list) {
    const ids = args[NODE_ROOTS[field.name]!.argument];
    return Array.isArray(ids) ? ids.length : 0;
  }
  const given = typeof args.first === 'number' && Number.isInteger(args.first) ? Math.max(args.first, 0) : null;
  const bound = field.extensions?.listBound as ListBound | undefined;
  // A list is complete unless `first` cuts it, and it holds no more than the upstream returns.
  if (bound) return Math.min(given ?? bound.most, bound.most);
  return given ?? DEFAULT_LIST_CAP;
}
