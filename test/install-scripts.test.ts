/**
 * npm's allowScripts (package.json): every dependency with an install script, in the root and in each
 * example, has a recorded decision, so `npm install` has nothing to warn about and a new dependency that
 * brings a script fails here until someone decides (docs/development.md, "Install scripts").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/processes.js';

describe.each(['.', 'examples/web', 'examples/supergraph'])('%s/package.json allowScripts', (dir) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(ROOT, dir, 'package-lock.json'), 'utf8'));

  it('decides for every package of the lock file that has an install script, and for no other', () => {
    const withScripts = new Set(
      Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
        .filter(([, entry]) => entry.hasInstallScript)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    );
    expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual([...withScripts].sort());
    for (const decision of Object.values(manifest.allowScripts)) expect(typeof decision).toBe('boolean');
  });
});
