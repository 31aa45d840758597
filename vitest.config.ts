import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql-scalars loads graphql as CommonJS; point every import at the same copy so that the
  // schema's types are instances of one graphql module (the dual-package hazard).
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ once when it is missing or stale, for the tests that run `node dist/main.js`.
    globalSetup: ['test/support/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
