import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startSandboxLikeUpstream } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { moduleRecorder } from '../support/module-record.js';
import { ROOT } from '../support/processes.js';

const SANDBOX = pathToFileURL(join(ROOT, 'dist/sandbox/')).href;
const modulesLoaded = moduleRecorder();

/** Answers one lookup. */
async function oneLookup(base: string): Promise<void> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ domainInfo(domain: "example.com") { domainName } }' }),
  });
  expect(await res.json()).toMatchObject({ data: { domainInfo: { domainName: 'example.com' } } });
}

describe('the built gateway loads the sandbox only when it uses it', () => {
  const upstream = forSuite(startSandboxLikeUpstream);

  it('with ACTION_BASE_URL (production): none of the sandbox but its latency setting is loaded, through start-up and a lookup', async () => {
    const loaded = await modulesLoaded(
      { NODE_ENV: 'production', ACTION_BASE_URL: upstream.url, ACTION_TOKEN: upstream.token, GATEWAY_AUTH: 'none' },
      oneLookup,
    );
    expect(loaded).toContain(pathToFileURL(join(ROOT, 'dist/main.js')).href);
    // Only the reader of SANDBOX_LATENCY(_MS), which config.ts validates with every other setting: no
    // sample data, no answers, no server.
    expect(loaded.filter((url) => url.startsWith(SANDBOX)).sort()).toEqual([
      `${SANDBOX}latency.js`,
      `${SANDBOX}timings.js`,
    ]);
  });

  it('without ACTION_BASE_URL (development): the sandbox and its samples are loaded, so the recorder sees them', async () => {
    const loaded = await modulesLoaded({}, oneLookup);
    expect(loaded).toContain(`${SANDBOX}server.js`);
    expect(loaded).toContain(`${SANDBOX}samples/financial-profile.js`);
  });
});
