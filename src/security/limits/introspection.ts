import { getNamedType, isIntrospectionType, type ASTVisitor, type ValidationContext } from 'graphql';
import { rejection } from '../errors.js';

/**
 * INTROSPECTION_DISABLED: graphql-js's NoSchemaIntrospectionCustomRule with a code. Any field whose
 * type is an introspection type (`__schema`, `__type`, wherever spread) is refused; `__typename`
 * is not introspection and stays allowed. One error per document, naming the first such field: the
 * fields nested under `__schema` are the same refusal, not more of them.
 */
export function noIntrospectionRule(context: ValidationContext): ASTVisitor {
  let reported = false;
  return {
    Field(node) {
      const type = getNamedType(context.getType());
      if (!reported && type && isIntrospectionType(type)) {
        reported = true;
        context.reportError(
          rejection('INTROSPECTION_DISABLED', `Introspection is disabled on this gateway ("${node.name.value}").`, 400),
        );
      }
    },
  };
}
