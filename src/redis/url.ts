/**
 * REDIS_URL's three forms. ioredis parses `redis://` URLs itself but has no URL for a Cluster or a
 * Sentinel set, so those two are parsed here (the forms Apollo Router accepts for its shared caches).
 *
 *   redis://[user:password@]host[:port][/db]                        one server (rediss:// for TLS)
 *   redis-cluster://[user:password@]host:port[,host:port…]          seed nodes of a Redis Cluster
 *   redis-sentinel://[user:password@]host:port[,host:port…]/<master-name>[?sentinelUsername=…&sentinelPassword=…]
 *
 * `rediss-cluster://` and `rediss-sentinel://` connect with TLS (to the sentinels too).
 */

interface RedisNodeAddress {
  host: string;
  port: number;
}

export type RedisTarget =
  | { form: 'single'; url: string }
  | { form: 'cluster'; nodes: RedisNodeAddress[]; tls: boolean; username?: string; password?: string }
  | {
      form: 'sentinel';
      sentinels: RedisNodeAddress[];
      masterName: string;
      tls: boolean;
      username?: string;
      password?: string;
      sentinelUsername?: string;
      sentinelPassword?: string;
    };

export type RedisForm = RedisTarget['form'];

const MULTI_HOST = /^(rediss?)-(cluster|sentinel):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/;
const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const SENTINEL_QUERY = new Set(['sentinelUsername', 'sentinelPassword']);

/** The target REDIS_URL names, or the problem with it (a sentence naming REDIS_URL, never its password). */
export function parseRedisUrl(raw: string): { target: RedisTarget } | { problem: string } {
  const value = raw.trim();
  if (/^rediss?:\/\//.test(value)) {
    try {
      const url = new URL(value);
      if (!url.hostname) return { problem: `REDIS_URL has no host: "${redacted(value)}"` };
    } catch {
      return { problem: `REDIS_URL is not a valid URL: "${redacted(value)}"` };
    }
    return { target: { form: 'single', url: value } };
  }
  const match = MULTI_HOST.exec(value);
  if (!match) {
    return {
      problem: `REDIS_URL must start with redis://, rediss://, redis-cluster://, rediss-cluster://, redis-sentinel:// or rediss-sentinel://, got "${redacted(value)}"`,
    };
  }
  const [, scheme, kind, userinfo, hostList, path = '', query = ''] = match;
  const form = kind as 'cluster' | 'sentinel';
  const shape =
    form === 'cluster'
      ? `${scheme}-cluster://host:port[,host:port…]`
      : `${scheme}-sentinel://host:port[,host:port…]/<master-name>`;
  const credentials = parseUserinfo(userinfo);
  if ('problem' in credentials) return credentials;
  const nodes: RedisNodeAddress[] = [];
  for (const entry of hostList!.split(',')) {
    const node = parseHostPort(entry.trim(), form === 'cluster' ? 6379 : 26379);
    if (!node)
      return { problem: `REDIS_URL: "${entry.trim()}" is not a host:port (${shape}), in "${redacted(value)}"` };
    nodes.push(node);
  }
  const tls = scheme === 'rediss';
  if (form === 'cluster') {
    if (path !== '' && path !== '/')
      return { problem: `REDIS_URL: a cluster URL has no path (${shape}), got "${redacted(value)}"` };
    if (query) return { problem: `REDIS_URL: a cluster URL takes no query parameters, got "${redacted(value)}"` };
    return { target: { form, nodes, tls, ...credentials.credentials } };
  }
  const masterName = decodeURIComponent(path.replace(/^\//, ''));
  if (!masterName || masterName.includes('/')) {
    return {
      problem: `REDIS_URL: a sentinel URL names its master after the hosts (${shape}), got "${redacted(value)}"`,
    };
  }
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  for (const name of params.keys()) {
    if (!SENTINEL_QUERY.has(name))
      return {
        problem: `REDIS_URL: unknown parameter "${name}" (a sentinel URL takes sentinelUsername and sentinelPassword)`,
      };
  }
  const sentinelUsername = params.get('sentinelUsername') || undefined;
  const sentinelPassword = params.get('sentinelPassword') || undefined;
  return {
    target: {
      form,
      sentinels: nodes,
      masterName,
      tls,
      ...credentials.credentials,
      ...(sentinelUsername ? { sentinelUsername } : {}),
      ...(sentinelPassword ? { sentinelPassword } : {}),
    },
  };
}

/** Where the target is, for logs and /healthz: hosts and master name, never credentials. */
export function describeRedisTarget(target: RedisTarget): string {
  if (target.form === 'single') return redacted(target.url);
  const hosts = (target.form === 'cluster' ? target.nodes : target.sentinels).map(
    ({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`,
  );
  const scheme = `${target.tls ? 'rediss' : 'redis'}-${target.form}`;
  return target.form === 'cluster'
    ? `${scheme}://${hosts.join(',')}`
    : `${scheme}://${hosts.join(',')}/${target.masterName}`;
}

function parseUserinfo(
  userinfo: string | undefined,
): { credentials: { username?: string; password?: string } } | { problem: string } {
  if (!userinfo) return { credentials: {} };
  try {
    const colon = userinfo.indexOf(':');
    const username = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
    const password = colon < 0 ? '' : decodeURIComponent(userinfo.slice(colon + 1));
    return { credentials: { ...(username ? { username } : {}), ...(password ? { password } : {}) } };
  } catch {
    return { problem: 'REDIS_URL: the user name or password is not valid percent-encoding' };
  }
}

function parseHostPort(entry: string, defaultPort: number): RedisNodeAddress | null {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d+))?$/.exec(entry);
  const plain = bracketed ? null : /^([^:]+)(?::(\d+))?$/.exec(entry);
  const host = bracketed?.[1] ?? plain?.[1];
  const portText = bracketed?.[2] ?? plain?.[2];
  if (!host || (!bracketed && !HOST_NAME.test(host))) return null;
  const port = portText === undefined ? defaultPort : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return null;
  return { host, port };
}

/** The URL with any password replaced, so that a problem message can quote it. */
function redacted(value: string): string {
  return value
    .replace(
      /^([a-z-]+:\/\/)([^@/?#]*)@/i,
      (_all, scheme: string, userinfo: string) =>
        `${scheme}${userinfo.includes(':') ? `${userinfo.split(':')[0]}:***` : userinfo}@`,
    )
    .replace(/(sentinelPassword=)[^&#]*/g, '$1***');
}

/**
 * REDIS_KEY_PREFIX: the start of every key of the rate-limit counters (`<prefix>rate:`), quota counters
 * (`<prefix>quota:`) and persisted queries (`<prefix>apq:`), so two deployments can share one Redis.
 */
export function redisKeyPrefix(
  read: { string(name: string): string | undefined },
  part: 'rate' | 'quota' | 'apq',
): string {
  return `${read.string('REDIS_KEY_PREFIX') ?? 'lookup-graph:'}${part}:`;
}
