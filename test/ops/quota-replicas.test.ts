import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/security/api-keys.js';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import { startFaultUpstream, type FaultUpstream } from '../support/fault-upstream.js';
import { requireHaproxyInCi, startHaproxy, type Haproxy } from '../support/haproxy.js';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { freePort, startBuilt, waitFor, type Child } from '../support/processes.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';

/**
 * Three `node dist/main.js` replicas behind HAProxy on one Redis; a key with a quota of 100 calls a
 * day and a second key; 40 clients asking distinct uncached lookups together for 5 s. Run twice: on
 * the machine's Redis, and on a Redis of its own killed part-way.
 */

const QUOTA = 100;
const REPLICAS = 3;
const CLIENTS = 40;
const OTHER_CLIENTS = 8; // of the 40, on the second key
// 5 s: the quota is spent within the first second or two, and the rest is refusals (~850 in 10 s, ~600 with
// Redis killed, where the test asks for 20); the races on the last calls of the quota are all in that start.
const LOAD_MS = 5_000;
// A busy shared machine may answer too few requests in 5 s to spend the quota: the load goes on until it has seen refusals.
const MAX_LOAD_MS = 60_000;
const LOOKUPS = 3; // distinct uncached lookups per request
const CACHED = 5; // lookups the limited key makes before the load, and asks again once its quota is spent
const LIMITED = 'quota-limited-key-0123456789';
const OTHER = 'quota-other-key-0123456789';

interface Answer {
  key: 'limited' | 'other';
  status: number;
  body: {
    data?: Record<string, { domainName?: string } | null> | null;
    errors?: Array<{ extensions?: Record<string, unknown> }>;
    extensions?: any;
  };
  headers: Headers;
}

interface Rig {
  lb: string;
  /** Upstream calls received, by the key whose lookup they were (each client's domains carry its key). */
  calls: { limited: number; other: number };
  replicas: Child[];
  ports: number[];
  /** Told of each upstream call as it arrives (the outage run kills Redis part-way). */
  onCall: (count: { limited: number; other: number }) => void;
  close(): Promise<void>;
}

async function startRig(redisUrl: string, runId: string): Promise<Rig> {
  const upstream: FaultUpstream = await startFaultUpstream();
  const dir = mkdtempSync(join(tmpdir(), 'lg-quota-rig-'));
  const keysFile = join(dir, 'keys');
  writeFileSync(
    keysFile,
    `${hashApiKey(LIMITED)} name=limited quota=${QUOTA}/day\n${hashApiKey(OTHER)} name=other quota=1000000/day\n`,
  );
  const rig: Rig = {
    lb: '',
    calls: { limited: 0, other: 0 },
    replicas: [],
    ports: [],
    onCall: () => undefined,
    close: async () => undefined,
  };
  // Counted per key from the domain asked for, then answered as the sandbox would, a little later.
  upstream.handle(async (call, _req, res) => {
    const domain = String(call.body.domain ?? '');
    if (domain.startsWith('limited-')) rig.calls.limited += 1;
    else if (domain.startsWith('other-')) rig.calls.other += 1;
    rig.onCall(rig.calls);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const payload = JSON.stringify({ status: 200, ...SANDBOX_ACTIONS[call.action]!.respond(call.body) });
    res.writeHead(200, { 'content-type': 'application/json' }).end(payload);
  });
  const ports = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
  rig.ports = ports;
  const [lbPort, statsPort] = [await freePort(), await freePort()];
  for (const port of ports) {
    rig.replicas.push(
      startBuilt({
        PORT: String(port),
        ACTION_BASE_URL: upstream.url,
        ACTION_TOKEN: upstream.token,
        REDIS_URL: redisUrl,
        CACHE_KEY_SECRET: `quota-${runId}`,
        REDIS_KEY_PREFIX: `lg-test:quota-replicas:${runId}:`,
        QUOTA_REPLICAS: String(REPLICAS),
        // A quota's check is worth a longer wait than a cache read on a busy test machine: a late answer takes the local share.
        REDIS_COMMAND_TIMEOUT_MS: '1000',
        GATEWAY_API_KEYS_FILE: keysFile,
        CLIENT_RATE_LIMIT_PER_MINUTE: '0',
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        UPSTREAM_MAX_IN_FLIGHT: '256',
        // What is under test is the quota, not load shedding: a busy shared machine must not shed lookups.
        SHED_EVENT_LOOP_DELAY_MS: '0',
        LOG_LEVEL: 'warn',
      }),
    );
  }
  const haproxy: Haproxy = startHaproxy({ port: lbPort, statsPort, servers: ports });
  rig.lb = `http://127.0.0.1:${lbPort}/graphql`;
  rig.close = async () => {
    for (const replica of rig.replicas) replica.child.kill('SIGKILL');
    haproxy.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        try {
          return Object.values(await haproxy.serverStates()).filter((state) => state === 'UP').length === REPLICAS;
        } catch {
          return false;
        }
      },
      // Generous: on a busy shared machine three replicas take a while to start.
      180_000,
      'three replicas UP in HAProxy',
    );
  } catch (error) {
    await rig.close();
    throw error;
  }
  return rig;
}

