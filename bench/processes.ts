import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
export const CAN_PIN = existsSync('/usr/bin/taskset');

export interface ServerProcess {
  origin: string;
  stop(): Promise<void>;
}

/** Starts a bench server in its own process, pinned to `cpu` (0 by default) when taskset exists. */
export function startServer(entry: string, env: Record<string, string>, cpu = 0): Promise<ServerProcess> {
  const command = CAN_PIN ? '/usr/bin/taskset' : TSX;
  const args = CAN_PIN ? ['-c', String(cpu), TSX, entry] : [entry];
  const child: ChildProcess = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /READY (\d+)/.exec(output);
      if (match) {
        resolve({
          origin: `http://127.0.0.1:${match[1]}`,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready`)));
  });
}

export function pinSelf(cpu: number): void {
  if (!CAN_PIN) return;
  spawn('/usr/bin/taskset', ['-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}
