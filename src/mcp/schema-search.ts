import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLSchema,
} from 'graphql';

const firstSentence = (text: string | null | undefined) =>
  text ? (/^[\s\S]*?[.!?](\s|$)/.exec(text)?.[0] ?? text).trim().replace(/\s+/g, ' ') : '';
const comment = (text: string | null | undefined, indent: string) =>
  text ? `${indent}# ${firstSentence(text)}\n` : '';

/**
 * The types and fields of the schema whose name or description contains any of the words, as short
 * SDL: a type that matches with all its fields, else only the fields that match; each with the first
 * sentence of its description.
 */
export function searchSchema(schema: GraphQLSchema, words: string[]): string {
  const terms = words.map((word) => word.toLowerCase()).filter(Boolean);
  const matches = (...texts: Array<string | null | undefined>) =>
    terms.some((term) => texts.some((text) => text?.toLowerCase().includes(term)));
  const blocks: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || type.name.startsWith('__')) continue;
    const typeMatches = matches(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      const fields = Object.values(type.getFields()).filter(
        (field) => typeMatches || matches(field.name, field.description),
      );
      if (fields.length === 0) continue;
      const keyword = isInputObjectType(type) ? 'input' : isInterfaceType(type) ? 'interface' : 'type';
      const lines = fields.map((field) => {
        const args =
          'args' in field && field.args.length > 0
            ? `(${field.args.map((arg: GraphQLArgument) => `${arg.name}: ${String(arg.type)}`).join(', ')})`
            : '';
        return `${comment(field.description, '  ')}  ${field.name}${args}: ${String(field.type)}`;
      });
      blocks.push(`${comment(type.description, '')}${keyword} ${type.name} {\n${lines.join('\n')}\n}`);
    } else if (typeMatches && isEnumType(type)) {
      blocks.push(
        `${comment(type.description, '')}enum ${type.name} { ${type
          .getValues()
          .map((value) => value.name)
          .join(' ')} }`,
      );
    } else if (typeMatches && isUnionType(type)) {
      blocks.push(`${comment(type.description, '')}union ${type.name} = ${type.getTypes().join(' | ')}`);
    } else if (typeMatches && isScalarType(type)) {
      blocks.push(`${comment(type.description, '')}scalar ${type.name}`);
    }
  }
  return blocks.join('\n\n');
}
