import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { financialProfiles } from '../../src/sandbox/samples/financial-profile.js';
import { hashApiKey } from '../../src/security/api-keys.js';
import { SANDBOX_ACTIONS } from '../../src/sandbox/answers.js';
import { json, startFaultUpstream, type FaultUpstream } from '../support/fault-upstream.js';
import { haproxyInstalled, startHaproxy, type Haproxy } from '../support/haproxy.js';
import { quantile, seeded, zipf } from '../support/load.js';
import { debuggerUrlIn, liveHeapBytes } from '../support/inspector.js';
import { hasRedisServer, startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { freePort, startBuilt, type Child } from '../support/processes.js';
import { sleep } from '../support/wait.js';

/**
 * The soak: three built replicas (`node dist/main.js`, NODE_ENV=production, API keys) behind HAProxy
 * on one private Redis, under a paced load of seeded Zipf inputs (some of which the upstream fails)
 * from two dozen API keys, for SOAK_SECONDS (150). In its first half Redis is killed and restarted,
 * then frozen and thawed, one replica is rolled (SIGTERM, started again), one is killed (SIGKILL,
 * started again) and the upstream turns slow for a while; the second half is steady, for the heap.
 * It asserts no 5xx but requests in flight at the kill, answers that match what they asked, upstream
 * calls within the bound stated below, and each replica's live heap flat across the second half.
 */

// 150 s: the second half (75 s, fifteen heap samples a replica) is still long enough for the flat-heap check,
// and a financial entry (TTL 120 s) still expires within the run. SOAK_SECONDS runs it longer.
const SECONDS = Number(process.env.SOAK_SECONDS ?? 150);
const SEED = Number(process.env.SOAK_SEED ?? 32_6);
const INPUTS = 1000; // distinct inputs per kind, Zipf-distributed
const KEYS = 24; // API keys (clients)
const WORKERS = 8; // closed-loop clients, paced
const PER_SECOND = 60; // requests per second offered in all (1 to 3 lookups each)
const FAST_MS = 20;
const SLOW_MS = 1500; // the upstream "turns slow": well within UPSTREAM_TIMEOUT_MS
const LEASE_MS = 4000;
const TTL_FINANCIAL_MS = 120_000; // company_financial_profile's cache TTL; the other kinds outlive the soak
/** Faulting inputs: a domain the upstream answers 500, a username it does not know (404), a symbol it leaves out. */
const isFault = (i: number) => i % 23 === 11;

/** When each disruption happens, as a share of the run. */
const AT = { redisKill: 0.08, redisFreeze: 0.2, roll: 0.3, kill: 0.38, slow: 0.42, fast: 0.47, steady: 0.5 };

type Kind = 'domain' | 'user' | 'symbols';
interface Field {
  alias: string;
  kind: Kind;
  inputs: number[];
}
interface Sample {
  started: number;
  ended: number;
  status: number;
  replica: string;
  problems: string[];
  /** The errors on inputs the upstream serves (not the faulting ones): code and message. */
  goodErrors: string[];
  lookups: number;
}

const inputName = (kind: Kind, i: number) =>
  kind === 'domain' ? `d${i}.soak.example` : kind === 'user' ? `soaku${i}` : `S${i}`;
const indexOf = (text: string) => Number(/\d+/.exec(text)?.[0]);

/** One operation as a frontend sends it: a document per shape, the inputs in its variables. */
function operationOf(fields: Field[]): { query: string; variables: Record<string, unknown> } {
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const parts = fields.map((f) => {
    if (f.kind === 'symbols') {
      variables[f.alias] = f.inputs.map((i) => inputName('symbols', i));
      declared.push(`$${f.alias}: [String!]!`);
      return `${f.alias}: financialProfiles(symbols: $${f.alias}) { symbol }`;
    }
    variables[f.alias] = inputName(f.kind, f.inputs[0]!);
    declared.push(`$${f.alias}: String!`);
    return f.kind === 'domain'
      ? `${f.alias}: domainInfo(domain: $${f.alias}) { domainName }`
      : `${f.alias}: photosocialProfile(username: $${f.alias}) { username }`;
  });
  return { query: `query Soak(${declared.join(', ')}) { ${parts.join(' ')} }`, variables };
}

type Body = {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message?: string; path?: Array<string | number>; extensions?: { code?: string } }>;
};

