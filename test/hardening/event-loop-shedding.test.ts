import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { cgroupCpuQuota, cpusAvailable } from '../../src/server/cores.js';
import { forSuite } from '../support/fixtures.js';
import { inProcessGateway } from '../support/gateway.js';
import { waitFor } from '../support/processes.js';

/** Keeps the event loop busy, as a long synchronous stretch of work would. */
function blockFor(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe('shedding on the event loop delay (SHED_EVENT_LOOP_DELAY_MS)', () => {
  const gw = forSuite(() => inProcessGateway({ SHED_EVENT_LOOP_DELAY_MS: '150' }));

  it('refuses new operations with 503 OVERLOADED and Retry-After while the loop is behind, /readyz says so, and nothing goes upstream', async () => {
    const calls = () => [...gw.gateway.sandbox!.calls.values()].reduce((a, b) => a + b, 0);
    expect((await gw.query('{ domainInfo(domain: "before-the-stall.example") { domainName } }')).status).toBe(200);
    blockFor(400);
    await waitFor(() => gw.gateway.ready().reasons.includes('event-loop-delay'), 3000, 'the delay to be seen');
    const before = calls();
    const refused = await gw.query('{ domainInfo(domain: "during-the-stall.example") { domainName } }');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'OVERLOADED', retryAfter: 1 });
    expect(refused.body.errors?.[0]?.message).toMatch(/event loop is \d+ ms behind \(limit 150 ms\)/);
    expect(calls()).toBe(before);
    const readyz = await gw.fetch('/readyz');
    expect(readyz.status).toBe(200);
    expect(await readyz.json()).toMatchObject({
      status: 'overloaded',
      reasons: expect.arrayContaining(['event-loop-delay']),
    });
  });

  it('serves again once a window passes without the delay', async () => {
    await waitFor(() => !gw.gateway.ready().reasons.includes('event-loop-delay'), 5000, 'the delay to pass');
    const answer = await gw.query('{ domainInfo(domain: "after-the-stall.example") { domainName } }');
    expect(answer.status).toBe(200);
    expect(answer.body.data?.domainInfo?.domainName).toBe('after-the-stall.example');
  });
});

/** Stalls of `stallMs` each, one after another with only the timers' turn between them, for `forMs`. */
async function stallRepeatedly(stallMs: number, gapMs: number, forMs: number) {
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    blockFor(stallMs);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

describe('shedding a loop kept busy by stalls each shorter than the limit', () => {
  const gw = forSuite(() => inProcessGateway({ SHED_EVENT_LOOP_DELAY_MS: '1000' }));

  it('a second of 200 ms stalls back to back (as costly documents one after another) counts as behind and refuses OVERLOADED', async () => {
    await stallRepeatedly(200, 1, 2_500);
    expect(gw.gateway.ready().reasons).toContain('event-loop-delay');
    const refused = await gw.query('{ domainInfo(domain: "saturated.example") { domainName } }');
    expect(refused.status).toBe(503);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'OVERLOADED' });
    expect(refused.body.errors?.[0]?.message).toMatch(/busy all of the last second, in stalls of up to \d+ ms/);
    await waitFor(() => !gw.gateway.ready().reasons.includes('event-loop-delay'), 5000, 'the saturation to pass');
  });

  it('short stalls with the loop idle between them (a busy but keeping-up gateway) are not shed', async () => {
    await stallRepeatedly(5, 10, 2_500);
    expect(gw.gateway.ready().reasons).not.toContain('event-loop-delay');
  });
});

describe('WORKERS', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cgroup-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a container CPU quota from cgroup v2 and v1, rounded up, and none when unlimited', () => {
    writeFileSync(join(root, 'cpu.max'), '150000 100000\n');
    expect(cgroupCpuQuota(root)).toBe(1.5);
    expect(cpusAvailable(root)).toBe(Math.min(2, cpusAvailable('/nonexistent')));
    writeFileSync(join(root, 'cpu.max'), 'max 100000\n');
    expect(cgroupCpuQuota(root)).toBeNull();
    rmSync(join(root, 'cpu.max'));
    mkdirSync(join(root, 'cpu'));
    writeFileSync(join(root, 'cpu', 'cpu.cfs_quota_us'), '300000');
    writeFileSync(join(root, 'cpu', 'cpu.cfs_period_us'), '100000');
    expect(cgroupCpuQuota(root)).toBe(3);
    writeFileSync(join(root, 'cpu', 'cpu.cfs_quota_us'), '-1');
    expect(cgroupCpuQuota(root)).toBeNull();
  });

  it('takes 1 by default, a count, or auto; anything else stops start-up', () => {
    expect(loadConfig({}).ops.workers).toBe(1);
    expect(loadConfig({ WORKERS: '3' }).ops.workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).ops.workers).toBe(cpusAvailable());
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS must be a whole number from 1 to 64, got "0"/);
    expect(() => loadConfig({ WORKERS: 'many' })).toThrow(/WORKERS/);
  });
});
