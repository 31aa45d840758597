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

/** The soak runs first: it is by far the longest file (three minutes of load), and the rest fits beside it. */
const FIRST = 'test/soak/';

/** Vitest's order (slowest first when it has timings from an earlier run, else largest first), the soak ahead. */
class SoakFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (file: TestSpecification) => relative(file.project.config.root, file.moduleId).startsWith(FIRST);
    return [...sorted.filter(first), ...sorted.filter((file) => !first(file))];
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
    // One file at a time: the load tests (soak, overload, replicas, container memory) measure a gateway
    // that must have the machine's cores to itself; two files at once made them fail on a 2-core machine.
    maxWorkers: 1,
    minWorkers: 1,
    sequence: { sequencer: SoakFirst },
  },
});