/** What is wrong with one answer: each field echoes its input (lists in length and order), each faulting input is null with a code. */
function check(fields: Field[], body: Body, goodErrors: string[]): string[] {
  const problems: string[] = [];
  const errorAt = (path: Array<string | number>) => {
    const error = body.errors?.find((e) => JSON.stringify(e.path) === JSON.stringify(path));
    return error?.extensions?.code ? `${error.extensions.code}: ${error.message ?? ''}` : undefined;
  };
  const expectValue = (
    value: unknown,
    key: 'domainName' | 'username' | 'symbol',
    input: string,
    fault: boolean,
    path: Array<string | number>,
  ) => {
    if (value === null || value === undefined) {
      const code = errorAt(path);
      if (!code) problems.push(`${path.join('.')}: null without a coded error`);
      else if (!fault) goodErrors.push(code);
      return;
    }
    if (fault) problems.push(`${path.join('.')}: a faulting input answered with data`);
    const echoed = (value as Record<string, unknown>)[key];
    if (echoed !== input) problems.push(`${path.join('.')}: asked ${input}, got ${String(echoed)}`);
  };
  for (const f of fields) {
    const value = body.data?.[f.alias];
    if (f.kind === 'domain')
      expectValue(value, 'domainName', inputName('domain', f.inputs[0]!), isFault(f.inputs[0]!), [f.alias]);
    else if (f.kind === 'user')
      expectValue(value, 'username', inputName('user', f.inputs[0]!), isFault(f.inputs[0]!), [f.alias]);
    else if (value === null || value === undefined) {
      const code = errorAt([f.alias]);
      if (!code) problems.push(`${f.alias}: null list without a coded error`);
      else goodErrors.push(code);
    } else if (!Array.isArray(value) || value.length !== f.inputs.length) {
      problems.push(
        `${f.alias}: asked ${f.inputs.length} symbols, got ${Array.isArray(value) ? value.length : typeof value}`,
      );
    } else {
      for (const [n, i] of f.inputs.entries())
        expectValue(value[n], 'symbol', inputName('symbols', i), isFault(i), [f.alias, n]);
    }
  }
  return problems;
}

