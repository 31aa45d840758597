import { spawn, type ChildProcess } from 'node:child_process';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { freePort, ROOT } from '../support/processes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGTERM under keep-alive load (node --import tsx src/main.ts)', () => {
  it('answers every request that was sent, with Connection: close once draining, and exits 0', async () => {
    const port = await freePort();
    const { ACTION_BASE_URL: _a, ACTION_TOKEN: _t, NODE_ENV: _n, REDIS_URL: _r, ...inherited } = process.env;
    // node --import tsx, not the tsx CLI: the CLI relays SIGTERM and SIGKILLs a child that has not
    // acknowledged it within 30 ms, which a loaded machine misses (exit 143 without draining).
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: String(port),
        SANDBOX_LATENCY: '40',
        CLIENT_RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let drainingSeenAt = 0;
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (!drainingSeenAt && output.includes('draining in-flight requests')) drainingSeenAt = Date.now();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 12, pipelining: 1 });
    try {
      const ready = Date.now() + 30_000;
      while (!output.includes('GraphiQL')) {
        if (Date.now() > ready) throw new Error(`the gateway did not start:\n${output}`);
        await sleep(50);
      }
      let exitedYet = false;
      void exited.then(() => (exitedYet = true));
      const tally = {
        answered: 0,
        answeredDuringDrain: 0,
        closeDuringDrain: 0,
        answeredAfterSigterm: 0,
        keepAliveAfterSigterm: 0,
        refused: 0,
        failed: [] as string[],
      };
      const client = async (c: number) => {
        for (let i = 0; !exitedYet; i += 1) {
          const sentAt = Date.now();
          try {
            const res = await pool.request({
              path: '/graphql',
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query: `{ domainInfo(domain: "drain-${c}-${i}.example") { domainName } }` }),
            });
            const body = (await res.body.json()) as { data?: { domainInfo?: { domainName?: string } } };
            if (res.statusCode !== 200 || body.data?.domainInfo?.domainName !== `drain-${c}-${i}.example`) {
              tally.failed.push(`HTTP ${res.statusCode} ${JSON.stringify(body).slice(0, 200)}`);
            }
            tally.answered += 1;
            if (drainingSeenAt) {
              tally.answeredDuringDrain += 1;
              if (res.headers.connection === 'close') tally.closeDuringDrain += 1;
            }
            // Sent after the gateway said it was draining (tsx relays the signal, so not from kill()).
            if (drainingSeenAt && sentAt > drainingSeenAt) {
              tally.answeredAfterSigterm += 1;
              if (res.headers.connection !== 'close') tally.keepAliveAfterSigterm += 1;
            }
          } catch (error) {
            const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
            // Refused before being sent: the listener is closed; a client retries elsewhere.
            if (code === 'ECONNREFUSED') tally.refused += 1;
            else tally.failed.push(String(code ?? error));
            await sleep(20);
          }
        }
      };
      const clients = Array.from({ length: 12 }, (_, c) => client(c));
      // Under load for a while first: until twenty requests were answered (a busy machine takes longer).
      const warm = Date.now() + 20_000;
      while (tally.answered <= 20 && Date.now() < warm) await sleep(50);
      const before = tally.answered;
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await Promise.all(clients);
      console.log(
        'drain under keep-alive load:',
        JSON.stringify({ answeredBeforeSigterm: before, ...tally, failed: tally.failed.length }),
      );
      expect(before).toBeGreaterThan(20);
      // Requests were in flight across SIGTERM and were answered, not cut.
      expect(tally.answeredDuringDrain).toBeGreaterThan(0);
      expect(tally.failed).toEqual([]);
      expect(tally.keepAliveAfterSigterm).toBe(0);
      expect(output).toContain('draining in-flight requests');
      expect(output).toContain('stopped');
    } finally {
      child.kill('SIGKILL');
      await pool.destroy();
    }
  }, 60_000);
});
