import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../support/browser.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { startStaticProxy, type StaticProxy } from '../support/static-proxy.js';

const available = chromiumAvailable;
const APP = fileURLToPath(new URL('../../examples/web/', import.meta.url));
// Screenshots for the README: SCREENSHOTS=docs npx vitest run test/browser/web-example.test.ts
const SCREENSHOTS = process.env.SCREENSHOTS;

/**
 * The example app (examples/web), built as for production (persisted documents only), served with
 * /graphql proxied to a gateway that runs ONLY the app's persisted documents, driven in Chromium.
 */
describe.skipIf(!available)('the example app in headless Chromium, against a trusted-documents-only gateway', () => {
  let gw: RunningGateway;
  let limited: RunningGateway;
  /** Stock prices that move at every call, polled every second, for the live Watchlist. */
  let market: RunningGateway;
  let app: StaticProxy;
  let browser: Browser;

  beforeAll(async () => {
    // vitest sets NODE_ENV=test, which would make Vite build a development bundle.
    const npm = (...args: string[]) =>
      execFileSync('npm', args, {
        cwd: APP,
        stdio: 'pipe',
        timeout: 240_000,
        env: { ...process.env, NODE_ENV: 'production', VITE_PERSISTED_DOCUMENTS: 'true' },
      });
    // Its own lock file, as CI has it: install once per machine, then build (codegen, tsc, vite).
    // --include=dev: NODE_ENV=production (set above for the build) would otherwise leave out codegen and Vite.
    if (!existsSync(`${APP}node_modules/.bin/vite`)) npm('install', '--include=dev', '--no-audit', '--no-fund');
    npm('run', 'build');
    const env = {
      TRUSTED_DOCUMENTS_FILE: `${APP}persisted-documents.json`,
      SANDBOX_LATENCY: 'transcript:1500,*:400',
      LOG_LEVEL: 'warn',
    };
    gw = await startGateway(env);
    limited = await startGateway({ ...env, CLIENT_RATE_LIMIT_PER_MINUTE: '1' });
    market = await startGateway({
      ...env,
      SANDBOX_MARKET: 'moving',
      LIVE_REFRESH_SECONDS: 'company_financial_profile=1',
    });
    app = await startStaticProxy(`${APP}dist`, gw.url);
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await gw?.close();
    await limited?.close();
    await market?.close();
  });

  /** Requests a page made to a host other than the app's and the sandbox's own, and images that failed. */
  const strayRequests: string[] = [];

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const own = [
      new URL(app.url).origin,
      new URL(gw.gateway.sandbox!.url).origin,
      new URL(limited.gateway.sandbox!.url).origin,
      new URL(market.gateway.sandbox!.url).origin,
    ];
    page.on('request', (r) => {
      if (!r.url().startsWith('data:') && !own.includes(new URL(r.url()).origin)) strayRequests.push(r.url());
    });
    // Operations a page leaves behind when it closes or changes mode are aborted; images must load.
    page.on(
      'requestfailed',
      (r) => r.resourceType() === 'image' && strayRequests.push(`${r.url()} (${r.failure()?.errorText})`),
    );
    page.on(
      'response',
      (r) =>
        r.request().resourceType() === 'image' && r.status() >= 400 && strayRequests.push(`${r.url()} (${r.status()})`),
    );
    await page.goto(`${app.url}/${path}`);
    return page;
  }
  const shot = async (page: Page, name: string) => {
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
  };

  it("the gateway refuses anything but the app's documents", async () => {
    const res = await gw.query('{ domainInfo(domain: "example.com") { domainName } }');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('Company: firmographics, the stock and the domain record in one request, with the upstream calls it cost', async () => {
    const page = await open('#/company');
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/graphql') && sent.push(r.url() + (r.postData() ?? '')));
    await page.getByTestId('mode').filter({ hasText: 'persisted documents' }).waitFor();
    await page.getByTestId('company').getByText('Hubspot').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('stock').innerText()).toContain('HUBS');
    expect(await page.getByTestId('stock').innerText()).toMatch(/\$742\.3/);
    expect(await page.getByTestId('domain-record').innerText()).toContain('hubspot.com');
    await expect.poll(() => page.getByTestId('upstream-calls').innerText()).toBe('3');
    // The logo is the sandbox's own image, and it loads.
    const logo = page.getByTestId('company').locator('img.logo');
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(await logo.getAttribute('src')).toBe(`${gw.gateway.sandbox!.url}/images/logo/hubspot.com.png`);
    await shot(page, 'example-company');

    // Another company is another company: its own name, ticker and stock.
    await page.locator('input[name=domain]').fill('stripe.com');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.getByTestId('stock').innerText(), { timeout: 15_000 }).toContain('STRIPE');
    expect(await page.getByTestId('company').innerText()).toContain('Stripe');
    expect(await page.getByTestId('stock').innerText()).not.toContain('HUBS');

    // A URL is reduced to its domain; one more request, by hash.
    await page.locator('input[name=domain]').fill('https://www.apple.com/iphone/');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect.poll(() => page.getByTestId('stock').innerText(), { timeout: 15_000 }).toContain('AAPL');
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request).toContain('sha256');
      expect(request).not.toContain('query CompanyPage');
    }
    await page.close();
  });

  it('Profile viewer: ticking a field adds it to the selection, and the response grows by it', async () => {
    const page = await open('#/profile');
    const fields = page.getByTestId('profile-fields');
    await fields.locator('[data-field=fullName]').waitFor({ timeout: 15_000 });
    expect(await fields.locator('[data-field=mediaCount]').count()).toBe(0);
    await expect.poll(() => page.getByTestId('bytes').innerText()).toMatch(/B from the gateway vs 12,173 B/);
    const before = Number((await page.getByTestId('bytes').innerText()).match(/^([\d,]+) B/)![1]!.replace(/,/g, ''));

    const variables: Array<Record<string, unknown>> = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/graphql' && url.searchParams.get('variables'))
        variables.push(JSON.parse(url.searchParams.get('variables')!));
    });
    await page.locator('input[name=mediaCount]').check();
    await fields.locator('[data-field=mediaCount]').waitFor({ timeout: 15_000 });
    expect(variables.at(-1)).toMatchObject({ mediaCount: true, fullName: true, pronouns: false });
    await expect
      .poll(async () =>
        Number((await page.getByTestId('bytes').innerText()).match(/^([\d,]+) B/)![1]!.replace(/,/g, '')),
      )
      .toBeGreaterThan(before);
    await shot(page, 'example-profile');

    await page.locator('input[name=fullName]').uncheck();
    await expect.poll(() => fields.locator('[data-field=fullName]').count()).toBe(0);
    await page.close();
  });

  it('Video: the videos paint first, each deferred transcript appears when it arrives', async () => {
    const page = await open('#/video');
    await page.getByTestId('video').first().waitFor({ timeout: 20_000 });
    // First paint: videos without their transcripts yet (each transcript is another upstream call).
    expect(await page.getByTestId('transcript-pending').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('transcript').count()).toBe(0);
    await page.getByTestId('transcript').first().waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('transcript-pending').count(), { timeout: 20_000 }).toBe(0);
    expect(await page.getByTestId('transcript').first().innerText()).toContain('Zippers are everywhere');
    // Every thumbnail is the sandbox's own image, and every one loads.
    const thumbnails = page.getByTestId('video').locator('img.thumb');
    expect(await thumbnails.count()).toBeGreaterThan(0);
    await expect
      .poll(() =>
        thumbnails.evaluateAll((imgs) =>
          imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
        ),
      )
      .toBe(true);
    await shot(page, 'example-video');
    await page.close();
  });

  it('NOT_FOUND renders inline, by its code', async () => {
    const page = await open('#/video');
    await page.getByLabel('Video lookup').selectOption('transcript');
    await page.getByLabel('Query or URL').fill('https://www.videosite.example/watch?v=no-transcript');
    await page.getByRole('button', { name: 'Go' }).click();
    const notFound = page.getByTestId('transcript-result').locator('[data-code=NOT_FOUND]');
    await notFound.waitFor({ timeout: 15_000 });
    expect(await notFound.innerText()).toContain('Not found');
    await page.close();
  });

  it('COST_LIMIT_EXCEEDED renders with the estimate and the budget', async () => {
    const page = await open('#/video');
    await page.getByLabel('Video lookup').selectOption('channel');
    await page.locator('input[name=allTranscripts]').check();
    const cost = page.locator('[data-code=COST_LIMIT_EXCEEDED]');
    await cost.waitFor({ timeout: 15_000 });
    expect(await cost.innerText()).toMatch(/cost up to \d+ upstream calls; the budget is 50/);
    await shot(page, 'example-errors');
    await page.close();
  });

  it('Watchlist: the @live prices change on screen by themselves, over the one stream the page opened', async () => {
    app.target = market.url;
    try {
      const page = await open('#/watchlist');
      const aapl = page.locator('tr[data-symbol=AAPL]').getByTestId('live-price');
      await aapl.waitFor({ timeout: 15_000 });
      // From the first result on: any request, a reload or a navigation (which would wipe this mark) is seen.
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.evaluate(() => Object.assign(window, { watchlistMark: true }));
      await expect.poll(() => page.getByTestId('live-status').innerText()).toContain('live');
      const first = await aapl.innerText();
      expect(first).toMatch(/^\$\d+\.\d{2}/);
      expect(
        await page.locator('tr[data-symbol]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-symbol'))),
      ).toEqual(['AAPL', 'HUBS', 'NKE']);
      // Refreshed every second upstream; the price on screen moves within a few intervals.
      await expect.poll(() => aapl.innerText(), { timeout: 10_000 }).not.toBe(first);
      expect(await aapl.innerText()).toMatch(/[▲▼]/);
      await shot(page, 'example-watchlist');
      await expect
        .poll(() => page.getByTestId('updates').innerText().then(Number), { timeout: 10_000 })
        .toBeGreaterThanOrEqual(3);
      // No reload, and no request after the stream was opened: the changes were pushed.
      expect(await page.evaluate(() => (window as { watchlistMark?: boolean }).watchlistMark)).toBe(true);
      expect(requests).toHaveLength(0);
      await page.close();
      // Closing the page released its lookups: no live query stays open on the gateway.
      await expect.poll(() => market.gateway.live.open, { timeout: 5_000 }).toBe(0);
    } finally {
      app.target = gw.url;
    }
  });

  it('no page asked a host other than the app and the sandbox, and every image loaded', () => {
    expect(strayRequests).toEqual([]);
  });

  it('RATE_LIMITED renders with a countdown from retryAfter', async () => {
    app.target = limited.url;
    try {
      const first = await open('#/company');
      await first.getByTestId('company').waitFor({ timeout: 15_000 });
      await first.close();
      const second = await open('#/company');
      const rateLimited = second.locator('[data-code=RATE_LIMITED]');
      await rateLimited.waitFor({ timeout: 15_000 });
      expect(await rateLimited.innerText()).toMatch(/retry in \d+ s/);
      await second.close();
    } finally {
      app.target = gw.url;
    }
  });
});
