import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import calculateSlot from 'cluster-key-slot';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { hasRedisServer, startOwnRedis, type OwnRedis } from './own-redis.js';
import { freePort } from './processes.js';

/**
 * The three forms REDIS_URL takes, each on servers of the test's own (free loopback ports, ended by
 * pid): one redis-server; a six-node Redis Cluster (three masters, three replicas); a master, a
 * replica and a Sentinel. Tests that run against Redis run against each (`describe.each(REDIS_FORMS)`
 * with `topologyFor(form)`), started once per file and form.
 */

export type RedisForm = 'single' | 'cluster' | 'sentinel';
export const REDIS_FORMS: readonly RedisForm[] = ['single', 'cluster', 'sentinel'];

export interface RedisTopology {
  form: RedisForm;
  /** REDIS_URL for a gateway. */
  url: string;
  /** The redis-server data nodes (not the sentinel), masters and replicas. */
  nodes: OwnRedis[];
  /** A client of the topology's own kind, to read and write what gateways store. */
  client: Redis | Cluster;
  /** A plain connection to one node (INFO, ROLE), kept for the file. */
  direct(node: OwnRedis): Redis;
  /** The nodes that are masters now. */
  masters(): Promise<OwnRedis[]>;
  /** Calls per command on the masters since the last `resetStats` (replicas count what they replicate too): summed, and node by node. */
  commandCalls(): Promise<{ total: Record<string, number>; byNode: Map<OwnRedis, Record<string, number>> }>;
  resetStats(): Promise<void>;
  /**
   * SIGKILLs a master (a cluster master holding `key` if given) and resolves once its replica has
   * been promoted and serves: how long that took.
   */
  killMaster(
    key?: string,
  ): Promise<{ killed: OwnRedis; promoted: OwnRedis; killedAt: number; promotedAfterMs: number }>;
  close(): Promise<void>;
}

/** Whether redis-server is installed; in CI its absence is a failure, elsewhere these tests are skipped. */
export async function redisServersAvailable(): Promise<boolean> {
  const can = await hasRedisServer();
  if (!can && process.env.CI === 'true')
    throw new Error('CI=true but redis-server is not installed: the Redis topology tests cannot run');
  return can;
}

/**
 * The forms asked for by this file's topologyFor calls, started together by the first block that runs:
 * a cluster takes ~10 s to form and a Sentinel set ~5 s, mostly waiting on gossip, so together they take
 * as long as the cluster alone. The first block waits for all of them, so that no test runs beside a
 * topology still forming (six servers and redis-cli at work, enough to make a busy machine miss a
 * command's deadline).
 */
const wanted = new Map<RedisForm, Promise<RedisTopology> | undefined>();

// Registered on the importing file's root suite (this module is loaded while the file is collected): a
// topology started early for a block that then did not run (a filtered run) is ended with the file.
afterAll(async () => {
  const unclaimed = [...wanted.values()];
  wanted.clear();
  await Promise.all(unclaimed.map(async (started) => (await started?.catch(() => undefined))?.close()));
});

/** The topology of `form` for the enclosing describe block: started in its beforeAll (or already, see `wanted`), ended in its afterAll. */
export function topologyFor(form: RedisForm): { readonly topology: RedisTopology } {
  let topology: RedisTopology | undefined;
  if (!wanted.has(form)) wanted.set(form, undefined);
  beforeAll(async () => {
    for (const [other, started] of wanted) {
      if (started) continue;
      const starting = startTopology(other);
      // A start that fails is reported by its own block's beforeAll, not as an unhandled rejection here.
      starting.catch(() => undefined);
      wanted.set(other, starting);
    }
    await Promise.all([...wanted.values()].map((started) => started?.catch(() => undefined)));
    topology = await wanted.get(form)!;
  }, 60_000);
  afterAll(async () => {
    wanted.delete(form);
    await topology?.close();
  });
  return {
    get topology() {
      return topology!;
    },
  };
}

export function startTopology(form: RedisForm): Promise<RedisTopology> {
  if (form === 'cluster') return startCluster();
  if (form === 'sentinel') return startSentinel();
  return startSingle();
}

/** Calls per command from INFO commandstats. */
async function commandStats(client: Redis): Promise<Record<string, number>> {
  const info = await client.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) calls[match[1]!] = Number(match[2]);
  return calls;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if (process.env.DEBUG_TOPOLOGY) console.log(what, error);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The parts every topology shares: direct clients, stats over live nodes, closing. */
