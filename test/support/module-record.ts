import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';
import { freePort, ROOT, startBuilt, statusOf, waitFor } from './processes.js';

const RECORDER = pathToFileURL(join(ROOT, 'test/support/module-recorder.mjs')).href;
const NODE_MODULES = pathToFileURL(join(ROOT, 'node_modules')).href;

/** A folder for this file's records, removed after its tests. */
function recordDir(): () => string {
  let dir: string | undefined;
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return () => (dir ??= mkdtempSync(join(tmpdir(), 'module-record-')));
}

/**
 * Starts `node dist/main.js` with `env` and the module recorder, waits for /readyz, runs `use` against
 * it (requests), stops it and returns every module URL it loaded, each once (ESM and CommonJS alike).
 */
export function moduleRecorder() {
  const dir = recordDir();
  let made = 0;
  return async (env: Record<string, string>, use: (base: string) => Promise<void>): Promise<string[]> => {
    const record = join(dir(), `record-${++made}`);
    const port = await freePort();
    const gw = startBuilt({ ...env, PORT: String(port), NODE_OPTIONS: `--import=${RECORDER}`, MODULE_RECORD: record });
    try {
      await waitFor(
        async () => (await statusOf(`http://127.0.0.1:${port}/readyz`)) === 200,
        60_000,
        `start-up (${gw.output()})`,
      );
      await use(`http://127.0.0.1:${port}`);
    } finally {
      gw.child.kill('SIGKILL');
      await gw.exited;
    }
    return [...new Set(readFileSync(record, 'utf8').split('\n').filter(Boolean))];
  };
}

/** The npm packages the URLs belong to (the innermost node_modules folder of each), by name. */
export function packagesOf(urls: string[]): Set<string> {
  const packages = new Set<string>();
  for (const url of urls) {
    if (!url.startsWith(NODE_MODULES)) continue;
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match) packages.add(match[1]!);
  }
  return packages;
}
