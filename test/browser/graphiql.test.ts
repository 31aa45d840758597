import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../support/browser.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';

describe.skipIf(!chromiumAvailable)('GraphiQL in headless Chromium', () => {
  let gw: RunningGateway;
  let browser: Browser;
  beforeAll(async () => {
    // Slow transcript and photo-social lookups, for the @defer tab.
    gw = await startGateway({ SANDBOX_LATENCY: 'transcript:2500,photosocial:1200' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('loads with no request leaving the machine, opens on the examples and runs one', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol))
        foreign.push(request.url());
    });
    await page.goto(`${gw.url}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 20_000 });
    // The first tab is the README's first query; every tab is in view (the bar does not overflow).
    const editorText = async () => (await page.locator('.graphiql-query-editor').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(editorText, { timeout: 10_000 }).toContain('company(domain: "hubspot.com")');
    expect(await page.locator('.graphiql-tab').count()).toBeGreaterThanOrEqual(4);
    for (const tab of await page.locator('.graphiql-tab').all()) expect(await tab.isVisible()).toBe(true);
    const overflow = await page.locator('.graphiql-tabs').evaluate((bar) => bar.scrollWidth - bar.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await page.locator('.graphiql-execute-button').click();
    const responseText = async () => (await page.locator('.graphiql-response').innerText()).replace(/\u00a0/g, ' ');
    await expect.poll(responseText, { timeout: 15_000 }).toContain('"name": "Hubspot"');
    const response = await responseText();
    expect(response).toContain('"companyName": "NIKE, Inc."');
    expect(response).toContain('"sandbox": true');
    await page.screenshot({ path: 'test/browser/graphiql.png' });
    expect(foreign).toEqual([]);
  });

  it('shows incremental results: the @defer tab shows the company first, then the slow lookups as they arrive', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw.url}/graphql`);
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 20_000 });
    const editorText = async () => (await page.locator('.graphiql-query-editor').innerText()).replace(/\u00a0/g, ' ');
    // The tabs are draggable: a pointer click can start a drag instead of a selection.
    await page
      .locator('button.graphiql-tab-button[title="CompanyFirstSlowLookupsDeferred"]')
      .evaluate((button) => (button as HTMLButtonElement).click());
    await expect.poll(editorText, { timeout: 10_000 }).toContain('@defer(label: "transcript")');

    await page.locator('.graphiql-execute-button').click();
    const responseText = async () => (await page.locator('.graphiql-response').innerText()).replace(/\u00a0/g, ' ');
    // On a busy machine GraphiQL can run before the switched tab's operation name has settled; it then
    // answers "Cannot infer operation <previous tab's name>" in the browser without sending anything.
    // Running again then is what a person would do, and it exercises the same incremental path.
    const firstPayload = async () => {
      const text = await responseText();
      if (text.includes('Cannot infer operation')) await page.locator('.graphiql-execute-button').click();
      return text;
    };
    // The first payload: the company and its financial profile, before the slow lookups.
    await expect.poll(firstPayload, { timeout: 10_000 }).toContain('"name": "Hubspot"');
    const early = await responseText();
    expect(early).toContain('"symbol": "HUBS"');
    expect(early).not.toContain('"videositeTranscript"');
    // Then the photo-social profile (1.2 s) and the transcript (2.5 s), merged in as they arrive.
    await expect.poll(responseText, { timeout: 15_000 }).toContain('"photosocialProfile"');
    await expect.poll(responseText, { timeout: 15_000 }).toContain('"videositeTranscript"');
    await page.screenshot({ path: 'test/browser/graphiql-defer.png' });
  });
});
