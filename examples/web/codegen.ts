import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { addTypenameSelectionDocumentTransform } from '@graphql-codegen/client-preset';

/**
 * Types and persisted documents for the app's operations (src/graphql/*.graphql), generated from the
 * gateway's committed schema. `npm run codegen` (run by dev and build) regenerates src/gql/ and
 * persisted-documents.json.
 */
const SCHEMA = '../../schema/schema.graphql';

// The @defer directive comes from the gateway's printed schema once it declares it; until then from
// graphql/client-directives.graphql. Never both: a directive defined twice is an error.
const schemaDeclaresDefer = /^directive @defer\b/m.test(readFileSync(SCHEMA, 'utf8'));

// The gateway's scalar map (schema/client/codegen-scalars.json, printed with the schema), with JSON
// narrowed to the app's JsonValue instead of unknown.
const gatewayScalars = JSON.parse(readFileSync('../../schema/client/codegen-scalars.json', 'utf8')) as Record<string, { input: string; output: string }>;

const config: CodegenConfig = {
  schema: schemaDeclaresDefer ? [SCHEMA] : [SCHEMA, 'graphql/client-directives.graphql'],
  documents: ['src/graphql/**/*.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: {
        // persisted-documents.json: { "sha256:<hex>": document }, and each document carries its hash.
        persistedDocuments: { hashAlgorithm: (operation: string) => `sha256:${createHash('sha256').update(operation).digest('hex')}` },
        fragmentMasking: false,
      },
      // urql's Graphcache needs __typename: put it in the persisted documents themselves, since in
      // trusted-documents mode the gateway runs the stored document, not what the client would send.
      documentTransforms: [addTypenameSelectionDocumentTransform],
      config: {
        // The gateway's custom scalars; strictScalars makes codegen fail on one that is not mapped.
        strictScalars: true,
        scalars: {
          ...gatewayScalars,
          ID: { input: 'string', output: 'string' },
          JSON: { input: 'import("../json").JsonValue', output: 'import("../json").JsonValue' },
        },
        enumsAsTypes: true,
        useTypeImports: true,
        // Types for the app's operations only, not every type of the gateway's schema.
        onlyOperationTypes: true,
      },
    },
  },
};

export default config;
