import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  getNamedType,
  isInputType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  Kind,
  parse,
  print,
  TypeInfo,
  typeFromAST,
  validate,
  valueFromASTUntyped,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { describe, inputJsonSchema, outputJsonSchema, type JsonSchema } from './json-schema.js';

/** One tool: a named GraphQL query of a file, with the JSON Schemas of its variables and of its data. */
export interface ToolOperation {
  /** The operation's name in snake_case. */
  name: string;
  operationName: string;
  /** The file's exact text: what is sent (or hashed, for trusted documents). */
  document: string;
  file: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Each variable's GraphQL type as written, for the messages on bad arguments. */
  variables: Map<string, string>;
  /** Where to get the rest when an answer is trimmed: the file's `# more:` comment lines. */
  more: string | null;
}

export const DEFAULT_OPERATIONS_DIR = fileURLToPath(new URL('../../schema/mcp/', import.meta.url));

/**
 * Keys the gateway adds beside the data of a tool's answer, without descriptions: the server's
 * instructions say once what they hold, rather than every tool's output schema.
 */
export const ANSWER_KEYS: Record<string, JsonSchema> = {
  _errors: { type: 'array', items: { type: 'object' } },
  _trimmed: { type: 'array', items: { type: 'string' } },
};

class ToolOperationError extends Error {
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = 'ToolOperationError';
  }
}

/** "FinancialProfiles" or "financialProfiles" → "financial_profiles": a tool's name from its operation's. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/**
 * The tools of the default folder, then of each extra folder: a later tool of the same name replaces
 * an earlier one. A file that does not parse, holds other than one named query, or does not validate
 * against the schema throws, naming the file.
 */
export function loadToolOperations(schema: GraphQLSchema, dirs: string[]): ToolOperation[] {
  const tools = new Map<string, ToolOperation>();
  for (const dir of dirs) {
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith('.graphql'))
      .sort()) {
      const tool = toolOperation(schema, join(dir, file), readFileSync(join(dir, file), 'utf8'));
      tools.set(tool.name, tool);
    }
  }
  return [...tools.values()];
}

function toolOperation(schema: GraphQLSchema, file: string, text: string): ToolOperation {
  let document: DocumentNode;
  try {
    document = parse(text);
  } catch (error) {
    throw new ToolOperationError(file, (error as Error).message);
  }
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1)
    throw new ToolOperationError(file, `holds ${operations.length} operations; a tool is exactly one named query`);
  const operation = operations[0]!;
  if (operation.operation !== 'query')
    throw new ToolOperationError(file, `is a ${operation.operation}; only queries are tools`);
  if (!operation.name) throw new ToolOperationError(file, 'the operation has no name; the tool is named after it');
  const errors = validate(schema, document);
  if (errors.length > 0) throw new ToolOperationError(file, errors.map((error) => error.message).join('; '));

  // `# variables: {...}` lines are example variables (the convention of schema/examples), not description.
  const comment = leadingComment(text).filter((line) => !/^variables:/i.test(line));
  const more = comment.filter((line) => /^more:/i.test(line)).map((line) => line.replace(/^more:\s*/i, ''));
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const queryType = schema.getQueryType()!;

  return {
    name: snakeCase(operation.name.value),
    operationName: operation.name.value,
    document: text,
    file,
    // The file's comment, written for an agent; the fields' GraphQL documentation is in lookup://schema.graphql.
    description: comment.filter((line) => !/^more:/i.test(line)).join(' '),
    inputSchema: variablesSchema(schema, document, operation),
    // _errors and _trimmed are allowed beside the data (no additionalProperties: false); the server's
    // instructions say once what they hold.
    outputSchema: sharedDefinitions({
      type: 'object',
      properties: selectionSchema(schema, operation.selectionSet, queryType, fragments).properties,
    }),
    variables: new Map(
      (operation.variableDefinitions ?? []).map((definition) => [
        definition.variable.name.value,
        print(definition.type),
      ]),
    ),
    more: more.length > 0 ? more.join(' ') : null,
  };
}

/** The `#` lines before the first definition, without their `#`. */
function leadingComment(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) break;
    lines.push(trimmed.replace(/^#+\s?/, ''));
  }
  return lines;
}

