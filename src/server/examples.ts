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

/** A GraphiQL tab: its document (one or more operations) and variables as JSON text. */
export interface GraphiqlTab {
  query: string;
  variables: string | null;
}

/**
 * GraphiQL's tabs, few enough to fit its tab bar: the README's first query (00-) first, the single-lookup
 * examples (01- to 19-) together in one tab (one operation each; GraphiQL asks which to run), and every
 * other example in a tab of its own.
 */
export function graphiqlTabs(examples: ExampleOperation[]): GraphiqlTab[] {
  const number = (example: ExampleOperation) => Number.parseInt(example.name, 10);
  const tab = (group: ExampleOperation[]): GraphiqlTab => {
    const variables: Record<string, unknown> = {};
    for (const [name, value] of group.flatMap((example) => Object.entries(example.variables ?? {}))) {
      // One tab has one set of variables: examples that share a tab need distinct variable names.
      if (name in variables)
        throw new Error(`schema/examples: the variable $${name} is used by two examples of one GraphiQL tab`);
      variables[name] = value;
    }
    return {
      query: group.map((example) => example.query.replace(/^#\s*variables:.*\n/m, '').trimEnd()).join('\n\n'),
      variables: Object.keys(variables).length > 0 ? JSON.stringify(variables, null, 2) : null,
    };
  };
  const lookups = examples.filter((example) => number(example) >= 1 && number(example) <= 19);
  return [
    ...examples.filter((example) => number(example) === 0).map((example) => tab([example])),
    ...(lookups.length > 0 ? [tab(lookups)] : []),
    ...examples.filter((example) => number(example) >= 20).map((example) => tab([example])),
  ];
}
