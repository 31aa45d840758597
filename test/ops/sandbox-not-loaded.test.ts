import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxLikeUpstream } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { freePort, ROOT, startBuilt, statusOf, waitFor } from '../support/processes.js';

const RECORDER = pathToFileURL(join(ROOT, 'test/support/module-recorder.mjs')).href;
const SANDBOX = pathToFileURL(join(ROOT, 'dist/sandbox/')).href;
const dir = mkdtempSync(join(tmpdir(), 'module-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `node dist/main.js` with `env`, answers one lookup, stops it and returns every module URL it loaded. */
async function modulesLoaded(name: string, env: Record<string, string>): Promise<string[]> {
  const record = join(dir, name);
  const port = await freePort();
  const gw = startBuilt({ ...env, PORT: String(port), NODE_OPTIONS: `--import=${RECORDER}`, MODULE_RECORD: record });
  try {
    await waitFor(
      async () => (await statusOf(`http://127.0.0.1:${port}/readyz`)) === 200,
      60_000,
      `start-up (${gw.output()})`,
    );
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ domainInfo(domain: "example.com") { domainName } }' }),
    });
    expect(await res.json()).toMatchObject({ data: { domainInfo: { domainName: 'example.com' } } });
  } finally {
    gw.child.kill('SIGKILL');
    await gw.exited;
  }
  return readFileSync(record, 'utf8').split('\n').filter(Boolean);
}

describe('the built gateway loads the sandbox only when it uses it', () => {
  const upstream = forSuite(startSandboxLikeUpstream);

  it('with ACTION_BASE_URL (production): none of the sandbox but its latency setting is loaded, through start-up and a lookup', async () => {
    const loaded = await modulesLoaded('production', {
      NODE_ENV: 'production',
      ACTION_BASE_URL: upstream.url,
      ACTION_TOKEN: upstream.token,
      GATEWAY_AUTH: 'none',
    });
    expect(loaded).toContain(pathToFileURL(join(ROOT, 'dist/main.js')).href);
    // Only the reader of SANDBOX_LATENCY(_MS), which config.ts validates with every other setting: no
    // sample data, no answers, no server.
    expect(loaded.filter((url) => url.startsWith(SANDBOX)).sort()).toEqual([
      `${SANDBOX}latency.js`,
      `${SANDBOX}timings.js`,
    ]);
  });

  it('without ACTION_BASE_URL (development): the sandbox and its samples are loaded, so the recorder sees them', async () => {
    const loaded = await modulesLoaded('development', {});
    expect(loaded).toContain(`${SANDBOX}server.js`);
    expect(loaded).toContain(`${SANDBOX}samples/financial-profile.js`);
  });
});
