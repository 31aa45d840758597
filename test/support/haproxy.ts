import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether `haproxy` can be started here (a Debian package that .ci/run installs). */
export function haproxyInstalled(): boolean {
  return spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
}

/** Whether `haproxy` is there for the replica tests; in CI (where .ci/run installs it) a missing one is a failure, not a skip. */
export function requireHaproxyInCi(): boolean {
  const installed = haproxyInstalled();
  if (!installed && process.env.CI === 'true')
    throw new Error('CI=true but haproxy is not installed: the replica tests cannot run (.ci/run installs it)');
  return installed;
}

export interface Haproxy {
  /** The balancer's address. */
  url: string;
  /** Each server's state as HAProxy sees it (UP, DOWN, NOLB, MAINT...), by name (g0, g1, ...). */
  serverStates(): Promise<Record<string, string>>;
  output(): string;
  close(): void;
}

/**
 * HAProxy in front of gateway replicas on 127.0.0.1, set up as deploy/haproxy/haproxy.cfg sets up
 * production: health checks on /readyz (two failures take a replica out), and a request a replica
 * closed without answering (killed, or an idle connection a draining one closed) retried on another.
 */
export function startHaproxy(options: { port: number; statsPort: number; servers: number[] }): Haproxy {
  const dir = mkdtempSync(join(tmpdir(), 'lg-haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    `global
  maxconn 2000
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  retries 3
  option redispatch 1
  # A connection refused or closed without an answer (a killed replica, an idle connection the draining
  # replica closes) is retried on another replica: the operations are read-only lookups.
  retry-on conn-failure empty-response junk-response
frontend graphql
  bind 127.0.0.1:${options.port}
  default_backend gateways
frontend stats
  bind 127.0.0.1:${options.statsPort}
  stats enable
  stats uri /stats
backend gateways
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  http-response set-header x-replica %s
  # /readyz answers 503 at once when draining; two failed checks take a replica out. Generous check
  # timeouts: a busy machine must not flap healthy replicas out.
  timeout check 3s
  default-server inter 250ms fall 2 rise 2
${options.servers.map((port, i) => `  server g${i} 127.0.0.1:${port} check`).join('\n')}
`,
  );
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  return {
    url: `http://127.0.0.1:${options.port}`,
    async serverStates() {
      const csv = await (await fetch(`http://127.0.0.1:${options.statsPort}/stats;csv`)).text();
      const states: Record<string, string> = {};
      for (const line of csv.split('\n')) {
        const cols = line.split(',');
        if (cols[0] === 'gateways' && /^g\d+$/.test(cols[1]!)) states[cols[1]!] = cols[17]!;
      }
      return states;
    },
    output: () => output,
    close() {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