function topologyOf(
  form: RedisForm,
  url: string,
  nodes: OwnRedis[],
  client: Redis | Cluster,
  extra: { masters: () => Promise<OwnRedis[]>; killMaster: RedisTopology['killMaster']; close?: () => Promise<void> },
): RedisTopology {
  const directs = new Map<OwnRedis, Redis>();
  const direct = (node: OwnRedis) => {
    let redis = directs.get(node);
    if (!redis) {
      // Reconnects: Sentinel closes the clients of the replica it promotes.
      redis = new Redis(node.url, { maxRetriesPerRequest: 1, retryStrategy: (attempt) => (attempt > 50 ? null : 100) });
      redis.on('error', () => undefined);
      directs.set(node, redis);
    }
    return redis;
  };
  const live = () => nodes.filter((node) => node.alive());
  return {
    form,
    url,
    nodes,
    client,
    direct,
    masters: extra.masters,
    killMaster: extra.killMaster,
    async commandCalls() {
      const total: Record<string, number> = {};
      const byNode = new Map<OwnRedis, Record<string, number>>();
      for (const node of await extra.masters()) {
        const calls = await commandStats(direct(node));
        byNode.set(node, calls);
        for (const [name, count] of Object.entries(calls)) total[name] = (total[name] ?? 0) + count;
      }
      return { total, byNode };
    },
    async resetStats() {
      await Promise.all(live().map((node) => direct(node).config('RESETSTAT')));
    },
    async close() {
      client.disconnect();
      for (const redis of directs.values()) redis.disconnect();
      await extra.close?.();
      await Promise.all(nodes.map((node) => node.close()));
    },
  };
}

async function roleOf(redis: Redis): Promise<string> {
  return /^role:(\w+)/m.exec(await redis.info('replication'))?.[1] ?? 'unknown';
}

async function startSingle(): Promise<RedisTopology> {
  const node = await startOwnRedis();
  const client = new Redis(node.url);
  return topologyOf('single', node.url, [node], client, {
    masters: async () => [node],
    killMaster: () => Promise.reject(new Error('one Redis has no replica to promote')),
  });
}

