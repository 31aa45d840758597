import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashApiKey } from '../../src/security/api-keys.js';
import { answerLikeSandbox, type FaultUpstream, startFaultUpstream } from './fault-upstream.js';
import { type Child, queryOnce, startBuiltOnPorts, waitFor } from './processes.js';

/** team-a's key: a quota of 3 calls a day, spent by the load. team-b's: 1000 a day. */
const TEAM_A_KEY = 'operated-team-a-key-0123456789';
const TEAM_B_KEY = 'operated-team-b-key-0123456789';

/** A built gateway in production with METRICS_PORT, named clients with quotas and Redis: what an operator watches. */
export interface OperatedGateway {
  child: Child;
  port: number;
  metricsPort: number;
  upstream: FaultUpstream;
  close(): Promise<void>;
}

/** `node dist/main.js` over a sandbox-like upstream that fails every domain starting `fail-` (UPSTREAM_UNAVAILABLE). */
export async function startOperatedGateway(extra: Record<string, string> = {}): Promise<OperatedGateway> {
  const upstream = await startFaultUpstream();
  // With the upstream's budget in its headers, as the real service sends it: a large one, never spent here.
  let calls = 0;
  answerLikeSandbox(
    upstream,
    (call) => String(call.body.domain ?? '').startsWith('fail-'),
    () => ({ 'ratelimit-limit': '100000', 'ratelimit-remaining': String(100_000 - ++calls), 'ratelimit-reset': '60' }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'lg-operated-'));
  const keys = join(dir, 'keys');
  writeFileSync(
    keys,
    `${hashApiKey(TEAM_A_KEY)} name=team-a quota=3/day\n${hashApiKey(TEAM_B_KEY)} name=team-b quota=1000/day\n`,
  );
  const child = await startBuiltOnPorts(
    {
      NODE_ENV: 'production',
      GATEWAY_API_KEYS_FILE: keys,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `lg-operated-${process.pid}-${Date.now()}:`,
      ...extra,
    },
    upstream,
  );
  const { port, metricsPort } = child;
  await waitFor(() => child.output().includes('Lookup Graph ready'), 20_000, 'start-up');
  return {
    child,
    port,
    metricsPort,
    upstream,
    async close() {
      child.child.kill('SIGTERM');
      await child.exited;
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A short mixed load for `ms`: team-b asks for new domains (paid calls), repeats (cache hits), failing
 * domains (upstream errors) and a bad input (BAD_USER_INPUT); team-a asks for new domains until its quota
 * is spent and it is refused (QUOTA_EXCEEDED). Returns the responses' error codes, counted.
 */
export async function operatedLoad(port: number, ms: number): Promise<Record<string, number>> {
  const run = `${process.pid}-${Date.now()}`;
  const codes: Record<string, number> = {};
  const until = Date.now() + ms;
  const ask = async (query: string, key: string) => {
    const res = await queryOnce(port, query, { 'x-api-key': key });
    for (const error of res.body.errors ?? []) {
      const code = error.extensions?.code ?? 'UNCODED';
      codes[code] = (codes[code] ?? 0) + 1;
    }
  };
  const domain = (name: string) => `{ domainInfo(domain: "${name}") { domainName } }`;
  for (let i = 0; Date.now() < until; i++) {
    await Promise.all([
      ask(domain(`d${i}-${run}.example`), TEAM_B_KEY),
      ask(domain(`d${Math.floor(i / 2)}-${run}.example`), TEAM_B_KEY),
      ask(domain(`shared-${run}.example`), TEAM_B_KEY),
      i % 10 === 0 ? ask(domain(`fail-${i}-${run}.example`), TEAM_B_KEY) : null,
      i % 4 === 0 ? ask(domain('not a domain'), TEAM_B_KEY) : null,
      i % 2 === 0 ? ask(domain(`a${i}-${run}.example`), TEAM_A_KEY) : null,
      i % 5 === 0
        ? ask(
            `{ financialProfiles(symbols: ["AAPL", "NKE", "X${String.fromCharCode(65 + (i % 26))}"]) { symbol } }`,
            TEAM_B_KEY,
          )
        : null,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return codes;
}
