import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { startSandboxLikeUpstream } from '../support/fault-upstream.js';
import { forSuite } from '../support/fixtures.js';
import { freePort, queryOnce, ROOT, startBuilt, waitFor } from '../support/processes.js';
import { requireRedisInCi } from '../support/redis.js';

const KEY = 'quota-cli-built-key-0123456789';
const redisUp = await requireRedisInCi();

/**
 * The image's /app: package.json, dist and node_modules pruned of the development dependencies (tsx among
 * them), and no src. Linked to this checkout's files, without tsx.
 */
function imageLikeApp(): string {
  const app = mkdtempSync(join(tmpdir(), 'lg-image-app-'));
  copyFileSync(join(ROOT, 'package.json'), join(app, 'package.json'));
  symlinkSync(join(ROOT, 'dist'), join(app, 'dist'));
  mkdirSync(join(app, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules')))
    if (entry !== 'tsx' && entry !== '.bin')
      symlinkSync(join(ROOT, 'node_modules', entry), join(app, 'node_modules', entry));
  return app;
}

describe.runIf(redisUp)('npm run quota where the image runs it: no src, no tsx', () => {
  const upstream = forSuite(startSandboxLikeUpstream);

  it('shows the calls a built gateway charged to a client, from dist/quota/cli.js', async () => {
    const app = imageLikeApp();
    const keys = join(app, 'keys');
    writeFileSync(keys, `${hashApiKey(KEY)} name=team-a quota=5/day\n`);
    const env = {
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `lg-quota-cli-${process.pid}-${Date.now()}:`,
      GATEWAY_API_KEYS_FILE: keys,
    };
    const port = await freePort();
    const gw = startBuilt({ ...env, PORT: String(port), ACTION_BASE_URL: upstream.url, ACTION_TOKEN: upstream.token });
    try {
      await waitFor(() => gw.output().includes('Lookup Graph ready'), 20_000, 'start-up');
      // A domain no cache holds: one paid call, charged to team-a.
      const domain = `quota-cli-${process.pid}-${Date.now()}.example`;
      const res = await queryOnce(port, `{ domainInfo(domain: "${domain}") { domainName } }`, { 'x-api-key': KEY });
      expect(res.body.data).toEqual({ domainInfo: { domainName: domain } });
      expect(res.body.extensions.gateway.upstreamCalls).toBe(1);

      const run = spawnSync('npm', ['run', '--silent', 'quota', '--', 'show'], {
        cwd: app,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      const rows = run.stdout.trim().split('\n');
      expect(rows[0]).toMatch(/^client\s+quota\s+used\s+remaining\s+resets in \(s\)$/);
      expect(rows[1]).toMatch(/^team-a\s+5\/day\s+1\s+4\s+\d+$/);

      // Without the build, the command says what is missing instead of falling back to a source it has not got.
      const bare = mkdtempSync(join(tmpdir(), 'lg-image-app-'));
      copyFileSync(join(ROOT, 'package.json'), join(bare, 'package.json'));
      const missing = spawnSync('npm', ['run', '--silent', 'quota', '--', 'show'], { cwd: bare, encoding: 'utf8' });
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toContain('dist/quota/cli.js');
      rmSync(bare, { recursive: true, force: true });
    } finally {
      gw.child.kill('SIGTERM');
      await gw.exited;
      rmSync(app, { recursive: true, force: true });
    }
  });
});
