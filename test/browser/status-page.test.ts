import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../support/browser.js';
import { type OperatedGateway, operatedLoad, startOperatedGateway } from '../support/operated-gateway.js';
import { statusOf } from '../support/processes.js';
import { requireRedisInCi } from '../support/redis.js';

const available = chromiumAvailable && (await requireRedisInCi());

describe.skipIf(!available)('the status page in headless Chromium, on a built gateway under load', () => {
  let gw: OperatedGateway;
  let browser: Browser;
  beforeAll(async () => {
    gw = await startOperatedGateway();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('is on the metrics port only: the public port answers 404', async () => {
    for (const path of ['/status', '/status.json', '/status/uPlot.iife.min.js'])
      expect(await statusOf(`http://127.0.0.1:${gw.port}${path}`), path).toBe(404);
    expect(await statusOf(`http://127.0.0.1:${gw.metricsPort}/status`)).toBe(200);
  });

  it('draws its charts from the figures as they move, with the refused client at its quota, and nothing secret', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).host !== `127.0.0.1:${gw.metricsPort}`) foreign.push(request.url());
    });
    page.on('pageerror', (error) => failed.push(error.message));
    await page.goto(`http://127.0.0.1:${gw.metricsPort}/status`);
    await page.locator('[data-chart="requests"] canvas').waitFor({ timeout: 10_000 });

    // Load for a little over two readings, then wait for the page to show them.
    const codes = await operatedLoad(gw.port, 11_000);
    expect(codes.QUOTA_EXCEEDED).toBeGreaterThan(0);
    expect(codes.BAD_USER_INPUT).toBeGreaterThan(0);
    const points = () => page.locator('[data-chart="requests"]').getAttribute('data-points').then(Number);
    await expect.poll(points, { timeout: 12_000 }).toBeGreaterThanOrEqual(2);

    // Every chart is drawn, and the request rate and paid calls moved above zero.
    for (const chart of ['requests', 'latency', 'errors', 'calls', 'answered', 'eventloop', 'gc', 'memory'])
      expect(await page.locator(`[data-chart="${chart}"] canvas`).count(), chart).toBeGreaterThan(0);
    const lastOf = async (chart: string) =>
      JSON.parse((await page.locator(`[data-chart="${chart}"]`).getAttribute('data-last')) ?? '[]') as Array<
        number | null
      >;
    const rate = await page.evaluate(() =>
      fetch('status.json')
        .then((res) => res.json())
        .then((report) => report.requestsPerSecond as number[]),
    );
    expect(Math.max(...rate.map(Number))).toBeGreaterThan(1);
    expect((await lastOf('latency')).every((value) => value === null || value >= 0)).toBe(true);
    expect(await page.locator('[data-chart="errors"] .u-legend').innerText()).toContain('BAD_USER_INPUT');
    expect(await page.locator('[data-chart="errors"] .u-legend').innerText()).toContain('QUOTA_EXCEEDED');
    expect(await page.locator('#outcomes [data-outcome="UPSTREAM_UNAVAILABLE"]').count()).toBe(1);
    expect(await page.locator('#saved').innerText()).toMatch(/^\d+ calls saved: \d+% of lookups/);

    // team-a was refused: its bar is full, at its limit of 3; team-b's is not.
    const teamA = page.locator('#quotas [data-client="team-a"]');
    expect(await teamA.getAttribute('data-used')).toBe('3');
    expect(await teamA.getAttribute('data-limit')).toBe('3');
    expect(await teamA.locator('.bar-fill').evaluate((bar) => (bar as HTMLElement).style.width)).toBe('100%');
    expect(await teamA.innerText()).toMatch(/3 \/ 3 a day, resets in \d+ (s|min|h)/);
    const teamB = page.locator('#quotas [data-client="team-b"]');
    expect(Number(await teamB.getAttribute('data-used'))).toBeGreaterThan(0);
    expect(Number(await teamB.getAttribute('data-used'))).toBeLessThan(1000);
    expect(await page.locator('[data-state="Redis cache up"]').count()).toBe(1);

    // Nothing secret or sent by a client: no key, no token, no domain asked for.
    const text =
      (await page.content()) + JSON.stringify(await page.evaluate(() => fetch('status.json').then((r) => r.json())));
    for (const secret of ['operated-team-a-key', 'operated-team-b-key', gw.upstream.token, '.example', 'not a domain'])
      expect(text).not.toContain(secret);
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    await page.screenshot({ path: 'docs/images/status-page.png', fullPage: true });

    // A phone's width: the cards stack, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 })
      .toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'docs/images/status-page-phone.png' });
  });
});
