/**
 * Writes a trusted-documents file for TRUSTED_DOCUMENTS_FILE from a frontend's operations:
 *
 *   npm run trusted-documents -- src/graphql --out trusted-documents.json
 *   npm run trusted-documents -- --add-typename src/graphql --out trusted-documents.json
 *   npm run trusted-documents -- src/gql/persisted-documents.json persisted-query-manifest.json
 *
 * Inputs: .graphql/.gql files (folders are searched), GraphQL Code Generator's client-preset
 * `persisted-documents.json`, and Apollo's persisted-query manifest. The output is codegen's format,
 * `{ "sha256:<hex>": "<document>" }`. Documents of .graphql files are computed as codegen's client
 * preset computes them (one per operation with the fragments it uses, printed in the stable sorted
 * form, sha256 of that text), so the ids are the ones codegen and Apollo clients send; with
 * `--add-typename` every selection set gets `__typename` first, as urql, Apollo Client and codegen's
 * addTypenameSelectionDocumentTransform send it. JSON inputs are checked (each id the sha256 of its
 * document) and passed through.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { persistedDocumentsOf, readTrustedDocumentsJson, type PrintOptions } from './trusted-documents.js';

export function trustedDocuments(paths: string[], options: PrintOptions = {}): Record<string, string> {
  const files = paths.flatMap((path) => inputFiles(path));
  const graphql = files.filter((file) => !file.endsWith('.json')).sort();
  const documents: Record<string, string> = persistedDocumentsOf(
    graphql.map((file) => readFileSync(file, 'utf8')),
    options,
  );
  for (const file of files.filter((f) => f.endsWith('.json'))) {
    const problems: string[] = [];
    const read = readTrustedDocumentsJson(JSON.parse(readFileSync(file, 'utf8')), problems, file);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    for (const [hex, document] of read) documents[`sha256:${hex}`] = document;
  }
  return Object.fromEntries(Object.entries(documents).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function inputFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((entry) => {
    const full = join(path, entry);
    return statSync(full).isDirectory()
      ? inputFiles(full)
      : full.endsWith('.graphql') || full.endsWith('.gql')
        ? [full]
        : [];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : undefined;
  const addTypename = args.includes('--add-typename');
  const paths = args.filter((arg, i) => arg !== '--add-typename' && (outAt < 0 || (i !== outAt && i !== outAt + 1)));
  if (paths.length === 0) {
    console.error(
      'usage: npm run trusted-documents -- [--add-typename] <folder, .graphql file, codegen persisted-documents.json or Apollo manifest>... [--out file.json]',
    );
    process.exit(64);
  }
  let documents: Record<string, string>;
  try {
    documents = trustedDocuments(paths, { addTypename });
  } catch (error) {
    console.error(`trusted-documents: ${(error as Error).message}`);
    process.exit(1);
  }
  const json = `${JSON.stringify(documents, null, 2)}\n`;
  if (out) {
    writeFileSync(out, json);
    console.error(`wrote ${Object.keys(documents).length} trusted documents to ${out}`);
  } else {
    process.stdout.write(json);
  }
}
