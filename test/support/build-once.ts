import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: the tests that run `node dist/main.js` (test/ops/build.test.ts,
 * test/ops/replicas.test.ts, the other ops tests and the soak) need a build that matches src/. CI builds first (`npm run build` in .ci/run); elsewhere this builds
 * once when dist/ is missing or older than src/.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

export function buildIsFresh(): boolean {
  const main = join(ROOT, 'dist', 'main.js');
  if (!existsSync(main)) return false;
  const sources = Math.max(
    newest(join(ROOT, 'src')),
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
    statSync(join(ROOT, 'tsconfig.json')).mtimeMs,
  );
  return newest(join(ROOT, 'dist')) >= sources;
}

export default function setup() {
  if (buildIsFresh()) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed: the dist/ tests cannot run');
}
