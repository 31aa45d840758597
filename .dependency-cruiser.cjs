/**
 * The layers of src/, lowest first. A file may import (by value) only its own layer and the layers
 * below it; type-only imports are free. A strict order of folders leaves no room for a cycle between
 * them. The files directly in src/ are the composition root: they may import everything, and nothing
 * imports them.
 */
const LAYERS = ['kernel', 'identity', 'schema', 'telemetry', 'upstream', 'cost', 'incremental', 'redis', 'cache', 'quota', 'security', 'actions', 'sandbox', 'graph', 'server', 'mcp'];

const above = (index) => LAYERS.slice(index + 1);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no cycle of value imports between files (a module must be able to finish loading before its importers run)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...LAYERS.map((layer, index) => ({
      name: `no-upward-from-${layer}`,
      comment: `src/${layer}/ may import only ${LAYERS.slice(0, index).join(', ') || 'nothing else'} (see ARCHITECTURE.md)`,
      severity: 'error',
      from: { path: `^src/${layer}/` },
      to: {
        path: [`^src/(${above(index).join('|') || '$^'})/`, '^src/[^/]+\\.ts$'],
        dependencyTypesNot: ['type-only'],
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
