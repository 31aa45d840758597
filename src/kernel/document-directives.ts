import { BREAK, type DocumentNode, Kind, visit } from 'graphql';

/** Whether any of `names` is used anywhere in the document (a field, a fragment, the operation). */
export function usesDirective(document: DocumentNode, names: ReadonlySet<string>): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE](node) {
      if (!names.has(node.name.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}