describe('soak: three replicas behind HAProxy on one Redis, through Redis, replica and upstream trouble', () => {
  let run = false;
  let redis: OwnRedis;
  let upstream: FaultUpstream;
  let lb: Haproxy | undefined;
  const replicas: Child[] = [];
  const calls: Array<{ key: string; at: number }> = [];
  let latency = FAST_MS;

  beforeAll(async () => {
    const tools = (await hasRedisServer()) && haproxyInstalled();
    if (!tools && process.env.CI === 'true')
      throw new Error('CI=true but redis-server or haproxy is missing: the soak cannot run (.ci/run installs them)');
    run = tools;
    if (!run) return;
    redis = await startOwnRedis();
    upstream = await startFaultUpstream();
    upstream.handle(async (call, _req, res) => {
      await sleep(latency);
      const at = Date.now();
      if (call.action === 'domain_info') {
        const domain = String(call.body.domain);
        calls.push({ key: `domain:${domain}`, at });
        if (isFault(indexOf(domain))) return json(res, 500, { status: 500, response: null, error: 'Internal error.' });
        return json(res, 200, { status: 200, ...SANDBOX_ACTIONS.domain_info!.respond(call.body) });
      }
      if (call.action === 'get_photosocial_profile') {
        const username = String(call.body.username);
        calls.push({ key: `user:${username}`, at });
        if (isFault(indexOf(username)))
          return json(res, 404, { status: 404, response: null, error: "The requested page doesn't exist" });
        return json(res, 200, { status: 200, ...SANDBOX_ACTIONS.get_photosocial_profile!.respond(call.body) });
      }
      // company_financial_profile: "S1,S2": every symbol it knows, in an order of its own (the gateway maps by symbol).
      const symbols = String(call.body.company)
        .split(',')
        .map((symbol) => symbol.trim());
      for (const symbol of symbols) calls.push({ key: `symbols:${symbol}`, at });
      const template = financialProfiles('AAPL')[0]!;
      const known = symbols.filter((symbol) => !isFault(indexOf(symbol))).reverse();
      return json(res, 200, { status: 200, response: known.map((symbol) => ({ ...template, symbol })) });
    });
  });

  afterAll(async () => {
    for (const replica of replicas) replica?.child.kill('SIGKILL');
    lb?.close();
    if (run) {
      await upstream.close();
      await redis.close();
    }
  });

  it(`${SECONDS} s: no 5xx but at the kill, every answer matches its input, bounded upstream calls, flat heaps`, {
    timeout: (SECONDS + 90) * 1000,
  }, async (ctx) => {
    if (!run) return ctx.skip();
    const keys = Array.from({ length: KEYS }, (_, n) => `soak-key-${SEED}-${n}`);
    const ports = [await freePort(), await freePort(), await freePort()];
    const metricsPorts = [await freePort(), await freePort(), await freePort()];
    const env = (i: number) => ({
      NODE_ENV: 'production',
      PORT: String(ports[i]),
      METRICS_PORT: String(metricsPorts[i]),
      ACTION_BASE_URL: upstream.url,
      ACTION_TOKEN: upstream.token,
      REDIS_URL: redis.url,
      CACHE_KEY_SECRET: `soak-${SEED}`,
      GATEWAY_API_KEY_HASHES: keys.map(hashApiKey).join(','),
      // Every connection comes from HAProxy's one address: the per-address cap is for direct exposure.
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      SHUTDOWN_DRAIN_DELAY_MS: '1500',
      SHUTDOWN_GRACE_MS: '5000',
      // A killed holder's lease must run out well within an operation's 15 s, as the operator sets it.
      CACHE_LEASE_MS: String(LEASE_MS),
      // The faulting domains are a steady stream of distinct 500s; late in the run, with nearly every good
      // input cached, few successes come between them. The breakers have tests of their own.
      UPSTREAM_BREAKER_FAILURES: '25',
      // Caches small enough to reach their bounds in the first half, so a heap still growing in the second
      // half is a leak, not the caches filling up (the default bounds fill over the whole run).
      CACHE_MAX_MB: '4',
      CACHE_RESULTS_MB: '1',
      LOG_LEVEL: 'warn',
      // The test's window on each replica's live heap (a full collection, then the bytes in use).
      NODE_OPTIONS: '--inspect=127.0.0.1:0',
    });
    const startedAt = [0, 0, 0];
    const start = (i: number) => {
      replicas[i] = startBuilt(env(i));
      startedAt[i] = Date.now();
    };
    [0, 1, 2].forEach(start);
    const [lbPort, statsPort] = [await freePort(), await freePort()];
    lb = startHaproxy({ port: lbPort, statsPort, servers: ports });
    const states = async () => {
      try {
        return await lb!.serverStates();
      } catch {
        return {} as Record<string, string>;
      }
    };
    const waitUp = async (names: string[], what: string) => {
      const until = Date.now() + 60_000;
      for (;;) {
        const now = await states();
        if (names.every((name) => now[name] === 'UP')) return;
        if (Date.now() > until)
          throw new Error(
            `timed out waiting for ${what}: ${JSON.stringify(now)} ${lb!.output().slice(-300)} ${replicas.map((r) => r.output().slice(-300)).join(' | ')}`,
          );
        await sleep(100);
      }
    };
    await waitUp(['g0', 'g1', 'g2'], 'three replicas UP');

    // The load: paced closed-loop workers, each with its own seeded stream of requests.
    const t0 = Date.now();
    const endAt = t0 + SECONDS * 1000;
    const samples: Sample[] = [];
    const requested = new Set<string>();
    const worker = async (w: number) => {
      const random = seeded(SEED * 1000 + w);
      const pick = zipf(INPUTS, random);
      const gap = (WORKERS / PER_SECOND) * 1000;
      for (let next = Date.now(); Date.now() < endAt; next += gap) {
        if (next > Date.now()) await sleep(next - Date.now());
        const fields: Field[] = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, n) => {
          const roll = random();
          const kind: Kind = roll < 0.4 ? 'domain' : roll < 0.75 ? 'user' : 'symbols';
          const inputs =
            kind === 'symbols' ? [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, pick))] : [pick()];
          return { alias: `f${n}`, kind, inputs };
        });
        for (const f of fields)
          for (const i of f.inputs) if (!isFault(i)) requested.add(`${f.kind}:${inputName(f.kind, i)}`);
        const key = keys[Math.floor(random() * KEYS)]!;
        const started = Date.now();
        const sample: Sample = {
          started,
          ended: 0,
          status: 0,
          replica: '',
          problems: [],
          goodErrors: [],
          lookups: fields.reduce((n, f) => n + f.inputs.length, 0),
        };
        try {
          const res = await fetch(`${lb!.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body: JSON.stringify(operationOf(fields)),
          });
          sample.status = res.status;
          sample.replica = res.headers.get('x-replica') ?? '';
          const text = await res.text();
          if (res.status !== 200) sample.problems.push(`HTTP ${res.status}: ${text.slice(0, 200)}`);
          else sample.problems.push(...check(fields, JSON.parse(text) as Body, sample.goodErrors));
        } catch (error) {
          sample.problems.push(`transport: ${String((error as { cause?: unknown }).cause ?? error)}`);
        }
        sample.ended = Date.now();
        samples.push(sample);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    // Each replica's live heap every 5 s: a full collection through its inspector, then the bytes in use.
    const heap: Array<{ replica: number; at: number; bytes: number }> = [];
    const sampling = (async () => {
      while (Date.now() < endAt) {
        for (const [replica, child] of replicas.entries()) {
          const url = debuggerUrlIn(child.output());
          if (!url) continue;
          try {
            heap.push({ replica, at: Date.now(), bytes: await liveHeapBytes(url) });
          } catch {
            // restarting
          }
        }
        await sleep(5000);
      }
    })();

    // When each replica finds Redis unhealthy (it then serves every lookup from the upstream), every 500 ms.
    const redisUnhealthy: number[] = [];
    const watching = (async () => {
      while (Date.now() < endAt) {
        await Promise.all(
          metricsPorts.map(async (port) => {
            try {
              const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as {
                cache?: { healthy?: boolean };
              };
              if (health.cache?.healthy === false) redisUnhealthy.push(Date.now());
            } catch {
              // restarting
            }
          }),
        );
        await sleep(500);
      }
    })();

    // The disruptions.
    const at = (share: number) => sleep(Math.max(0, t0 + share * SECONDS * 1000 - Date.now()));
    const events: Record<string, number> = {};
    const mark = (name: string) => {
      events[name] = Date.now();
    };
    await at(AT.redisKill);
    mark('redisKill');
    await redis.kill();
    await sleep(3000);
    await redis.restart();
    mark('redisBack');
    await at(AT.redisFreeze);
    mark('redisFreeze');
    redis.freeze();
    await sleep(4000);
    redis.thaw();
    mark('redisThaw');
    await at(AT.roll);
    mark('roll');
    replicas[0]!.child.kill('SIGTERM');
    expect(
      await replicas[0]!.exited,
      `the rolled g0 did not stop cleanly; its last output:\n${replicas[0]!.output().slice(-4000)}`,
    ).toBe(0);
    start(0);
    await waitUp(['g0'], 'the rolled g0 UP again');
    mark('rolledBack');
    await at(AT.kill);
    mark('kill');
    replicas[1]!.child.kill('SIGKILL');
    await replicas[1]!.exited;
    await sleep(2000);
    start(1);
    await waitUp(['g1'], 'the killed g1 UP again');
    mark('killedBack');
    await at(AT.slow);
    mark('slow');
    latency = SLOW_MS;
    await at(AT.fast);
    // Slow for a while however late the disruptions before it ran on a busy machine.
    await sleep(Math.max(0, events.slow! + 8000 - Date.now()));
    mark('fast');
    latency = FAST_MS;
    await load;
    await Promise.all([sampling, watching]);
    const rel = (t: number) => Math.round((t - t0) / 100) / 10;

    // 1. No 5xx, no transport failure, except requests in flight when g1 was killed.
    const atKill = (s: Sample) => s.started <= events.kill! && s.ended >= events.kill!;
    const broken = samples.filter((s) => s.status >= 500 || s.status === 0);
    const brokenOutsideKill = broken.filter((s) => !atKill(s));
    // 2. Every answer matches what it asked.
    const mismatched = samples.filter((s) => s.status === 200 && s.problems.length > 0);
    const refused = samples.filter((s) => s.status > 0 && s.status !== 200 && s.status < 500);
    const goodErrorCodes = new Map<string, number>();
    for (const s of samples)
      for (const error of s.goodErrors)
        goodErrorCodes.set(error.split(':')[0]!, (goodErrorCodes.get(error.split(':')[0]!) ?? 0) + 1);

    // 3. Upstream calls for inputs the upstream serves. The bound: one call per input per cache lifetime
    // (Redis's data dies with it once; a financial entry expires after its TTL), plus what no cache could
    // share (calls while Redis was down or frozen, and until the replicas saw it back: a probe every second),
    // plus the lookups whose lease holder died with g1 (called again once its lease ran out).
    const good = calls.filter((c) => !isFault(indexOf(c.key.slice(c.key.indexOf(':') + 1))));
    const outage = (t: number) =>
      (t >= events.redisKill! && t <= events.redisBack! + 2000) ||
      (t >= events.redisFreeze! && t <= events.redisThaw! + 2000) ||
      redisUnhealthy.some((u) => t >= u - 1000 && t <= u + 2000);
    const nearKill = (t: number) => t >= events.kill! - SLOW_MS && t <= events.kill! + LEASE_MS + 2000;
    const byKey = new Map<string, number[]>();
    for (const c of good) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c.at]);
    let expected = 0;
    let duringOutage = 0;
    let atReplicaKill = 0;
    const extra: string[] = [];
    for (const [key, times] of byKey) {
      const ttl = key.startsWith('symbols:') ? TTL_FINANCIAL_MS : Number.POSITIVE_INFINITY;
      let lastCounted: number | undefined;
      let epoch = -1;
      for (const t of times) {
        if (outage(t)) {
          duringOutage += 1;
          continue;
        }
        const callEpoch = t < events.redisKill! ? 0 : 1;
        if (lastCounted === undefined || callEpoch !== epoch || t - lastCounted >= ttl) {
          expected += 1;
          lastCounted = t;
          epoch = callEpoch;
        } else if (nearKill(t)) {
          atReplicaKill += 1;
        } else {
          extra.push(`${key} at ${times.map(rel).join(', ')}`);
        }
      }
    }

    // 4. Live heaps across the steady second half (for a replica started again later, from 10 s after its
    // start): the median in its first and in its last third, per replica.
    const heaps = [0, 1, 2].map((replica) => {
      const steadyFrom = Math.max(t0 + AT.steady * SECONDS * 1000, startedAt[replica]! + 10_000);
      const third = (endAt - steadyFrom) / 3;
      const mine = heap.filter((h) => h.replica === replica && h.at >= steadyFrom);
      const median = (from: number, to: number) =>
        quantile(
          mine.filter((h) => h.at >= from && h.at < to).map((h) => h.bytes),
          0.5,
        );
      const first = median(steadyFrom, steadyFrom + third);
      const last = median(steadyFrom + 2 * third, endAt + 1);
      const mb = (bytes: number) => (Number.isFinite(bytes) ? Math.round(bytes / 1e5) / 10 : null);
      return {
        replica: `g${replica}`,
        samples: mine.length,
        firstThirdMB: mb(first),
        lastThirdMB: mb(last),
        growth: Math.round((last / first - 1) * 1000) / 1000,
        from: rel(steadyFrom),
      };
    });

    const latencies = samples.filter((s) => s.status === 200).map((s) => s.ended - s.started);
    const figures = {
      seconds: SECONDS,
      seed: SEED,
      requests: samples.length,
      lookups: samples.reduce((n, s) => n + s.lookups, 0),
      ok: samples.filter((s) => s.status === 200 && s.problems.length === 0).length,
      http5xxOrTransport: broken.length,
      inFlightAtKill: broken.filter(atKill).length,
      mismatched: mismatched.length,
      refused4xx: refused.length,
      goodInputErrors: Object.fromEntries(goodErrorCodes),
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      distinctGoodInputsAsked: requested.size,
      distinctGoodInputsCalled: byKey.size,
      upstreamCalls: calls.length,
      upstreamCallsGood: good.length,
      goodCallsExpected: expected,
      goodCallsDuringRedisOutage: duringOutage,
      goodCallsAtReplicaKill: atReplicaKill,
      goodCallsExtra: extra.length,
      redisUnhealthyAt: [...new Set(redisUnhealthy.map((t) => Math.floor((t - t0) / 5000) * 5))].join(' '),
      heaps,
      events: Object.fromEntries(Object.entries(events).map(([name, t]) => [name, rel(t)])),
    };
    console.log('soak:', JSON.stringify(figures, null, 1));
    for (const s of [...brokenOutsideKill, ...mismatched, ...refused].slice(0, 10))
      console.log('problem at', rel(s.started), '..', rel(s.ended), s.replica, s.problems.slice(0, 3));
    if (extra.length) console.log('extra upstream calls:', extra.slice(0, 10));
    const goodErrorSamples = samples.filter((s) => s.goodErrors.length > 0);
    if (goodErrorSamples.length)
      console.log(
        'errors on good inputs:',
        goodErrorSamples
          .slice(0, 5)
          .map((s) => `${rel(s.started)}..${rel(s.ended)} ${s.replica} ${s.goodErrors.join('; ')}`),
      );

    expect(brokenOutsideKill).toEqual([]);
    expect(broken.length).toBeLessThanOrEqual(WORKERS);
    expect(mismatched).toEqual([]);
    expect(refused).toEqual([]);
    // Slack for single Redis commands that missed REDIS_COMMAND_TIMEOUT_MS on a busy machine without Redis
    // being marked unhealthy: the gateway calls the upstream rather than wait (by design).
    expect(extra.length).toBeLessThanOrEqual(Math.ceil(0.05 * expected));
    expect(atReplicaKill).toBeLessThanOrEqual(WORKERS * 3 * 4); // lookups in flight at the kill: workers x fields x symbols
    expect(good.length).toBe(expected + duringOutage + atReplicaKill + extra.length);
    expect(byKey.size).toBeLessThanOrEqual(requested.size);
    expect(samples.length).toBeGreaterThan(SECONDS * PER_SECOND * 0.3);
    for (const h of heaps) {
      expect(h.samples).toBeGreaterThanOrEqual(6);
      expect(h.growth).toBeLessThan(0.15);
    }
  });
});
