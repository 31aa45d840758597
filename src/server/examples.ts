import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ExampleOperation {
  name: string;
  query: string;
  variables: Record<string, unknown> | null;
}

export const EXAMPLES_DIR = fileURLToPath(new URL('../../schema/examples/', import.meta.url));

/**
 * The example operations of schema/examples/, shown as GraphiQL's first tabs and run by the tests.
 * A `# variables: {...}` first line gives an example's variables.
 */
export function loadExamples(dir = EXAMPLES_DIR): ExampleOperation[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => {
      const query = readFileSync(`${dir}${file}`, 'utf8');
      const variablesLine = /^#\s*variables:\s*(\{.*\})\s*$/m.exec(query);
      return {
        name: file.replace(/\.graphql$/, ''),
        query,
        variables: variablesLine ? (JSON.parse(variablesLine[1]!) as Record<string, unknown>) : null,
      };
    });
}
