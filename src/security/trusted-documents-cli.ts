/**
 * Writes a trusted-documents file for TRUSTED_DOCUMENTS_FILE from a frontend's operations:
 *
 *   npm run trusted-documents -- schema/examples > trusted-documents.json
 *   npm run trusted-documents -- src/graphql --out trusted-documents.json
 *
 * Every .graphql file under the given folders (or each file given) is one document; the output is
 * `{ "<sha256 hex of the file's text>": "<the text>" }`. Clients send the same hash as
 * `extensions: { persistedQuery: { version: 1, sha256Hash } }` and no query.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'graphql';

export function trustedDocuments(paths: string[]): Record<string, string> {
  const files = paths.flatMap((path) => graphqlFiles(path)).sort();
  const documents: Record<string, string> = {};
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    parse(text); // a document that does not parse stops the script, naming nothing secret
    documents[createHash('sha256').update(text).digest('hex')] = text;
  }
  return documents;
}

function graphqlFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((entry) => {
    const full = join(path, entry);
    return statSync(full).isDirectory() ? graphqlFiles(full) : full.endsWith('.graphql') || full.endsWith('.gql') ? [full] : [];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : undefined;
  const paths = outAt >= 0 ? args.filter((_, i) => i !== outAt && i !== outAt + 1) : args;
  if (paths.length === 0) {
    console.error('usage: npm run trusted-documents -- <folder or .graphql file>... [--out file.json]');
    process.exit(64);
  }
  const json = `${JSON.stringify(trustedDocuments(paths), null, 2)}\n`;
  if (out) {
    writeFileSync(out, json);
    console.error(`wrote ${Object.keys(JSON.parse(json)).length} trusted documents to ${out}`);
  } else {
    process.stdout.write(json);
  }
}
