import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser tests run: in CI the browser is installed by .ci/run, so a missing one is a failure there, not a skip. */
export const chromiumAvailable = existsSync(CHROMIUM) || process.env.CI === 'true';

/** Headless Chromium as every browser test drives it: no sandbox, GPU, background traffic or updates. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
