import type { GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../operation/context.js';
import { subgraph } from '../graph/subgraph.js';
import type { FederationSettings } from './federation-settings.js';

/** What FEDERATION=true changes in the gateway (src/gateway.ts loads this module only then). */
export interface Federated {
  /** The subgraph schema served on /graphql. */
  schema: GraphQLSchema;
  /** The federated trace (`extensions.ftv1`) for a router that asks with `apollo-federation-include-trace: ftv1`. */
  plugins: Plugin<GatewayContext>[];
}

export async function federated(settings: FederationSettings): Promise<Federated> {
  // Imported here: its protobuf encoder weighs ~20 MB that a gateway outside a supergraph never needs.
  const { useApolloInlineTrace } = await import('@graphql-yoga/plugin-apollo-inline-trace');
  return {
    schema: subgraph({ nodeFields: settings.nodeFields }).schema,
    plugins: [useApolloInlineTrace() as Plugin<GatewayContext>],
  };
}
