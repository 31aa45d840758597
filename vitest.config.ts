import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `npm test` runs every file. CI runs every file on its first Node line and, on the others, only the files
 * that depend on the Node release itself (`TEST_SET=runtime npm test`): the processes (`npm start`,
 * `node dist/main.js` and its workers, `dist/mcp.js`, the container entry point), node:http's server and
 * its limits, zlib, streams over the wire, AbortSignal, async context (tracing), the event-loop delay and
 * GC metrics, and the clients on Node's sockets (undici to the upstream, ioredis). A new file that starts
 * a process or tests one of these belongs here; the rest is JavaScript over graphql that no Node line
 * changes.
 */
const RUNTIME = [
  'test/process.test.ts',
  'test/port-in-use.test.ts',
  'test/ops/build.test.ts',
  'test/ops/workers.test.ts',
  'test/ops/production-trial.test.ts',
  'test/ops/container-memory.test.ts',
  'test/mcp/stdio.test.ts',
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
 * Long end-to-end runs: minutes of load, or rigs of many processes (replicas behind HAProxy, a Redis
 * Cluster under failover, routers, Chromium). Not in the runtime set (one Node line runs them); they
 * start first, so the rest of the suite runs beside them.
 */
const LONG = [
  'test/soak/',
  'test/ops/replicas.test.ts',
  'test/ops/cluster-replicas.test.ts',
  'test/resilience/overload.test.ts',
  'test/federation/supergraph.test.ts',
  'test/browser/',
];

/** Vitest's order (slowest first when it has timings from an earlier run, else largest first), long runs ahead. */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = (file: TestSpecification) => LONG.some((path) => relative(file.project.config.root, file.moduleId).startsWith(path));
    return [...sorted.filter(long), ...sorted.filter((file) => !long(file))];
  }
}

export default defineConfig({
  // graphql-scalars loads graphql as CommonJS; point every import at the same copy so that the
  // schema's types are instances of one graphql module (the dual-package hazard).
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: process.env.TEST_SET === 'runtime' ? RUNTIME : ['test/**/*.test.ts'],
    // Builds dist/ once when it is missing or stale, for the tests that run `node dist/main.js`.
    globalSetup: ['test/support/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on sockets, timers and child processes more than they compute: on two cores three
    // files at a time keep both busy (vitest's default there is one).
    maxWorkers: 3,
    minWorkers: 1,
    // A worker keeps the modules it has loaded from one file to the next: loading the gateway's module graph
    // again for every file was a third of the suite's time. Tests share no state through modules: each
    // builds its own gateway, server and registry.
    isolate: false,
    sequence: { sequencer: LongFirst },
  },
});
