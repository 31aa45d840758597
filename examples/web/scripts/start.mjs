#!/usr/bin/env node
/**
 * `npm run example` (from the repository root): the gateway on the sandbox and the example app.
 *
 *   npm run example                 gateway on :4000, Vite dev server on :5173 (full documents)
 *   npm run example -- --persisted  gateway with TRUSTED_DOCUMENTS_FILE=examples/web/persisted-documents.json,
 *                                   the production build served by `vite preview` on :4173
 *
 * The gateway runs the sandbox with a moving market (SANDBOX_MARKET=moving) and stock profiles refreshed every
 * 2 s (LIVE_REFRESH_SECONDS=company_financial_profile=2), so the Watchlist's live prices visibly change;
 * either setting in the environment overrides it.
 * PORT sets the gateway's port, APP_PORT the app's; the app's port is strict (Vite stops rather than
 * moving to another one), so the addresses printed below are the ones in use.
 * The app calls /graphql on its own origin and Vite proxies it to the gateway, so no CORS is needed.
 * Ctrl-C stops both.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireFreePorts } from '../../ports.mjs';

const app = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const persisted = process.argv.includes('--persisted');
/** A TCP port from the environment, or the default; anything else stops here with a clear message. */
function portSetting(name, fallback) {
  const value = process.env[name]?.trim() || fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    console.error(`${name} must be a port number from 1 to 65535, got "${value.slice(0, 40)}"`);
    process.exit(2);
  }
  return value;
}
const port = portSetting('PORT', '4000');
const appPort = portSetting('APP_PORT', persisted ? '4173' : '5173');
const gatewayUrl = `http://127.0.0.1:${port}`;
await requireFreePorts({ PORT: port, APP_PORT: appPort });

if (!existsSync(`${app}node_modules/.bin/vite`)) {
  console.log('== installing the example app (examples/web) from its lock file');
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

const children = [];
const run = (name, args, cwd, env) => {
  // Each child leads its own process group, so stopping it stops what npm started under it.
  const child = spawn('npm', args, { cwd, stdio: 'inherit', env: { ...process.env, ...env }, detached: true });
  child.on('exit', (code) => {
    console.log(`== ${name} exited (${code})`);
    stop(code ?? 0);
  });
  children.push(child);
};
const stop = (code) => {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
  // The first child to end decides the exit code; the ones stopped after it do not overwrite it.
  process.exitCode ??= code;
};
process.on('SIGINT', () => stop(0));
process.on('SIGHUP', () => stop(0));
process.on('SIGTERM', () => stop(0));

run('gateway', ['start'], root, {
  PORT: port,
  SANDBOX_LATENCY: process.env.SANDBOX_LATENCY ?? '300', // the transcripts visibly arrive after the videos
  // The Watchlist's @live prices: the sandbox's prices move at every call, and are polled every 2 s.
  SANDBOX_MARKET: process.env.SANDBOX_MARKET ?? 'moving',
  LIVE_REFRESH_SECONDS: process.env.LIVE_REFRESH_SECONDS ?? 'company_financial_profile=2',
  ...(persisted ? { TRUSTED_DOCUMENTS_FILE: `${app}persisted-documents.json` } : {}),
});
if (persisted) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: app, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (build.status !== 0) stop(build.status ?? 1);
  else run('app', ['run', 'preview', '--', '--host', '127.0.0.1'], app, { GATEWAY_URL: gatewayUrl, APP_PORT: appPort });
  console.log(`== open http://127.0.0.1:${appPort} (persisted documents only; the gateway at ${gatewayUrl} refuses any other operation)`);
} else {
  run('app', ['run', 'dev', '--', '--host', '127.0.0.1'], app, { GATEWAY_URL: gatewayUrl, APP_PORT: appPort });
  console.log(`== open http://127.0.0.1:${appPort} (the gateway's GraphiQL stays at ${gatewayUrl}/graphql)`);
}
