/**
 * Incremental delivery (@defer, @stream): which operations take the incremental executor, and the
 * directives the schema declares so that clients and codegen validate against them.
 */
import { BREAK, DirectiveLocation, GraphQLBoolean, GraphQLDirective, GraphQLInt, GraphQLNonNull, GraphQLString, Kind, visit, type DocumentNode } from 'graphql';

// The same names, places and arguments (with their defaults) as the directives the executor reads
// (@graphql-tools/utils, which @graphql-yoga/plugin-defer-stream also declares when a schema lacks
// them), described for this gateway.
export const GraphQLDeferDirective = new GraphQLDirective({
  name: 'defer',
  description:
    'Delivers this fragment in a later payload (multipart/mixed or text/event-stream), so a slow lookup inside it does not hold the rest of the response. Lookups shared with the rest of the operation are still made once.',
  locations: [DirectiveLocation.FRAGMENT_SPREAD, DirectiveLocation.INLINE_FRAGMENT],
  args: {
    if: { type: new GraphQLNonNull(GraphQLBoolean), defaultValue: true, description: 'Deferred when true (the default); false delivers the fragment with its parent.' },
    label: { type: GraphQLString, description: 'A name, unique in the operation, that the payload delivering this fragment carries.' },
  },
});

export const GraphQLStreamDirective = new GraphQLDirective({
  name: 'stream',
  description:
    'Delivers the items of this list field one payload at a time as their lookups finish, after the first `initialCount` items.',
  locations: [DirectiveLocation.FIELD],
  args: {
    if: { type: new GraphQLNonNull(GraphQLBoolean), defaultValue: true, description: 'Streamed when true (the default); false delivers the list whole.' },
    label: { type: GraphQLString, description: 'A name, unique in the operation, that the payloads of this list carry.' },
    initialCount: { type: GraphQLInt, defaultValue: 0, description: 'How many items come in the payload of the list itself, before streaming starts.' },
  },
});

/** The directive names that make an operation incremental. */
const INCREMENTAL = new Set([GraphQLDeferDirective.name, GraphQLStreamDirective.name]);

// Yoga hands the same DocumentNode to every request with the same text: each document is scanned once.
const scanned = new WeakMap<DocumentNode, boolean>();

/**
 * Whether a document uses @defer or @stream anywhere (operations and fragments alike). Those
 * operations run on the executor that delivers incrementally; every other one keeps the
 * graphql-jit fast path. `if: false` still counts: the incremental executor then answers in one
 * payload, exactly as the directive says.
 */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = scanned.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      [Kind.DIRECTIVE](node) {
        if (INCREMENTAL.has(node.name.value)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    });
    scanned.set(document, found);
  }
  return found;
}
