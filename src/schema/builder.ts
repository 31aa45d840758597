import SchemaBuilder from '@pothos/core';
import DirectivesPlugin from '@pothos/plugin-directives';
import RelayPlugin from '@pothos/plugin-relay';
import type { GatewayContext } from '../operation/context.js';
import { decodeNodeId, encodeNodeId } from '../identity/global-id.js';
import { nodeTypeOf } from '../identity/origin.js';
import { ExactURLScalar } from './exact-scalars.js';
import { DateScalar, DateTimeScalar, JSONScalar, SafeIntScalar } from './standard-scalars.js';

/** The Pothos builder, its scalars and the Context type. Types live with their actions. */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  Scalars: {
    Date: { Input: string; Output: string };
    DateTime: { Input: Date; Output: string };
    JSON: { Input: unknown; Output: unknown };
    SafeInt: { Input: number; Output: number };
    URL: { Input: string; Output: string };
  };
}>({
  // Federation's plugins are not here: the subgraph build (src/graph/subgraph.ts, FEDERATION=true) adds them
  // to this list, so the plain schema is built, and the gateway started, without @apollo/subgraph.
  plugins: [RelayPlugin, DirectivesPlugin],
  // Node ids are opaque: the type, the action and its canonical key (src/identity). A malformed id is BAD_USER_INPUT.
  relay: {
    encodeGlobalID: encodeNodeId,
    decodeGlobalID: decodeNodeId,
    nodeTypeOptions: {
      description:
        'An object the gateway can fetch again by its `id` with `node(id:)` or `nodes(ids:)`. The id is opaque and stable: the same object has the same id from any path, two different objects never share one.',
      resolveType: (value: unknown) => nodeTypeOf(value) ?? null,
    },
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

/** The schema types of the builder, for helpers that take one of its refs. */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

builder.addScalarType('Date', DateScalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('JSON', JSONScalar);
builder.addScalarType('SafeInt', SafeIntScalar);
builder.addScalarType('URL', ExactURLScalar); // the upstream's string unchanged (src/schema/exact-scalars.ts)

builder.queryType({
  description:
    'Lookups over the Data Lookup Action Service. Each root field is one upstream action; it is null, with a coded error, when that lookup fails, so one failure never erases the rest of a response.',
});
