import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../support/processes.js';

const RULES = join(ROOT, 'deploy', 'prometheus', 'lookup-graph.rules.yml');
const RULE_TESTS = join(ROOT, 'deploy', 'prometheus', 'lookup-graph.rules.test.yml');
// In CI .ci/run installs Debian's prometheus package, so a missing promtool is a failure there, not a skip.
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0 || process.env.CI === 'true';

interface Rule {
  alert: string;
  expr: string;
  annotations: Record<string, string>;
}
const rules = (parse(readFileSync(RULES, 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap(
  (group) => group.rules,
);
const ruleTests = parse(readFileSync(RULE_TESTS, 'utf8')) as {
  tests: Array<{ alert_rule_test: Array<{ alertname: string; exp_alerts?: unknown[] }> }>;
};

describe('deploy/prometheus alert rules', () => {
  it('every alert has a summary, a description and a runbook section in docs/operations.md', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    // GitHub's anchors: the heading in lower case.
    const anchors = new Set([...docs.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim().toLowerCase()));
    expect(rules.length).toBeGreaterThanOrEqual(11);
    for (const rule of rules) {
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      expect(rule.annotations.description, rule.alert).toBeTruthy();
      expect(rule.annotations.runbook_url, rule.alert).toBe(`docs/operations.md#${rule.alert.toLowerCase()}`);
      expect(anchors.has(rule.alert.toLowerCase()), `a "### ${rule.alert}" section`).toBe(true);
    }
  });

  it('every alert has a unit test that sees it fire (its exact list of alerts leaves the healthy series out)', () => {
    const cases = ruleTests.tests.flatMap((test) => test.alert_rule_test);
    for (const { alert } of rules) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => (c.exp_alerts?.length ?? 0) > 0),
        `${alert} fires in a test`,
      ).toBe(true);
    }
  });

  it.runIf(promtool)('promtool check rules: valid PromQL and templates', () => {
    const run = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
  });

  it.runIf(promtool)('promtool test rules: each alert fires on a failing gateway, and only there', () => {
    const run = spawnSync('promtool', ['test', 'rules', RULE_TESTS], { encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('SUCCESS');
  });
});