/** Six cluster nodes; `redis-cli --cluster create` makes three masters with one replica each. */
async function startCluster(): Promise<RedisTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'lg-cluster-'));
  const nodes = await Promise.all(
    Array.from({ length: 6 }, async (_, index) => {
      // The cluster bus needs a port of its own: a free one, not port + 10000 (beyond 65535 for high ports).
      const busPort = await freePort();
      return startOwnRedis([
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${index}.conf`),
        '--cluster-port',
        String(busPort),
        // Two seconds: a loaded test machine must not make nodes think each other failed.
        '--cluster-node-timeout',
        '2000',
        // A replica always stands in for its master, however long since it last heard from it.
        '--cluster-replica-validity-factor',
        '0',
        // Only a failed master's slots stop while its replica is promoted, not the whole cluster; its
        // reads go on from the replica (what docs/caching.md recommends).
        '--cluster-require-full-coverage',
        'no',
        '--cluster-allow-reads-when-down',
        'yes',
      ]);
    }),
  );
  const created = spawnSync(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...nodes.map((node) => `127.0.0.1:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  if (created.status !== 0) {
    await Promise.all(nodes.map((node) => node.close()));
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
  }
  const client = new Cluster(nodes.slice(0, 3).map((node) => ({ host: node.host, port: node.port })));
  client.on('error', () => undefined);
  const topology = topologyOf(
    'cluster',
    `redis-cluster://${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}`,
    nodes,
    client,
    {
      masters: async () => {
        const masters: OwnRedis[] = [];
        for (const node of nodes)
          if (node.alive() && (await roleOf(topology.direct(node))) === 'master') masters.push(node);
        return masters;
      },
      killMaster: async (key) => {
        const masters = await topology.masters();
        // The master of the key's slot, as the cluster says now.
        const owner = key === undefined ? undefined : client.slots[calculateSlot(key)]?.[0];
        const victim = masters.find((master) => `${master.host}:${master.port}` === owner) ?? masters[0]!;
        const replica = await replicaOf(topology, victim);
        const killedAt = Date.now();
        await victim.kill();
        await until(async () => (await roleOf(topology.direct(replica))) === 'master', 30_000, 'the replica promoted');
        const survivor = nodes.find((node) => node.alive())!;
        await until(
          async () => /cluster_state:ok/.test((await topology.direct(survivor).cluster('INFO')) as string),
          30_000,
          'cluster_state:ok',
        );
        return { killed: victim, promoted: replica, killedAt, promotedAfterMs: Date.now() - killedAt };
      },
      close: async () => {
        rmSync(dir, { recursive: true, force: true });
      },
    },
  );
  await until(
    async () => {
      for (const node of nodes) {
        const info = (await topology.direct(node).cluster('INFO')) as string;
        if (!/cluster_state:ok/.test(info) || !/cluster_known_nodes:6/.test(info)) return false;
        const replication = await topology.direct(node).info('replication');
        if (/role:slave/.test(replication) && !/master_link_status:up/.test(replication)) return false;
        // A node lists a replica in CLUSTER SLOTS only once gossip has brought its replication offset, a
        // second or two after the link is up; until then a client learns of no replicas at all.
        const slots = (await topology.direct(node).cluster('SLOTS')) as unknown[][];
        if (slots.some((range) => range.length < 4)) return false;
      }
      return (await topology.masters()).length === 3;
    },
    30_000,
    'the cluster (three masters, three synced replicas)',
  );
  await until(async () => (await client.ping()) === 'PONG', 10_000, 'the test client on the cluster');
  return topology;
}

/** The node that replicates `master`. */
async function replicaOf(topology: RedisTopology, master: OwnRedis): Promise<OwnRedis> {
  for (const node of topology.nodes) {
    if (node === master || !node.alive()) continue;
    const replication = await topology.direct(node).info('replication');
    if (new RegExp(`^master_port:${master.port}\\r?$`, 'm').test(replication)) return node;
  }
  throw new Error(`no replica of 127.0.0.1:${master.port}`);
}

const MASTER_NAME = 'lookup-graph';

/** A master, its replica, and one Sentinel watching them (quorum 1, down after 1 s). */
async function startSentinel(): Promise<RedisTopology> {
  const dir = mkdtempSync(join(tmpdir(), 'lg-sentinel-'));
  const master = await startOwnRedis();
  const replica = await startOwnRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  const config = join(dir, 'sentinel.conf');
  writeFileSync(
    config,
    [
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master.port} 1`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      `sentinel failover-timeout ${MASTER_NAME} 5000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  const sentinel = await startOwnRedis([], { sentinel: config });
  const nodes = [master, replica];
  const url = `redis-sentinel://127.0.0.1:${sentinel.port}/${MASTER_NAME}`;
  const client = new Redis({ sentinels: [{ host: '127.0.0.1', port: sentinel.port }], name: MASTER_NAME });
  client.on('error', () => undefined);
  const sentinelClient = new Redis(sentinel.url);
  const topology = topologyOf('sentinel', url, nodes, client, {
    masters: async () => {
      const masters: OwnRedis[] = [];
      for (const node of nodes)
        if (node.alive() && (await roleOf(topology.direct(node))) === 'master') masters.push(node);
      return masters;
    },
    killMaster: async () => {
      const [victim] = await topology.masters();
      const promoted = nodes.find((node) => node !== victim)!;
      const killedAt = Date.now();
      await victim!.kill();
      await until(
        async () => {
          const [, port] = (await sentinelClient.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME)) as [
            string,
            string,
          ];
          return Number(port) === promoted.port && (await roleOf(topology.direct(promoted))) === 'master';
        },
        30_000,
        'Sentinel to promote the replica',
      );
      return { killed: victim!, promoted, killedAt, promotedAfterMs: Date.now() - killedAt };
    },
    close: async () => {
      sentinelClient.disconnect();
      await sentinel.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
  await until(
    async () => {
      const replication = await topology.direct(replica).info('replication');
      const replicas = (await sentinelClient.call('SENTINEL', 'replicas', MASTER_NAME)) as unknown[];
      return /master_link_status:up/.test(replication) && replicas.length === 1;
    },
    30_000,
    'the replica in sync and known to Sentinel',
  );
  await until(async () => (await client.ping()) === 'PONG', 10_000, 'the test client through Sentinel');
  return topology;
}
