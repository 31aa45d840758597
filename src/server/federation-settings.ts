import type { EnvReader } from '../kernel/env.js';

/** Serving /graphql as a Federation v2 subgraph (docs/federation.md). */
export interface FederationSettings {
  /** FEDERATION: serve the subgraph schema (entities, `_entities`, `_service`) instead of the plain one. */
  enabled: boolean;
  /** FEDERATION_NODE_FIELDS: keep `node`/`nodes` in the subgraph (left out by default: they collide with another subgraph's). */
  nodeFields: boolean;
}

export function readFederationSettings(read: EnvReader): FederationSettings {
  const enabled = read.bool('FEDERATION', false);
  const nodeFields = read.bool('FEDERATION_NODE_FIELDS', false);
  if (nodeFields && !enabled)
    read.problem(
      'FEDERATION_NODE_FIELDS applies only with FEDERATION=true (the plain schema always has node and nodes)',
    );
  if (enabled && read.string('TRUSTED_DOCUMENTS_FILE')) {
    // A router writes its own operations (query plans, `_entities` fetches), which no trusted-documents list holds.
    read.problem(
      'FEDERATION=true cannot be combined with TRUSTED_DOCUMENTS_FILE: the router sends operations it plans itself; keep the trusted documents at the router',
    );
  }
  return { enabled, nodeFields };
}