function variablesSchema(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): JsonSchema {
  // Each variable's description is the description of the argument it is passed to, and its bounds the
  // argument's own (its `jsonSchema` extension: minimum, maximum, maxItems ...).
  const descriptions = new Map<string, string>();
  const bounds = new Map<string, JsonSchema>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        if (node.value.kind !== Kind.VARIABLE || !argument) return;
        const variable = node.value.name.value;
        if (argument.description && !descriptions.has(variable)) descriptions.set(variable, argument.description);
        const stated = argument.extensions?.jsonSchema as JsonSchema | undefined;
        if (stated) bounds.set(variable, { ...bounds.get(variable), ...stated });
      },
    }),
  );
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as Parameters<typeof typeFromAST>[1]);
    if (!type || !isInputType(type)) continue; // validate() has refused these
    let property = describe({ ...inputJsonSchema(type), ...bounds.get(name) }, firstSentence(descriptions.get(name)));
    if (definition.defaultValue) property = { ...property, default: valueFromASTUntyped(definition.defaultValue) };
    properties[name] = property;
    if (isNonNullType(type) && !definition.defaultValue) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * An argument's description up to its first full stop or semicolon ("e.g." aside): what an agent needs
 * to fill it in. The rest (every accepted form) is in lookup://schema.graphql, and bounds are keywords.
 */
function firstSentence(description: string | undefined): string | undefined {
  if (!description) return description;
  return /^.*?(?<!\be\.g|\bi\.e)[.;](?=\s|$)/s.exec(description)?.[0].replace(/;$/, '.') ?? description;
}

/** The JSON Schema of the object a selection set makes on `parent`: one property per response key. */
function selectionSchema(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType,
  fragments: Map<string, FragmentDefinitionNode>,
): { type: 'object'; properties: Record<string, JsonSchema> } {
  const properties: Record<string, JsonSchema> = {};
  const merge = (more: Record<string, JsonSchema>) => Object.assign(properties, more);
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      if (selection.name.value === '__typename') {
        properties[key] = { type: 'string' };
        continue;
      }
      const field =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) continue;
      const object = selection.selectionSet
        ? selectionSchema(schema, selection.selectionSet, getNamedType(field.type), fragments)
        : {};
      // No descriptions: the schema resource has them once; here they would be a third of tools/list.
      properties[key] = outputJsonSchema(field.type, object);
    } else {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) continue;
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
      if (condition) merge(selectionSchema(schema, fragment.selectionSet, condition, fragments).properties);
    }
  }
  return { type: 'object', properties };
}

/**
 * An output schema with each object shape that occurs more than once (a period's `start` and `end`)
 * written once under `$defs` and referred to by `$ref`.
 */
function sharedDefinitions(root: JsonSchema): JsonSchema {
  const seen = new Map<string, { count: number; name: string }>();
  const names = new Set<string>();
  const count = (node: unknown, key: string) => {
    if (!node || typeof node !== 'object') return;
    const schema = node as JsonSchema;
    if (schema.properties && schema !== root) {
      const text = JSON.stringify(schema);
      const known = seen.get(text);
      if (known) known.count++;
      else {
        let name = key;
        for (let i = 2; names.has(name); i++) name = `${key}${i}`;
        names.add(name);
        seen.set(text, { count: 1, name });
      }
    }
    for (const [child, value] of Object.entries(schema.properties ?? {})) count(value, child);
    if (schema.items) count(schema.items, key);
  };
  count(root, 'root');
  const $defs: Record<string, JsonSchema> = {};
  const replace = (node: JsonSchema): JsonSchema => {
    const shared = node !== root && node.properties ? seen.get(JSON.stringify(node)) : undefined;
    const inner: JsonSchema = { ...node };
    if (node.properties)
      inner.properties = Object.fromEntries(
        Object.entries(node.properties as Record<string, JsonSchema>).map(([key, value]) => [key, replace(value)]),
      );
    if (node.items) inner.items = replace(node.items as JsonSchema);
    // Shared only where it saves bytes: a `$ref` and its definition cost about 40.
    if (!shared || (shared.count - 1) * JSON.stringify(inner).length < 40 + shared.count * 20) return inner;
    $defs[shared.name] = inner;
    return { $ref: `#/$defs/${shared.name}` };
  };
  const out = replace(root);
  return Object.keys($defs).length > 0 ? { ...out, $defs } : out;
}
