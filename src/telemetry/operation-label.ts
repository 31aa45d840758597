import { Kind, parse } from 'graphql';

/**
 * The operation-name label of the request metrics, from a bounded set: the names of the trusted
 * documents and of METRICS_OPERATION_NAMES; an unnamed operation is "anonymous", every other name
 * "other" (a client choosing names must not be able to create series), a batch is "batch".
 */
export class OperationLabels {
  private readonly known = new Set<string>();

  constructor(trustedDocuments: Map<string, string> | null, extraNames: readonly string[]) {
    for (const name of extraNames) this.known.add(name);
    for (const text of trustedDocuments?.values() ?? []) {
      try {
        for (const definition of parse(text, { noLocation: true }).definitions) {
          if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) this.known.add(definition.name.value);
        }
      } catch {
        // The trusted-documents file was checked at start-up; a document that does not parse has no name to label.
      }
    }
  }

  /** Every label this gateway can report (for dashboards and tests). */
  get names(): string[] {
    return [...this.known, 'anonymous', 'other', 'batch'];
  }

  label(operationName: string | null | undefined): string {
    if (!operationName) return 'anonymous';
    return this.known.has(operationName) ? operationName : 'other';
  }
}