async function ask(lb: string, key: 'limited' | 'other', domains: string[]): Promise<Answer> {
  const query = `{ ${domains.map((domain, i) => `d${i}: domainInfo(domain: "${domain}") { domainName }`).join(' ')} }`;
  const res = await fetch(lb, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      'x-api-key': key === 'limited' ? LIMITED : OTHER,
    },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  // HAProxy's own error page (no replica answered in time on a saturated machine): not an answer of the gateway.
  if (!res.headers.get('content-type')?.includes('json')) throw new BalancerError(`${res.status} from the balancer`);
  return { key, status: res.status, body: JSON.parse(text) as Answer['body'], headers: res.headers };
}

class BalancerError extends Error {}

/** Calls charged to each client, summed over the replicas' /metrics. */
async function charged(rig: Rig): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const port of rig.ports) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const [, client, value] of text.matchAll(
      /^lookup_graph_quota_calls_charged_total\{client="([^"]+)"\} (\d+)/gm,
    ))
      sums[client!] = (sums[client!] ?? 0) + Number(value);
  }
  return sums;
}

/** What every answer to a client with a quota carries, whatever it was. */
function quotaHeadersProblem(answer: Answer, limit: number): string | null {
  const policy = answer.headers.get('ratelimit-policy');
  const state = /^"calls";r=(\d+);t=(\d+)$/.exec(answer.headers.get('ratelimit') ?? '');
  const quota = answer.body.extensions?.gateway?.quota;
  if (policy !== `"calls";q=${limit};w=86400`) return `RateLimit-Policy ${policy}`;
  if (!state) return `RateLimit ${answer.headers.get('ratelimit')}`;
  if (!quota || quota.limit !== limit || quota.remaining !== Number(state[1]))
    return `extensions.gateway.quota ${JSON.stringify(quota)}`;
  return null;
}

/** A refusal of a spent quota: 429 QUOTA_EXCEEDED with Retry-After, the fields it owes. */
function refusalProblem(answer: Answer): string | null {
  const error = answer.body.errors?.[0]?.extensions;
  if (answer.status !== 429) return `status ${answer.status}`;
  if (error?.code !== 'QUOTA_EXCEEDED') return `code ${String(error?.code)}`;
  const retryAfter = answer.headers.get('retry-after');
  if (
    !retryAfter ||
    Number(retryAfter) !== error.retryAfter ||
    error.resetSeconds !== error.retryAfter ||
    error.remaining !== 0 ||
    error.limit !== QUOTA
  )
    return `fields ${JSON.stringify(error)} Retry-After ${retryAfter}`;
  return null;
}

interface Figures {
  calls: { limited: number; other: number };
  answers: {
    limited: number;
    other: number;
    refused: number;
    partly: number;
    served: number;
    upstreamFailures: number;
    loadMs: number;
    balancerErrors: number;
  };
  charged: Record<string, number>;
  problems: string[];
}

/**
 * The load and its checks (the outage run kills Redis from `rig.onCall`). `cachedAfter`: the limited
 * key's cached lookups are asked again at the end (not once Redis, and the cache in it, was killed).
 */
