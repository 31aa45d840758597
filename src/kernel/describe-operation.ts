import { type DocumentNode, getOperationAST } from 'graphql';

/** An operation's name and type as logs, spans and metrics report them: the name its document gives, else the one asked for. */
export function describeOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): { name: string | null; type: string } {
  const operation = getOperationAST(document, operationName);
  return { name: operation?.name?.value ?? operationName ?? null, type: operation?.operation ?? 'query' };
}
