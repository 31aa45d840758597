import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { ClusterOptions, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { type RedisGuardSettings, RedisGuard, type RedisHealth, WHOLE } from './guard.js';
import { describeRedisTarget, parseRedisUrl, type RedisForm, type RedisTarget } from './url.js';

/** Reads may be served by a replica while their master fails over; writes only by the master. */
export type Access = 'read' | 'write';

/** Keys that one round trip serves: they live on one cluster node (all of them with one Redis), by slot. */
export interface KeyGroup {
  /** The guard's shard: where the keys live, for `access`. */
  shard: string;
  /** Indices into the keys asked for, one list per hash slot: a multi-key command may only span one slot. */
  slots: number[][];
}

/** What /healthz shows about the Redis behind a dependency, beyond whether it answers. */
export interface RedisState extends RedisHealth {
  /** single, cluster or sentinel (REDIS_URL's form). */
  form: RedisForm;
  /** Where it is, without credentials. */
  target: string;
  /** Cluster: the masters and replicas it knows, the hash slots that have a master, and the shards skipped now. */
  cluster?: { masters: number; replicas: number; slotsCovered: number; unreachable: string[] };
  /** Sentinel: the master set's name and the master it is connected to now (host:port), if any. */
  sentinel?: { masterName: string; master: string | null };
}

type Redis = IORedis.Redis;
type Cluster = IORedis.Cluster;
// ioredis and cluster-key-slot (CommonJS) are required with the first connection, so a gateway without
// REDIS_URL never loads them; every other use of them is on a client that connection made.
let Redis: typeof IORedis.Redis;
let Cluster: typeof IORedis.Cluster;
let calculateSlot: (key: string) => number;
function loadIoredis(): void {
  if (Redis) return;
  const require = createRequire(import.meta.url);
  ({ Redis, Cluster } = require('ioredis') as typeof IORedis);
  calculateSlot = require('cluster-key-slot') as (key: string) => number;
}

const SLOTS = 16_384;
/** Candidates for a stand-in key: each lands on another master with odds of two in three (three masters). */
const MAX_STAND_INS = 16;
/** How long after a master stopped taking writes readers still look under stand-in keys. */
const STAND_IN_WINDOW_MS = 60_000;

/**
 * One ioredis client for REDIS_URL's form (a Redis, a Cluster, a Sentinel set), with the bounded waits
 * of the request path (guard.ts). Commands are never queued while disconnected: they fail at
 * once and the caller takes its fallback. A cluster's reads go to a replica of their slot while its
 * master is unreachable (killed, failing over), so a failover costs no miss on what Redis holds.
 */
export class RedisConnection {
  readonly client: Redis | Cluster;
  readonly form: RedisForm;
  private readonly guard: RedisGuard;
  private readonly target: RedisTarget;
  private closing = false;
  /** Slots whose master stopped taking writes lately (cluster), and until when their stand-ins are looked for. */
  private failedSlots: Array<{ slots: Set<number>; until: number }> = [];

  constructor(
    url: string | RedisTarget,
    settings: RedisGuardSettings,
    logger: Logger,
    role: string,
    messages: { down: string; back: string },
  ) {
    this.target = typeof url === 'string' ? targetOf(url) : url;
    this.form = this.target.form;
    this.client = createClient(this.target, settings);
    const client = this.client;
    const masters = () =>
      client instanceof Cluster
        ? [...new Set(client.slots.map((nodes) => nodes?.[0]).filter((node) => node !== undefined))]
        : [];
    this.guard = new RedisGuard(
      client,
      settings,
      logger,
      role,
      messages,
      (shard) => this.probe(shard),
      client instanceof Cluster ? () => masters().map((master) => `write@${master}`) : undefined,
    );
    // ioredis gives up for good when a reconnection is cut short (Sentinel's failover detector closing it
    // mid-attempt ends the client): while this connection is in use, it starts again.
    client.on('end', () => {
      if (this.closing) return;
      const restart = setTimeout(() => {
        if (!this.closing && client.status === 'end') client.connect().catch(() => undefined);
      }, 500);
      restart.unref();
    });
    if (client instanceof Cluster) {
      // A master stops taking writes: its slots are remembered for a while, so that once its replica is
      // promoted, readers still look under the stand-in keys written meanwhile (until those are written back).
      this.guard.onSkip((shard) => {
        if (!shard.startsWith('write@')) return;
        const master = shard.slice('write@'.length);
        const slots = new Set<number>();
        client.slots.forEach((nodes, slot) => {
          if (nodes?.[0] === master) slots.add(slot);
        });
        this.failedSlots.push({ slots, until: Date.now() + STAND_IN_WINDOW_MS });
      });
      // The slot map changed: a skipped master may have been replaced by its promoted replica.
      client.on('refresh', () => this.guard.probeNow());
      // A master's connection ended (killed, unreachable): its writes are skipped from now on, in every
      // process at once, without waiting for commands to time out; its reads go to its replica.
      client.on('-node', (node: Redis) => {
        // Connecting, ioredis replaces its first connections: those are no failure.
        if (client.status !== 'ready') return;
        const key = `${node.options.host}:${node.options.port}`;
        // ioredis also drops a connection it replaces with a fresh one (a stale MOVED): the node is still there.
        const replaced = client
          .nodes('all')
          .some((other) => other !== node && `${other.options.host}:${other.options.port}` === key);
        if (!replaced && client.slots.some((nodes) => nodes?.[0] === key))
          this.guard.skip(`write@${key}`, `cluster master ${key} disconnected`);
      });
    }
  }

  /** Runs `command` for keys of `shard` (see shardOf) within the bounded wait; `fallback` otherwise. */
  run<T>(shard: string, command: () => Promise<T>, fallback: T): Promise<T> {
    return this.guard.run(shard, command, fallback);
  }

  /** Where `key` lives for `access`: the guard skips a shard that stopped answering, not the whole cluster. */
  shardOf(key: string, access: Access): string {
    if (!(this.client instanceof Cluster)) return WHOLE;
    return `${access}@${this.client.slots[calculateSlot(key)]?.[0] ?? 'unmapped'}`;
  }

  /** Whether commands for `key` are sent now. */
  answers(key: string, access: Access): boolean {
    return this.guard.answers(this.shardOf(key, access));
  }

  /**
   * While the cluster shard holding `key` takes no writes (its master killed and its replica not yet
   * promoted), the key to keep its entry and lease under instead: the first of `key:stand-in:<n>` on
   * another master, the same in every process that shares the slot map. Undefined otherwise, and always
   * for one Redis or a Sentinel set (one master: nowhere else to go).
   */
  standInFor(key: string): string | undefined {
    if (!(this.client instanceof Cluster) || this.guard.answers(this.shardOf(key, 'write'))) return undefined;
    return this.candidateFor(key);
  }

  /**
   * Where a reader also looks for `key` after missing it: its stand-in while its shard takes no writes,
   * and for a while after (its replica promoted, what was kept there not yet written back).
   */
  standInToRead(key: string): string | undefined {
    if (!(this.client instanceof Cluster)) return undefined;
    const now = Date.now();
    this.failedSlots = this.failedSlots.filter((failed) => failed.until > now);
    const slot = calculateSlot(key);
    if (this.guard.answers(this.shardOf(key, 'write')) && !this.failedSlots.some((failed) => failed.slots.has(slot)))
      return undefined;
    return this.candidateFor(key);
  }

  /**
   * The first `key:stand-in:<n>` on another master than `key`'s: the same before and after a failover
   * (all the failed master's slots move to one replica) and in every process sharing the slot map.
   */
  private candidateFor(key: string): string | undefined {
    const shard = this.shardOf(key, 'write');
    for (let n = 1; n <= MAX_STAND_INS; n += 1) {
      const candidate = `${key}:stand-in:${n}`;
      if (this.shardOf(candidate, 'write') !== shard) return candidate;
    }
    return undefined;
  }

  /**
   * The keys by node and, within a node, by slot: one round trip per node, one multi-key command per
   * slot. With one Redis (or a Sentinel set's master) all keys are one group of one "slot".
   */
  groups(keys: readonly string[], access: Access): KeyGroup[] {
    const client = this.client;
    if (!(client instanceof Cluster)) return [{ shard: WHOLE, slots: [keys.map((_, index) => index)] }];
    const groups = new Map<string, { shard: string; bySlot: Map<number, number[]> }>();
    keys.forEach((key, index) => {
      const slot = calculateSlot(key);
      const nodes = client.slots[slot];
      // ioredis sends a pipeline to one node and checks its keys share a slot group (the same master and replicas).
      const id = nodes?.join(';') ?? '';
      let group = groups.get(id);
      if (!group) {
        group = { shard: `${access}@${nodes?.[0] ?? 'unmapped'}`, bySlot: new Map() };
        groups.set(id, group);
      }
      const inSlot = group.bySlot.get(slot);
      if (inSlot) inSlot.push(index);
      else group.bySlot.set(slot, [index]);
    });
    return [...groups.values()].map(({ shard, bySlot }) => ({ shard, slots: [...bySlot.values()] }));
  }

  healthy(): boolean {
    return this.guard.healthy();
  }

  /** Called when Redis, or one of its shards, answers again. */
  onBack(listener: () => void): void {
    this.guard.onBack(listener);
  }

  health(): RedisState {
    const state: RedisState = { ...this.guard.health(), form: this.form, target: describeRedisTarget(this.target) };
    const client = this.client;
    if (client instanceof Cluster) {
      const masters = new Set<string>();
      const replicas = new Set<string>();
      let slotsCovered = 0;
      for (let slot = 0; slot < SLOTS; slot += 1) {
        const nodes = client.slots[slot];
        if (!nodes?.[0]) continue;
        slotsCovered += 1;
        masters.add(nodes[0]);
        for (const replica of nodes.slice(1)) replicas.add(replica);
      }
      state.cluster = {
        masters: masters.size,
        replicas: replicas.size,
        slotsCovered,
        unreachable: this.guard.skipped(),
      };
    } else if (this.target.form === 'sentinel') {
      const stream = client.status === 'ready' ? client.stream : undefined;
      state.sentinel = {
        masterName: this.target.masterName,
        master: stream?.remoteAddress ? `${stream.remoteAddress}:${stream.remotePort}` : null,
      };
    }
    return state;
  }

  /**
   * Resolves once connected (a cluster: and its nodes, which connect once it is ready), or after
   * `timeoutMs` (callers work either way).
   */
  async ready(timeoutMs = 1000): Promise<void> {
    const client = this.client;
    const deadline = Date.now() + timeoutMs;
    if (client.status !== 'ready') await untilEvent(client, ['ready'], timeoutMs);
    if (client instanceof Cluster && client.status === 'ready') {
      // Each node connected, or given up ('end').
      const pending = client.nodes('all').filter((node) => node.status !== 'ready' && node.status !== 'end');
      await Promise.all(pending.map((node) => untilEvent(node, ['ready', 'end'], deadline - Date.now())));
    }
  }

  /** A second connection to the same Redis, for a subscription (which takes a connection for itself). */
  subscriber(): Redis | Cluster {
    const client = this.client;
    const subscriber =
      client instanceof Cluster
        ? client.duplicate(undefined, { enableOfflineQueue: true })
        : client.duplicate({ enableOfflineQueue: true });
    subscriber.on('error', () => undefined); // its state shows through the main connection
    return subscriber;
  }

  close(): void {
    this.closing = true;
    this.guard.close();
    this.client.disconnect();
  }

  /** A skipped shard answers again: its master answers a PING (the whole connection for one Redis). */
  private async probe(shard: string): Promise<boolean | 'gone'> {
    const client = this.client;
    if (!(client instanceof Cluster)) {
      await client.ping();
      return true;
    }
    const master = shard.slice(shard.indexOf('@') + 1);
    if (!client.slots.some((nodes) => nodes?.[0] === master)) return 'gone';
    const node = client.nodes('master').find((redis) => `${redis.options.host}:${redis.options.port}` === master);
    if (!node) return false;
    await node.ping();
    return true;
  }
}

function targetOf(url: string): RedisTarget {
  const parsed = parseRedisUrl(url);
  // Settings are validated at start-up (src/cache/settings.ts): a bad URL here is a programming error.
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.target;
}

/** ioredis's own clients, set never to queue a command and to give up on one at once when disconnected. */
function createClient(target: RedisTarget, settings: RedisGuardSettings): Redis | Cluster {
  loadIoredis();
  const common: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: Math.max(settings.commandTimeoutMs, 200),
    // Reconnects soon after a restart or a failover (each attempt is one connect, cheap).
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  };
  if (target.form === 'single') return new Redis(target.url, common);
  const credentials = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
  };
  if (target.form === 'sentinel') {
    return new Redis({
      ...common,
      ...credentials,
      sentinels: target.sentinels,
      name: target.masterName,
      ...(target.sentinelUsername ? { sentinelUsername: target.sentinelUsername } : {}),
      ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
      ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
      sentinelRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      sentinelCommandTimeout: 1000,
      // Sentinels announce a failover (+switch-master): the client moves to the new master at once.
      failoverDetector: true,
      // Still connected to a master that was demoted (it was frozen, not dead): writes are refused, so reconnect through the sentinels.
      reconnectOnError: (error) => error.message.startsWith('READONLY'),
    });
  }
  const { enableOfflineQueue: _queue, retryStrategy: _retry, ...nodeOptions } = common;
  const options: ClusterOptions = {
    enableOfflineQueue: false,
    enableReadyCheck: true,
    scaleReads: readFromLiveNode,
    // The slot map follows a failover within a probe interval even while no command is sent to the moved slots.
    slotsRefreshInterval: Math.max(settings.probeIntervalMs, 500),
    slotsRefreshTimeout: 1000,
    clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    redisOptions: { ...nodeOptions, ...credentials, ...(target.tls ? { tls: {} } : {}) },
  };
  const cluster = new Cluster(target.nodes, options);
  // Every node connected as soon as it is known, not on its first command: a first command must not
  // spend its bounded wait connecting, and a replica is ready to serve reads when its master dies.
  // Not before the client is ready, though: once it has the slot map, ioredis checks the cluster
  // (CLUSTER INFO) on any node of its pool, and without an offline queue it refuses to send that to a
  // node still connecting ("Connection is closed."): the check fails, and the client drops every
  // connection ('close') and starts again. A node left waiting connects for that one command instead.
  const connect = (node: Redis) => {
    if (node.status === 'wait') node.connect().catch(() => undefined);
  };
  cluster.on('+node', (node: Redis) => {
    if (cluster.status === 'ready') connect(node);
  });
  cluster.on('ready', () => {
    for (const node of cluster.nodes('all')) connect(node);
  });
  return cluster;
}

/** Resolves at the first of `events` from `emitter`, or after `timeoutMs`. */
function untilEvent(emitter: Redis | Cluster, events: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const event of events) emitter.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(timeoutMs, 0));
    for (const event of events) emitter.once(event, done);
  });
}

const LIVE = new Set(['ready', 'wait', 'connect', 'connecting']);

/**
 * scaleReads for the cache: a read goes to its slot's master while that connection is up, else to one
 * of the slot's replicas (ioredis sends READONLY to those), so reads keep answering while the master is
 * killed and its replica promoted.
 */
function readFromLiveNode(nodes: Array<Redis | undefined>): Redis | Redis[] | undefined {
  const [master, ...replicas] = nodes;
  if (master && master.status === 'ready') return master;
  const live = replicas.filter((node): node is Redis => node !== undefined && LIVE.has(node.status));
  return live.length > 0 ? live : master;
}
