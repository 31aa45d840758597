/**
 * A port another process holds: `npm start` and both examples print one line naming the setting that
 * moves it and exit 1, with no stack trace and nothing else started.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from './support/processes.js';

function run(
  command: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const {
    ACTION_BASE_URL: _a,
    ACTION_TOKEN: _t,
    NODE_ENV: _n,
    REDIS_URL: _r,
    METRICS_PORT: _m,
    ...inherited
  } = process.env;
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('a port in use', () => {
  let held: Server;
  let busy: number;
  let free: number;
  beforeAll(async () => {
    busy = await freePort();
    free = await freePort();
    held = createServer();
    await new Promise<void>((resolve) => held.listen(busy, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

  it('npm start: one line naming PORT, exit 1', async () => {
    const { code, stderr } = await run(['npm', 'start', '--silent'], { PORT: String(busy) });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`port ${busy} is in use: stop the other process or set PORT`);
  });

  it('npm start: METRICS_PORT in use names METRICS_PORT', async () => {
    const { code, stderr } = await run(['npm', 'start', '--silent'], {
      PORT: String(free),
      METRICS_PORT: String(busy),
    });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`port ${busy} is in use: stop the other process or set METRICS_PORT`);
  });

  it.each([
    ['npm run example', ['npm', 'run', 'example', '--silent'], { PORT: 'busy', APP_PORT: 'free' }, 'PORT'],
    [
      'npm run example (the app port)',
      ['npm', 'run', 'example', '--silent'],
      { PORT: 'free', APP_PORT: 'busy' },
      'APP_PORT',
    ],
    [
      'npm run example:supergraph',
      ['npm', 'run', 'example:supergraph', '--silent'],
      { LOOKUP_PORT: 'busy' },
      'LOOKUP_PORT',
    ],
    [
      'npm run example:supergraph (the router port)',
      ['npm', 'run', 'example:supergraph', '--silent'],
      { LOOKUP_PORT: 'free', ROUTER_PORT: 'busy' },
      'ROUTER_PORT',
    ],
  ])('%s: one line naming the setting, exit 1, nothing started', async (_name, command, ports, setting) => {
    const env = Object.fromEntries(
      Object.entries(ports).map(([key, which]) => [key, String(which === 'busy' ? busy : free)]),
    );
    const { code, stdout, stderr } = await run(command, { ACCOUNTS_PORT: String(await freePort()), ...env });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`port ${busy} is in use: stop the other process or set ${setting}`);
    expect(stdout).not.toMatch(/installing|open http/);
  });
});
