import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, statusOf, waitFor } from '../support/processes.js';

/** The example supergraph package (its own package.json and lock file; .ci/run installs it). */
export const SUPERGRAPH = join(ROOT, 'examples/supergraph');

/** Installs the example package from its lock file when this machine has not yet (CI has, by .ci/run). */
export function installSupergraphExample(): void {
  if (existsSync(join(SUPERGRAPH, 'node_modules/.bin/hive-gateway'))) return;
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: SUPERGRAPH, stdio: 'pipe', timeout: 540_000 });
}

interface Started {
  child: ChildProcess;
  output: () => string;
}

/** A process of the example, in its own process group so that stopping it stops whatever it started. */
function start(args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, args, {
    cwd: SUPERGRAPH,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

function stop(started: Started | undefined): Promise<void> {
  const child = started?.child;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const forced = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 5_000);
  return exited.finally(() => clearTimeout(forced));
}

export interface CompositionReport {
  ok: boolean;
  composers: { guild: boolean; apollo: boolean };
  errors: string[];
  hints: string[];
}

/**
 * Runs the example's compose script (both composers); the supergraph SDL goes to `out` when both accept.
 * Asynchronously: the subgraphs it asks for their SDL may be served by this very process.
 */
export async function compose(args: string[]): Promise<CompositionReport> {
  let stdout: string;
  try {
    stdout = (
      await promisify(execFile)(process.execPath, ['scripts/compose.mjs', ...args], {
        cwd: SUPERGRAPH,
        timeout: 120_000,
      })
    ).stdout;
  } catch (error) {
    stdout = String((error as { stdout?: string }).stdout ?? '');
    if (!stdout.trim()) throw error;
  }
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/** The routers the suite runs: Hive Gateway's CLI, and Apollo Gateway on Apollo Server (the example's script). */
export type Router = 'hive-gateway' | 'apollo-gateway';

export interface Supergraph {
  /** The router's GraphQL endpoint. */
  url: string;
  /** The composition of Lookup Graph and the accounts subgraph, as the router runs it. */
  composition: CompositionReport;
  query(
    query: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: { data?: any; errors?: any[] } }>;
  close(): Promise<void>;
}

/**
 * The accounts subgraph and a router in front of it and of the Lookup Graph subgraph at `lookupUrl`,
 * composed from both running subgraphs' `_service { sdl }`. `headers` go with the SDL fetches.
 */
export async function startSupergraph(
  lookupUrl: string,
  headers: Record<string, string> = {},
  kind: Router = 'hive-gateway',
): Promise<Supergraph> {
  const dir = mkdtempSync(join(tmpdir(), 'lookup-graph-supergraph-'));
  let accounts: Started | undefined;
  let router: Started | undefined;
  const close = async () => {
    await Promise.all([stop(router), stop(accounts)]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const accountsPort = await freePort();
    accounts = start(['accounts/server.mjs'], { PORT: String(accountsPort) });
    await waitFor(
      () => accounts!.output().includes('accounts subgraph on'),
      30_000,
      `the accounts subgraph (${accounts.output()})`,
    );
    const file = join(dir, 'supergraph.graphql');
    const composition = await compose([
      '--subgraph',
      `lookup=${lookupUrl}`,
      '--subgraph',
      `accounts=http://127.0.0.1:${accountsPort}/graphql`,
      '--out',
      file,
      ...Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}=${value}`]),
    ]);
    if (!composition.ok) throw new Error(`composition failed: ${composition.errors.join('; ')}`);
    const port = await freePort();
    let endpoint: string;
    if (kind === 'hive-gateway') {
      router = start([
        'node_modules/@graphql-hive/gateway/dist/bin.js',
        'supergraph',
        file,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
      ]);
      const origin = `http://127.0.0.1:${port}`;
      await waitFor(
        async () => (await statusOf(`${origin}/healthcheck`)) === 200,
        60_000,
        `Hive Gateway (${router.output().slice(-2000)})`,
      );
      endpoint = `${origin}/graphql`;
    } else {
      router = start(['scripts/apollo-gateway.mjs', file, String(port)]);
      await waitFor(
        () => router!.output().includes('Apollo Gateway on'),
        60_000,
        `Apollo Gateway (${router.output().slice(-2000)})`,
      );
      endpoint = `http://127.0.0.1:${port}/`;
    }
    return {
      url: endpoint,
      composition,
      async query(query, extra = {}) {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
            ...extra,
          },
          body: JSON.stringify({ query }),
        });
        return { status: res.status, body: await res.json() };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
