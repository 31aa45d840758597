import { GraphQLSchema, isSpecifiedDirective, lexicographicSortSchema, specifiedDirectives } from 'graphql';
import { GraphQLDeferDirective, GraphQLStreamDirective } from '../incremental/index.js';
import { builder } from '../schema/builder.js';
import { FreshDirective, withFreshReads } from '../cache/fresh.js';
import { GraphQLLiveDirective } from '../operation/live.js';
// Every action's root field, types, links (each link costed from its target's descriptor) and node
// ids (each action folder's node.ts, registered by its index.ts).
import '../actions/all.js';
// The upstream text beside parsed dates (exact values).
import '../actions/upstream-texts.js';
// Identity: the Node interface, node(id:) and nodes(ids:); ids of the videos every video action shares.
import '../actions/node.js';
import '../actions/videosite-shared/node.js';

/**
 * The whole schema, sorted so that its printed form is stable. It declares @fresh (src/cache/fresh)
 * @defer and @stream (incremental delivery, src/incremental) and @live (src/operation/live.ts) so that clients and codegen validate against them.
 */
const built = builder.toSchema({ directives: [FreshDirective] }).toConfig();
export const schema = withFreshReads(
  lexicographicSortSchema(
    new GraphQLSchema({
      ...built,
      directives: [
        ...specifiedDirectives,
        ...built.directives.filter((d) => !isSpecifiedDirective(d)),
        GraphQLDeferDirective,
        GraphQLStreamDirective,
        GraphQLLiveDirective,
      ],
    }),
  ),
);
