import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { embeddedTypes, scalars } from './client-config.js';
import { schema } from './index.js';
import { subgraph } from './subgraph.js';

/** `npm run schema:print`: writes schema/schema.graphql and schema/subgraph.graphql from the code. A test fails when they differ. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}

/** The subgraph's SDL as `_service { sdl }` answers it with FEDERATION=true (default settings), for composition checks and schema registries. */
export const SUBGRAPH_FILE = fileURLToPath(new URL('../../schema/subgraph.graphql', import.meta.url));

export function printedSubgraph(): string {
  return `${subgraph({ nodeFields: false }).sdl}\n`;
}

/** Files for frontends (see client-config.ts): the codegen scalar map and the embedded types, by path. */
export const CLIENT_FILES: Record<string, () => string> = {
  [fileURLToPath(new URL('../../schema/client/codegen-scalars.json', import.meta.url))]: () =>
    `${JSON.stringify(scalars, null, 2)}\n`,
  [fileURLToPath(new URL('../../schema/client/embedded-types.json', import.meta.url))]: () =>
    `${JSON.stringify(embeddedTypes(), null, 2)}\n`,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  writeFileSync(SUBGRAPH_FILE, printedSubgraph());
  mkdirSync(fileURLToPath(new URL('../../schema/client/', import.meta.url)), { recursive: true });
  for (const [file, content] of Object.entries(CLIENT_FILES)) writeFileSync(file, content());
  console.log(`wrote ${SCHEMA_FILE} and ${SUBGRAPH_FILE}`);
}
