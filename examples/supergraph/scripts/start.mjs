#!/usr/bin/env node
/**
 * `npm run example:supergraph` (from the repository root): Lookup Graph as a subgraph over its built-in
 * sandbox, the example accounts subgraph, and Hive Gateway composing and serving both.
 *
 *   Lookup Graph (FEDERATION=true)   http://127.0.0.1:4000/graphql
 *   accounts subgraph                http://127.0.0.1:4001/graphql
 *   Hive Gateway (GraphiQL)          http://127.0.0.1:4002/graphql
 *
 * Ports: LOOKUP_PORT, ACCOUNTS_PORT, ROUTER_PORT. Ctrl-C stops all three.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireFreePorts } from '../../ports.mjs';

const example = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const ports = { lookup: process.env.LOOKUP_PORT ?? '4000', accounts: process.env.ACCOUNTS_PORT ?? '4001', router: process.env.ROUTER_PORT ?? '4002' };
const urls = Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, `http://127.0.0.1:${port}/graphql`]));
await requireFreePorts({ LOOKUP_PORT: ports.lookup, ACCOUNTS_PORT: ports.accounts, ROUTER_PORT: ports.router });

if (!existsSync(`${example}node_modules/.bin/hive-gateway`)) {
  console.log('== installing the supergraph example (examples/supergraph) from its lock file');
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: example, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
// Imported only now: compose.mjs needs the example's own packages, which the step above installs on a fresh clone.
const { compose, subgraphSdl } = await import('./compose.mjs');

const children = [];
const run = (name, command, args, cwd, env) => {
  // Each child leads its own process group, so stopping it stops what it started.
  const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env }, detached: true });
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

/** The SDL a subgraph serves, once it answers. */
async function sdlOnceUp(url) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await subgraphSdl(url);
    } catch (error) {
      if (attempt > 120) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

run('lookup-graph', 'npm', ['start'], root, { FEDERATION: 'true', PORT: ports.lookup, SANDBOX_LATENCY: process.env.SANDBOX_LATENCY ?? '200' });
run('accounts', process.execPath, ['accounts/server.mjs'], example, { PORT: ports.accounts });

const subgraphs = [
  { name: 'lookup', url: urls.lookup, sdl: await sdlOnceUp(urls.lookup) },
  { name: 'accounts', url: urls.accounts, sdl: await sdlOnceUp(urls.accounts) },
];
const composed = compose(subgraphs);
if (!composed.ok) {
  console.error(`== composition failed:\n${composed.errors.join('\n')}`);
  stop(1);
} else {
  const file = `${example}supergraph.graphql`;
  writeFileSync(file, composed.supergraphSdl);
  console.log(`== composed ${file} (@theguild/federation-composition and @apollo/composition both accept it)`);
  run('hive-gateway', process.execPath, ['node_modules/@graphql-hive/gateway/dist/bin.js', 'supergraph', file, '--port', ports.router, '--host', '127.0.0.1'], example, {});
  console.log(`== open ${urls.router} and try:

  { accounts { name website company { name financialProfile { symbol price } } holdings { symbol profile { companyName price } } lead { handle headline } } }
`);
}
