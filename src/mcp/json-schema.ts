import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
} from 'graphql';

/** A JSON Schema (draft 2020-12, the dialect MCP tool schemas use), as plain data. */
export type JsonSchema = { [key: string]: unknown };

/** The JSON types of the schema's scalars; a scalar not listed (JSON) takes any value. */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  Int: { type: 'integer' },
  SafeInt: { type: 'integer' },
  Float: { type: 'number' },
  Date: { type: 'string', format: 'date' },
  DateTime: { type: 'string', format: 'date-time' },
  URL: { type: 'string', format: 'uri' },
};

function named(type: GraphQLNamedType): JsonSchema {
  if (isScalarType(type)) return { ...(SCALARS[type.name] ?? {}) };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.name) };
  return {};
}

/** The JSON Schema of a variable's type: what a tool argument accepts. */
export function inputJsonSchema(type: GraphQLInputType): JsonSchema {
  if (isNonNullType(type)) return inputJsonSchema(type.ofType);
  if (isListType(type)) return { type: 'array', items: inputJsonSchema(type.ofType as GraphQLInputType) };
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    return {
      type: 'object',
      properties: Object.fromEntries(
        fields.map((field) => [field.name, describe(inputJsonSchema(field.type), field.description)]),
      ),
      required: fields
        .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
        .map((field) => field.name),
      additionalProperties: false,
    };
  }
  return named(type);
}

/**
 * The JSON Schema of one selected field's value: `object` is the schema of its selection (for object,
 * interface and union types); a nullable type also takes null.
 */
export function outputJsonSchema(type: GraphQLOutputType, object: JsonSchema): JsonSchema {
  const inner = getNullableType(type);
  const schema = isListType(inner)
    ? { type: 'array', items: outputJsonSchema(inner.ofType, object) }
    : isLeaf(inner)
      ? named(inner)
      : object;
  return isNonNullType(type) ? schema : orNull(schema);
}

const isLeaf = (type: GraphQLOutputType) => isScalarType(getNamedType(type)) || isEnumType(getNamedType(type));

function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string')
    return {
      ...schema,
      type: [schema.type, 'null'],
      ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}),
    };
  return Object.keys(schema).length === 0 ? schema : { anyOf: [schema, { type: 'null' }] };
}

export function describe(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}
