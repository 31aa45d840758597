/**
 * The Federation v2 subgraph schema (FEDERATION=true): the same Pothos schema as the plain one, built by
 * @pothos/plugin-federation with @link, the entities' @key, `_entities` and `_service`, plus the hints of
 * src/schema/subgraph-hints.ts (@shareable value types, @cost/@listSize, `node`/`nodes` left out unless
 * asked). Frontends' own operations run on it exactly as on the plain schema.
 */
import { printSubgraphSchema } from '@apollo/subgraph';
import {
  type GraphQLFieldConfig,
  GraphQLObjectType,
  GraphQLSchema,
  isSpecifiedDirective,
  specifiedDirectives,
} from 'graphql';
import { FreshDirective, withFreshReads } from '../cache/fresh.js';
import { NODE_ROOTS } from '../identity/global-id.js';
import { MAX_NODE_IDS } from '../actions/node.js';
import { GraphQLDeferDirective, GraphQLStreamDirective } from '../incremental/index.js';
import FederationPlugin from '@pothos/plugin-federation';
import { builder } from '../schema/builder.js';
import SubgraphHintsPlugin from '../schema/subgraph-hints.js';
// Every type, field, link, node and entity registered (the plain schema's module imports them all), and
// the plain schema built, without Federation's plugins.
import './index.js';
import { declareEntities, entityResolvers, isEntity } from '../actions/entity.js';

// Pothos reads its builder's plugin list at each build: from here on the builds are the subgraph's.
// Entities, @key and the other subgraph directives are kept in extensions and printed only by the
// subgraph schema; the directives plugin gives them the AST nodes that printer reads. Pothos applies
// plugins' config hooks last to first: the hints come last so that the federation plugin sees the
// directives they add.
builder.options.plugins = [...(builder.options.plugins ?? []), FederationPlugin, SubgraphHintsPlugin];
declareEntities();

/** Federation 2.9: the first version with @cost and @listSize. */
const FEDERATION_SPEC_URL = 'https://specs.apollo.dev/federation/v2.9';

/** The Federation directives the subgraph's SDL uses, imported by its @link. */
const FEDERATION_DIRECTIVES = ['@cost', '@key', '@listSize', '@shareable'];

export interface SubgraphOptions {
  /** FEDERATION_NODE_FIELDS: keep `node`/`nodes`. */
  nodeFields: boolean;
}

export interface Subgraph {
  schema: GraphQLSchema;
  /** What `_service { sdl }` answers: the subgraph's SDL for composition (schema/subgraph.graphql). */
  sdl: string;
}

const built = new Map<boolean, Subgraph>();

/** The subgraph schema, built once per option set (a build takes a few hundred ms). */
export function subgraph(options: SubgraphOptions): Subgraph {
  let made = built.get(options.nodeFields);
  if (!made) {
    made = buildSubgraph(options);
    built.set(options.nodeFields, made);
  }
  return made;
}

function buildSubgraph(options: SubgraphOptions): Subgraph {
  const federated = builder.toSubGraphSchema({
    linkUrl: FEDERATION_SPEC_URL,
    federationDirectives: FEDERATION_DIRECTIVES,
    directives: [FreshDirective],
    subgraph: { nodeFields: options.nodeFields, isEntity, nodeRoots: NODE_ROOTS, maxNodeIds: MAX_NODE_IDS },
  });
  const config = federated.toConfig();
  const query = federated.getQueryType()!;
  const queryConfig = query.toConfig();
  let sdl = '';
  const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {
    ...queryConfig.fields,
    // Per-representation errors, the loaders, and what the cost estimate reads (src/actions/entity.ts).
    _entities: { ...queryConfig.fields._entities!, ...entityResolvers(federated) } as GraphQLFieldConfig<
      unknown,
      unknown
    >,
    _service: { ...queryConfig.fields._service!, resolve: () => ({ sdl }) },
  };
  const root = new GraphQLObjectType({ ...queryConfig, fields });
  const schema = withFreshReads(
    new GraphQLSchema({
      ...config,
      query: root,
      types: config.types.map((type) => (type === query ? root : type)),
      directives: [
        ...specifiedDirectives,
        ...config.directives.filter((d) => !isSpecifiedDirective(d)),
        GraphQLDeferDirective,
        GraphQLStreamDirective,
      ],
    }),
  );
  sdl = printSubgraphSchema(schema);
  return { schema, sdl };
}
