/**
 * Hand-written because no Pothos plugin derives Federation hints from the schema's own facts: in the
 * subgraph build only (src/graph/subgraph.ts), this plugin marks value types @shareable, gives
 * @cost/@listSize from the cost extensions the lookups already carry, and leaves out `node`/`nodes`
 * unless asked. The plain build is untouched: it sees no `subgraph` option.
 */
import SchemaBuilder, {
  BasePlugin,
  type PothosOutputFieldConfig,
  type PothosTypeConfig,
  type SchemaTypes,
} from '@pothos/core';
import type { ListBound } from '../cost/model.js';

/** The `subgraph` option of a build: what the hints need to know. */
interface SubgraphBuildOptions {
  /** Keep `node(id:)` and `nodes(ids:)` on Query. */
  nodeFields: boolean;
  /** Entity types (resolvable by key): not shareable, and reaching one costs a lookup. */
  isEntity: (typename: string) => boolean;
  /** The root fields that fetch by node id, and the most ids a list of them takes. */
  nodeRoots: Readonly<Record<string, { list: boolean }>>;
  maxNodeIds: number;
}

/**
 * Demand-control weights, in the unit the gateway budgets in (upstream calls): a field that makes a
 * lookup costs 1, reading data already fetched costs 0. Entity types keep the routers' default weight
 * (1 for an object), because another subgraph reaches one only through a lookup here.
 */
const LOOKUP_WEIGHT = 1;
const FETCHED_WEIGHT = 0;

const pluginName = 'subgraphHints';

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      subgraphHints: SubgraphHintsPlugin<Types>;
    }
    export interface BuildSchemaOptions<Types extends SchemaTypes> {
      /** Set by the subgraph build only. */
      subgraph?: SubgraphBuildOptions;
    }
  }
}

function namedKind(type: { kind: string; type?: { kind: string } }): string {
  return type.kind === 'List' ? type.type!.kind : type.kind;
}

class SubgraphHintsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onTypeConfig(typeConfig: PothosTypeConfig): PothosTypeConfig {
    const subgraph = this.options.subgraph;
    if (!subgraph || typeConfig.kind !== 'Object' || subgraph.isEntity(typeConfig.name)) return typeConfig;
    // A value type may be defined by another subgraph too (a PageInfo-like shape): shareable, and free to read.
    return {
      ...typeConfig,
      pothosOptions: { ...typeConfig.pothosOptions, shareable: true, cost: FETCHED_WEIGHT },
    } as PothosTypeConfig;
  }

  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> | null {
    const subgraph = this.options.subgraph;
    // Federation puts demand-control hints on object fields only: an interface's implementations carry them.
    if (!subgraph || this.buildCache.getTypeConfig(fieldConfig.parentType).kind === 'Interface') return fieldConfig;
    const root = fieldConfig.parentType === 'Query';
    const nodeRoot = root ? subgraph.nodeRoots[fieldConfig.name] : undefined;
    if (nodeRoot && !subgraph.nodeFields) return null;

    const extensions = fieldConfig.extensions ?? {};
    const hints: { cost?: number; listSize?: Record<string, unknown> } = {};
    const kind = namedKind(fieldConfig.type);
    if (root || extensions.cost !== undefined) hints.cost = LOOKUP_WEIGHT;
    else if (kind === 'Interface' || kind === 'Union') hints.cost = FETCHED_WEIGHT; // @cost cannot sit on an interface type

    const bound = extensions.listBound as ListBound | undefined;
    const symbols = root ? (extensions.symbols as { max?: number } | undefined) : undefined;
    // Without `first` a bounded list returns at most `most` items; with it, `first` of them.
    if (bound)
      hints.listSize = { assumedSize: bound.most, slicingArguments: ['first'], requireOneSlicingArgument: false };
    else if (symbols?.max) hints.listSize = { assumedSize: symbols.max };
    else if (nodeRoot?.list) hints.listSize = { assumedSize: subgraph.maxNodeIds };

    if (hints.cost === undefined && !hints.listSize) return fieldConfig;
    return {
      ...fieldConfig,
      pothosOptions: { ...fieldConfig.pothosOptions, ...hints },
    } as PothosOutputFieldConfig<Types>;
  }
}

SchemaBuilder.registerPlugin(pluginName, SubgraphHintsPlugin);

export default pluginName;
