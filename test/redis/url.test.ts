import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { describeRedisTarget, parseRedisUrl, type RedisTarget } from '../../src/redis/url.js';

const target = (url: string) => {
  const parsed = parseRedisUrl(url);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.target;
};
const problem = (url: string) => {
  const parsed = parseRedisUrl(url);
  return 'problem' in parsed ? parsed.problem : null;
};

describe('REDIS_URL forms', () => {
  it('one server: redis:// and rediss:// go to ioredis as they are', () => {
    expect(target('redis://127.0.0.1:6379')).toEqual({ form: 'single', url: 'redis://127.0.0.1:6379' });
    expect(target('rediss://user:secret@cache.example:6380/2')).toEqual({
      form: 'single',
      url: 'rediss://user:secret@cache.example:6380/2',
    });
  });

  // Each form: the URL and the target it gives ioredis, plain (defaults filled in), then with TLS and credentials.
  const forms: Array<{ title: string; urls: Array<[string, RedisTarget]> }> = [
    {
      title:
        'redis-cluster://: seed nodes (port 6379 when left out), credentials for every node, TLS with rediss-cluster://',
      urls: [
        [
          'redis-cluster://10.0.0.1:7000,10.0.0.2:7001,node-3.internal',
          {
            form: 'cluster',
            nodes: [
              { host: '10.0.0.1', port: 7000 },
              { host: '10.0.0.2', port: 7001 },
              { host: 'node-3.internal', port: 6379 },
            ],
            tls: false,
          },
        ],
        [
          'rediss-cluster://app:p%40ss@[::1]:7000/',
          { form: 'cluster', nodes: [{ host: '::1', port: 7000 }], tls: true, username: 'app', password: 'p@ss' },
        ],
      ],
    },
    {
      title:
        'redis-sentinel://: sentinels (port 26379 when left out) and the master set name; sentinel credentials as parameters',
      urls: [
        [
          'redis-sentinel://s1:26380,s2/mymaster',
          {
            form: 'sentinel',
            sentinels: [
              { host: 's1', port: 26380 },
              { host: 's2', port: 26379 },
            ],
            masterName: 'mymaster',
            tls: false,
          },
        ],
        [
          'rediss-sentinel://:data-pass@s1:26379/cache?sentinelUsername=watch&sentinelPassword=s3cret',
          {
            form: 'sentinel',
            sentinels: [{ host: 's1', port: 26379 }],
            masterName: 'cache',
            tls: true,
            password: 'data-pass',
            sentinelUsername: 'watch',
            sentinelPassword: 's3cret',
          },
        ],
      ],
    },
  ];
  it.each(forms)('$title', ({ urls }) => {
    for (const [url, expected] of urls) expect(target(url), url).toEqual(expected);
  });

  it('refuses what it cannot connect to, naming REDIS_URL and never quoting a password', () => {
    const cases: Array<[string, RegExp]> = [
      ['http://cache:6379', /must start with redis:\/\/, rediss:\/\/, redis-cluster:\/\//],
      ['redis-cluster://', /"" is not a host:port/],
      ['redis-cluster://a:7000,,b:7001', /"" is not a host:port/],
      ['redis-cluster://a:99999', /"a:99999" is not a host:port/],
      ['redis-cluster://a:7000/0', /a cluster URL has no path/],
      ['redis-cluster://a:7000?tls=true', /takes no query parameters/],
      ['redis-sentinel://s1:26379', /names its master after the hosts/],
      ['redis-sentinel://s1:26379/', /names its master after the hosts/],
      ['redis-sentinel://s1:26379/a/b', /names its master after the hosts/],
      ['redis-sentinel://s1:26379/m?password=x', /unknown parameter "password"/],
      ['redis-sentinel://bad host:1/m', /"bad host:1" is not a host:port/],
      ['redis://', /not a valid URL|has no host/],
    ];
    for (const [url, message] of cases) {
      const found = problem(url);
      expect(found, url).toMatch(/^REDIS_URL/);
      expect(found, url).toMatch(message);
    }
    expect(problem('redis-cluster://app:hunter2@a:7000/x')).not.toContain('hunter2');
    expect(problem('redis-sentinel://s1/m?sentinelPassword=hunter2&x=1')).not.toContain('hunter2');
    expect(problem('ftp://app:hunter2@cache')).not.toContain('hunter2');
  });

  it('describes a target for logs and /healthz without its credentials', () => {
    expect(describeRedisTarget(target('rediss-cluster://app:secret@a:7000,b:7001'))).toBe(
      'rediss-cluster://a:7000,b:7001',
    );
    expect(describeRedisTarget(target('redis-sentinel://:secret@s1:26379/cache?sentinelPassword=x'))).toBe(
      'redis-sentinel://s1:26379/cache',
    );
    expect(describeRedisTarget(target('redis://user:secret@cache:6379'))).toBe('redis://user:***@cache:6379');
  });

  it('a bad REDIS_URL stops the gateway at start-up with a configuration error that names it', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis-sentinel://s1:26379' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: 'redis-sentinel://s1:26379' })).toThrow(
      /REDIS_URL: a sentinel URL names its master/,
    );
    expect(loadConfig({ REDIS_URL: 'redis-cluster://a:7000,b:7001' }).cache.redisUrl).toBe(
      'redis-cluster://a:7000,b:7001',
    );
  });
});

describe('in-process tier', () => {
  it('trusts an entry Redis confirmed for 2 s, and buffers at most 10000 writes', () => {
    expect(loadConfig({}).cache.tier).toEqual({ localTtlMs: 2000, writeBehindMax: 10_000 });
  });
});