async function runLoad(rig: Rig, cachedAfter: boolean): Promise<Figures> {
  const problems: string[] = [];
  // The limited key's cached lookups, made (and paid for) before the load.
  const cachedDomains = Array.from({ length: CACHED }, (_, i) => `limited-cached-${i}.example`);
  const warm = await ask(rig.lb, 'limited', cachedDomains);
  expect(warm.status).toBe(200);
  const answers: Answer[] = [];
  const started = Date.now();
  let refusals = 0;
  const balancer: string[] = [];
  const going = () => Date.now() < started + LOAD_MS || (refusals < 20 && Date.now() < started + MAX_LOAD_MS);
  const client = async (n: number) => {
    const key = n < OTHER_CLIENTS ? 'other' : 'limited';
    for (let i = 0; going(); i += 1) {
      try {
        const answer = await ask(
          rig.lb,
          key,
          Array.from({ length: LOOKUPS }, (_, j) => `${key}-${n}-${i}-${j}.example`),
        );
        if (answer.status === 429) refusals += 1;
        answers.push(answer);
      } catch (error) {
        if (error instanceof BalancerError) balancer.push(error.message);
        else problems.push(`${key} client ${n}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

  let refused = 0;
  let partly = 0;
  let served = 0;
  // Lookups whose call failed on the way (the upstream of this test runs in the test's own, busy process): not refusals, reported apart.
  let upstreamFailures = 0;
  for (const answer of answers) {
    const limit = answer.key === 'limited' ? QUOTA : 1_000_000;
    const headers = quotaHeadersProblem(answer, limit);
    if (headers) problems.push(`${answer.key}: ${headers}`);
    const resolved = Object.values(answer.body.data ?? {}).filter((value) => value?.domainName).length;
    const codes = (answer.body.errors ?? []).map((error) => error.extensions?.code);
    const failed = codes.filter((code) => code === 'UPSTREAM_UNAVAILABLE' || code === 'UPSTREAM_TIMEOUT').length;
    const quotaRefusals = codes.filter((code) => code === 'QUOTA_EXCEEDED').length;
    upstreamFailures += failed;
    if (resolved + failed + quotaRefusals !== LOOKUPS || (answer.key === 'other' && quotaRefusals > 0)) {
      problems.push(`${answer.key}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
      continue;
    }
    if (quotaRefusals === 0) {
      if (answer.status !== 200) problems.push(`${answer.key}: status ${answer.status} without a refusal`);
      else if (failed === 0) served += 1;
      continue;
    }
    // Refused at every field: 429 with Retry-After; at some: 200 with Retry-After beside what was served.
    const refusal =
      quotaRefusals === LOOKUPS
        ? refusalProblem(answer)
        : answer.status === 200 && answer.headers.get('retry-after')
          ? null
          : `partly refused: ${answer.status} Retry-After ${answer.headers.get('retry-after')}`;
    if (refusal) problems.push(`limited: ${refusal}`);
    else if (quotaRefusals === LOOKUPS) refused += 1;
    else partly += 1;
  }
  if (cachedAfter) {
    // What the limited key had cached still comes back, at no cost, from any replica.
    const before = rig.calls.limited;
    for (let i = 0; i < REPLICAS; i += 1) {
      const cached = await ask(rig.lb, 'limited', cachedDomains);
      expect(cached.status).toBe(200);
      expect(Object.values(cached.body.data ?? {}).map((value) => value?.domainName)).toEqual(cachedDomains);
      expect(quotaHeadersProblem(cached, QUOTA)).toBeNull();
    }
    expect(rig.calls.limited).toBe(before);
  }
  return {
    calls: { ...rig.calls },
    answers: {
      limited: answers.filter((a) => a.key === 'limited').length,
      other: answers.filter((a) => a.key === 'other').length,
      refused,
      partly,
      served,
      upstreamFailures,
      loadMs: Date.now() - started,
      balancerErrors: balancer.length,
    },
    charged: await charged(rig),
    problems,
  };
}

describe('a quota across three replicas behind HAProxy', () => {
  let run = false;
  let ownRedis = false;
  beforeAll(async () => {
    const redis = await requireRedisInCi();
    run = requireHaproxyInCi() && redis;
    ownRedis = run && (await hasRedisServer());
  });

  it('on one Redis: the upstream gets at most the quota of calls for the key; every refusal is QUOTA_EXCEEDED with Retry-After', {
    timeout: 480_000,
  }, async (ctx) => {
    if (!run) return ctx.skip();
    const rig = await startRig(`redis://${REDIS_HOST}:${REDIS_PORT}`, `${process.pid}-${Date.now().toString(36)}`);
    try {
      const figures = await runLoad(rig, true);
      console.log(
        'quota across replicas:',
        JSON.stringify(figures.calls),
        JSON.stringify(figures.answers),
        'charged:',
        JSON.stringify(figures.charged),
      );
      expect(figures.problems.slice(0, 5)).toEqual([]);
      expect(figures.calls.limited).toBeLessThanOrEqual(QUOTA);
      // Charged for every call the upstream received, and never more than the quota.
      expect(figures.charged.limited).toBeGreaterThanOrEqual(figures.calls.limited);
      expect(figures.charged.limited).toBeLessThanOrEqual(QUOTA);
      expect(figures.answers.refused).toBeGreaterThanOrEqual(20);
      expect(figures.calls.other).toBeGreaterThanOrEqual(OTHER_CLIENTS * LOOKUPS);
    } finally {
      await rig.close();
    }
  });

  it('with Redis killed part-way: each replica spends at most its local share, floor(quota / QUOTA_REPLICAS)', {
    timeout: 480_000,
  }, async (ctx) => {
    if (!ownRedis) return ctx.skip();
    const redis: OwnRedis = await startOwnRedis();
    const rig = await startRig(redis.url, `${process.pid}-${Date.now().toString(36)}`);
    let killedAt: number | null = null;
    rig.onCall = (count) => {
      if (killedAt === null && count.limited >= 40) {
        killedAt = count.limited;
        void redis.kill();
      }
    };
    try {
      const figures = await runLoad(rig, false);
      const overshoot = Math.max(0, figures.calls.limited - QUOTA);
      console.log(
        'quota with Redis killed:',
        JSON.stringify({ ...figures.calls, killedAt, overshoot }),
        JSON.stringify(figures.answers),
        'charged:',
        JSON.stringify(figures.charged),
      );
      expect(killedAt).not.toBeNull();
      expect(redis.alive()).toBe(false);
      expect(figures.problems.slice(0, 5)).toEqual([]);
      expect(figures.calls.limited).toBeLessThanOrEqual(QUOTA + REPLICAS * Math.floor(QUOTA / REPLICAS));
      expect(figures.answers.refused).toBeGreaterThanOrEqual(20);
    } finally {
      await rig.close();
      await redis.close();
    }
  });
});
