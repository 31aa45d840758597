#!/usr/bin/env node
/**
 * The first hour, checked: a fresh `git clone` of this checkout into a temp folder, with nothing installed,
 * then each example's documented command (README, docs/frontend.md, docs/federation.md) starts, answers
 * one query and stops:
 *
 *   npm install                 the root, as the README says
 *   npm run example             the web app's page in Chromium shows a company the gateway looked up
 *   npm run example:supergraph  one query through the router, joining both subgraphs
 *
 * Each example installs itself on first run (from its lock file; npm's cache makes it fast). Prints the
 * time of each step and the total; exits non-zero at the first failure. `.ci/run` calls it.
 *   node scripts/clean-clone-examples.mjs [checkout]      (default: this repository)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const scratch = mkdtempSync(join(tmpdir(), 'lookup-graph-clean-clone-'));
const clone = join(scratch, 'repo');
const started = Date.now();
const running = new Set();

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
async function step(name, run) {
  const since = Date.now();
  console.log(`== ${name}`);
  await run();
  console.log(`== ${name}: ok in ${seconds(since)}`);
}

function cleanUp() {
  for (const child of running) stopGroup(child);
  rmSync(scratch, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function stopGroup(child, signal = 'SIGTERM') {
  try {
    process.kill(-child.pid, signal);
  } catch {}
}

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `npm run <script>` in the clone, in a process group of its own; its output is kept for a failure. */
function start(script, env) {
  const child = spawn('npm', ['run', script], { cwd: clone, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  child.output = () => output;
  running.add(child);
  return child;
}

async function until(what, child, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what}: the command exited (${child.exitCode}) first:\n${child.output().slice(-4000)}`);
    try {
      const value = await check();
      if (value) return value;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s:\n${child.output().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** SIGTERM to the command's group, as Ctrl-C would stop it; it must be gone within 15 s. */
async function stop(child) {
  stopGroup(child);
  const timer = setTimeout(() => stopGroup(child, 'SIGKILL'), 15_000);
  const result = await child.exited;
  clearTimeout(timer);
  running.delete(child);
  if (result === 'SIGKILL') throw new Error(`the command did not stop on SIGTERM:\n${child.output().slice(-2000)}`);
}

const graphql = async (url, query) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return res.json();
};

try {
  await step(`git clone ${source}`, () => execFileSync('git', ['clone', '--quiet', '--no-hardlinks', source, clone], { stdio: 'inherit' }));
  await step('npm install (the root, as the README says)', () =>
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: clone, stdio: 'inherit' }),
  );

  await step('npm run example: the page in Chromium shows a company the gateway looked up', async () => {
    const [port, appPort] = [await freePort(), await freePort()];
    const example = start('example', { PORT: String(port), APP_PORT: String(appPort) });
    const app = `http://127.0.0.1:${appPort}`;
    await until('the app answers', example, async () => (await fetch(app)).ok, 600_000);
    const { chromium } = await import(join(clone, 'node_modules', 'playwright-core', 'index.mjs'));
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${app}/#/company`);
      await page.getByTestId('company').getByText('Hubspot').first().waitFor({ timeout: 60_000 });
    } finally {
      await browser.close();
    }
    await stop(example);
  });

  await step('npm run example:supergraph: one query through the router', async () => {
    const ports = { LOOKUP_PORT: await freePort(), ACCOUNTS_PORT: await freePort(), ROUTER_PORT: await freePort() };
    const supergraph = start('example:supergraph', Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])));
    // The query the script prints, trimmed to one field of each subgraph.
    const query = '{ accounts { name company { name } } }';
    const body = await until(
      'the router answers',
      supergraph,
      async () => {
        const answer = await graphql(`http://127.0.0.1:${ports.ROUTER_PORT}/graphql`, query);
        return answer.data?.accounts?.length ? answer : null;
      },
      600_000,
    );
    if (body.errors || !body.data.accounts.some((account) => account.company?.name)) throw new Error(`unexpected answer: ${JSON.stringify(body)}`);
    await stop(supergraph);
  });

  console.log(`== clean-clone examples: ok in ${seconds(started)}`);
} catch (error) {
  console.error(`== clean-clone examples FAILED after ${seconds(started)}: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
}
