/**
 * The layers of src/, lowest first. A file may import only its own layer and the layers below it,
 * types included: a layer that describes another (telemetry describes operations, lookups and calls)
 * sits above it. A strict order of folders leaves no room for a cycle between them. The files directly
 * in src/ are the composition root: they may import everything, and nothing imports them.
 */
const LAYERS = ['kernel', 'identity', 'upstream', 'cost', 'incremental', 'redis', 'cache', 'quota', 'operation', 'telemetry', 'security', 'schema', 'actions', 'sandbox', 'graph', 'server', 'mcp'];

/** Type imports up the order that stay, each with its reason (none now). A value import up the order is never allowed. */
const EXCEPTIONS = [];

const upwardOf = (index) => [`^src/(${LAYERS.slice(index + 1).join('|') || '$^'})/`, '^src/[^/]+\\.ts$'];

const layerRules = LAYERS.flatMap((layer, index) => {
  const name = `no-upward-from-${layer}`;
  const comment = `src/${layer}/ may import only ${LAYERS.slice(0, index).join(', ') || 'nothing else'} (see ARCHITECTURE.md)`;
  const excepted = EXCEPTIONS.filter((exception) => exception.from.startsWith(`^src/${layer}/`));
  return [
    { name, comment, severity: 'error', from: { path: `^src/${layer}/`, pathNot: excepted.map((exception) => exception.from) }, to: { path: upwardOf(index) } },
    ...excepted.flatMap((exception) => [
      { name, comment, severity: 'error', from: { path: exception.from }, to: { path: upwardOf(index), pathNot: exception.to } },
      { name, comment: `listed exception, types only: ${exception.reason}`, severity: 'error', from: { path: exception.from }, to: { path: exception.to, dependencyTypesNot: ['type-only'] } },
    ]),
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no cycle of value imports between files (a module must be able to finish loading before its importers run)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
