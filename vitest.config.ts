import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `npm test` runs every file. CI runs every file on its first Node line and, on the others, only the files
 * that depend on the Node release itself (`TEST_SET=runtime npm test`): the processes (`npm start`,
 * `node dist/main.js` and its workers, `dist/mcp.js`, the container entry point), node:http's server and
 * its limits, zlib, streams over the wire, AbortSignal, async context (tracing), the event-loop delay and
 * GC metrics, and the clients on Node's sockets (undici to the upstream, ioredis). A new file that starts
 * a process or tests one of these belongs here; the rest is JavaScript over graphql that no Node line
 * changes. The long end-to-end runs (the soak, replicas behind HAProxy, the Redis Cluster failover, the
 * overload, the supergraph, Chromium) are left out on purpose: one Node line runs them.
 */
const RUNTIME = [
  'test/process.test.ts',
  'test/port-in-use.test.ts',
  'test/ops/build.test.ts',
  'test/ops/workers.test.ts',
  'test/ops/production-trial.test.ts',
  'test/ops/sandbox-not-loaded.test.ts',
  'test/ops/container-memory.test.ts',
  'test/mcp/stdio.test.ts',
  'test/mcp/conformance.test.ts',
  'test/hardening/drain.test.ts',
  'test/hardening/slow-clients.test.ts',
  'test/hardening/event-loop-shedding.test.ts',
  'test/security/http-limits.test.ts',
  'test/compression.test.ts',
  'test/incremental/defer-stream.test.ts',
  'test/resilience/abort-signals.test.ts',
  'test/resilience/deadlines.test.ts',
  'test/resilience/retries.test.ts',
  'test/telemetry/tracing.test.ts',
  'test/metrics.test.ts',
  'test/cache/redis.test.ts',
];

/**
 * The load tests: each measures a gateway (its latency, its refusals, its heap, its resident memory) or a
 * rig of replicas that must have the machine's cores to itself; two files at once on a 2-core machine
 * made them fail. They run first, one at a time, with nothing beside them (project `alone`); every other
 * file runs after them, two at a time (project `shared`).
 */
const ALONE = [
  'test/soak/soak.test.ts',
  'test/resilience/overload.test.ts',
  'test/ops/replicas.test.ts',
  'test/ops/cluster-replicas.test.ts',
  'test/ops/quota-replicas.test.ts',
  'test/ops/container-memory.test.ts',
  'test/hardening/fairness.test.ts',
  'test/hardening/frozen-redis.test.ts',
  'test/hardening/event-loop-shedding.test.ts',
  'test/hardening/document-flood.test.ts',
];

/**
 * The shared files that take longest (measured), started first so that the two workers end together;
 * vitest's own order without timings from an earlier run (a clean clone) is by file size.
 */
const SLOW = [
  'test/browser/web-example.test.ts',
  'test/cache/redis.test.ts',
  'test/mcp/inspector.test.ts',
  'test/security/rate-limit.test.ts',
  'test/process.test.ts',
  'test/cache/redis-round-trips.test.ts',
  'test/cache/result-memo.test.ts',
  'test/browser/graphiql.test.ts',
  'test/federation/composition.test.ts',
  'test/hardening/fuzz.test.ts',
  'test/federation/supergraph.test.ts',
  'test/cache/redis-outage.test.ts',
  'test/ops/build.test.ts',
  'test/resilience/concurrency-breaker.test.ts',
  'test/port-in-use.test.ts',
  'test/hardening/drain.test.ts',
];

/** Vitest's order (slowest first when it has timings from an earlier run, else largest first), the files of SLOW ahead in theirs. */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW.indexOf(relative(file.project.config.root, file.moduleId));
      return at === -1 ? SLOW.length : at;
    };
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }
}

const include = process.env.TEST_SET === 'runtime' ? RUNTIME : ['test/**/*.test.ts'];
const alone = process.env.TEST_SET === 'runtime' ? RUNTIME.filter((file) => ALONE.includes(file)) : ALONE;

export default defineConfig({
  // graphql-scalars loads graphql as CommonJS; point every import at the same copy so that the
  // schema's types are instances of one graphql module (the dual-package hazard).
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    // Builds dist/ once when it is missing or stale, for the tests that run `node dist/main.js`.
    globalSetup: ['test/support/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time (vitest's default on two cores is one); the load tests alone (project `alone`).
    maxWorkers: 2,
    minWorkers: 1,
    // A worker keeps the modules it has loaded from one file to the next: loading the gateway's module graph
    // again for every file was a third of the shared files' time.
    // Tests share no state through modules: each builds its own gateway, server and registry.
    poolOptions: { forks: { isolate: false } },
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'alone',
          include: alone,
          // First, and one file at a time in one fork. It keeps its modules from one file to the next, as
          // the shared workers do: a fork that loads the schema's modules again finds Pothos's plugins
          // registered already (Pothos lives in node_modules, which vitest keeps).
          sequence: { groupOrder: 0 },
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include,
          exclude: [...configDefaults.exclude, ...ALONE],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
