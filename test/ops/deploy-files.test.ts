/**
 * The Docker and compose files cannot be built here (no Docker daemon): this checks that every command
 * and file they name is one this repository has and CI exercises, and that HAProxy accepts its config.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { RedisQuotaCounter } from '../../src/quota/redis-counter.js';
import { windowAt } from '../../src/quota/window.js';
import { hasRedisServer, startOwnRedis } from '../support/own-redis.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/**
 * Whether .dockerignore keeps `path` out of the build context: the last pattern that matches wins, `!` re-includes.
 * Patterns here are names, folders (`test` covers everything under it) and a folder's children (`deploy/*`).
 */
function dockerIgnores(path: string): boolean {
  let ignored = false;
  for (const line of read('.dockerignore').split('\n')) {
    const pattern = line.trim();
    if (!pattern || pattern.startsWith('#')) continue;
    const negated = pattern.startsWith('!');
    const body = negated ? pattern.slice(1) : pattern;
    const prefix = body.endsWith('/*') ? body.slice(0, -1) : `${body}/`;
    const glob = new RegExp(`^${body.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    if (glob.test(path) || path.startsWith(prefix)) ignored = !negated;
  }
  return ignored;
}

describe('deploy files', () => {
  const dockerfile = read('Dockerfile');
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;

  it('the Dockerfile runs only npm scripts that exist, as a non-root user, node in exec form', () => {
    const npmRuns = [...dockerfile.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(npmRuns).toContain('build');
    for (const script of npmRuns) expect(scripts, `npm run ${script}`).toHaveProperty(script);
    expect(dockerfile).toMatch(/^USER node$/m);
    // The entry point sizes memory, then execs node with CMD's arguments (test/ops/container-memory.test.ts runs it).
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/bin\/sh", "deploy\/entrypoint\.sh"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["dist\/main\.js"\]$/m);
    expect(read('deploy/entrypoint.sh')).toMatch(/^exec node .*"\$@"$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["node", "dist\/healthcheck\.js"\]$/m);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    // Exactly the lock file's versions, and no install that could rewrite it.
    expect(dockerfile).toMatch(/^RUN npm ci --no-audit --no-fund$/m);
    expect(dockerfile).not.toMatch(/npm install/);
    expect(dockerfile).toMatch(/ARG NODE_IMAGE=node:24-/);
  });

  it('every file the Dockerfile copies from the context exists and is not excluded by .dockerignore', () => {
    const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(copies.length).toBeGreaterThan(3);
    for (const path of copies) expect(existsSync(new URL(path, root)), path).toBe(true);
    expect(existsSync(new URL('src/healthcheck.ts', root))).toBe(true);
    for (const path of copies) expect(dockerIgnores(path), `${path} is ignored`).toBe(false);
    expect(dockerIgnores('deploy/grafana/lookup-graph.json')).toBe(true);
    expect(dockerIgnores('test/ops/deploy-files.test.ts')).toBe(true);
  });

  it('compose runs two replicas on a shared Redis behind HAProxy checking /readyz', () => {
    const compose = read('compose.yaml');
    expect(compose).toMatch(/replicas: 2/);
    expect(compose).toMatch(/limits:\s+memory: 256M/);
    expect(compose).toMatch(/REDIS_URL: redis:\/\/redis:6379/);
    expect(compose).toContain('./deploy/haproxy/haproxy.cfg');
    expect(read('deploy/haproxy/haproxy.cfg')).toMatch(/option httpchk GET \/readyz/);
  });

  it("compose's Redis keeps its data across a restart: an append-only file in the image's data directory, on a named volume", () => {
    const parsed = parseYaml(read('compose.yaml')) as {
      services: Record<string, { image?: string; command?: string[]; volumes?: string[] }>;
      volumes?: Record<string, unknown>;
    };
    const redis = parsed.services.redis!;
    expect(redis.image).toMatch(/^redis:/);
    const command = redis.command ?? [];
    const option = (name: string) => {
      const at = command.indexOf(`--${name}`);
      return at === -1 ? undefined : command[at + 1];
    };
    expect(command[0]).toBe('redis-server');
    expect(option('appendonly')).toBe('yes');
    expect(option('appendfsync') ?? 'everysec').toMatch(/^(everysec|always)$/);
    // The official image's working directory, where the append-only file is written, is a volume that outlives the container.
    expect(option('dir') ?? '/data').toBe('/data');
    const mount = (redis.volumes ?? []).map((volume) => volume.split(':')).find(([, target]) => target === '/data');
    expect(mount, 'a volume mounted at /data').toBeDefined();
    expect(Object.keys(parsed.volumes ?? {})).toContain(mount![0]);
  });

  it("compose's Redis command, run here, brings a quota counter back after the process is killed", async (ctx) => {
    if (!(await hasRedisServer())) return ctx.skip();
    const command = (parseYaml(read('compose.yaml')).services.redis.command as string[]).slice(1);
    // The volume: a directory that outlives each redis-server (own-redis gives each one an empty one).
    const volume = mkdtempSync(join(tmpdir(), 'lg-compose-redis-'));
    const redis = await startOwnRedis([...command, '--dir', volume]);
    const counter = new RedisQuotaCounter(redis.url, 'q:', 1, pino({ level: 'silent' }), {
      commandTimeoutMs: 1000,
      unhealthyAfter: 1,
      probeIntervalMs: 100,
    });
    const key = { id: 'compose', ...windowAt('day', Date.now()) };
    try {
      await counter.ready();
      for (let i = 0; i < 5; i += 1) expect((await counter.reserve(key, 5)).granted).toBe(true);
      // The append-only file is written before Redis answers the next command (fsynced each second: a
      // killed process loses nothing the kernel has, a lost machine at most the last second).
      await redis.kill();
      await redis.restart();
      await counter.ready(3000);
      // A counter that knows nothing of the window: what it reads came back from the file.
      const fresh = new RedisQuotaCounter(redis.url, 'q:', 1, pino({ level: 'silent' }));
      try {
        await fresh.ready(3000);
        expect(await fresh.used(key)).toBe(5);
        expect((await fresh.reserve(key, 5)).granted).toBe(false);
      } finally {
        await fresh.close();
      }
    } finally {
      await counter.close();
      await redis.close();
      rmSync(volume, { recursive: true, force: true });
    }
  });

  it("compose's gateway starts: the image's environment, compose's, and the variables it asks the operator for make a configuration the gateway accepts", () => {
    // What an operator supplies (compose stops with its message when one is missing); values of the right form.
    const operator: Record<string, string> = {
      ACTION_BASE_URL: 'https://actions.test',
      ACTION_TOKEN: 'test-token',
      CACHE_KEY_SECRET: 'c'.repeat(64),
      GATEWAY_API_KEY_HASHES: 'a'.repeat(64),
    };
    const asked = new Set<string>();
    const interpolate = (value: string) =>
      value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
        if (kind === '-') return rest ?? '';
        asked.add(name);
        expect(operator, `compose.yaml asks for ${name}`).toHaveProperty(name);
        return operator[name]!;
      });
    const envLines = dockerfile.replace(/\\\n/g, ' ').matchAll(/^ENV (.+)$/gm);
    const image = Object.fromEntries(
      [...envLines].flatMap((m) => [...m[1]!.matchAll(/(\w+)=(\S+)/g)].map((kv) => [kv[1]!, kv[2]!])),
    );
    expect(image).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    const services = parseYaml(read('compose.yaml')).services as Record<
      string,
      { build?: string; environment?: Record<string, string> }
    >;
    const gateways = Object.entries(services).filter(([, service]) => service.build === '.');
    expect(gateways.map(([name]) => name)).toEqual(['gateway']);
    for (const [name, service] of gateways) {
      const env = {
        ...image,
        ...Object.fromEntries(
          Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value))]),
        ),
      };
      expect(() => loadConfig(env), `service ${name}`).not.toThrow();
      expect(loadConfig(env).production).toBe(true);
    }
    // Every secret comes from the operator, none is written into the file.
    expect([...asked].sort()).toEqual(Object.keys(operator).sort());
  });

  it('HAProxy accepts deploy/haproxy/haproxy.cfg', () => {
    const installed = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
    if (!installed && process.env.CI === 'true')
      throw new Error('CI=true but haproxy is not installed (.ci/run installs it)');
    if (!installed) return;
    const check = spawnSync('haproxy', ['-c', '-f', 'deploy/haproxy/haproxy.cfg'], {
      cwd: fileURLToPath(root),
      encoding: 'utf8',
    });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });
});

describe('npm scripts that keep running', () => {
  it('exec their process, so the SIGTERM npm receives reaches it and nothing outlives npm', () => {
    const { scripts } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const name of ['start', 'mcp', 'sandbox', 'example', 'example:supergraph'])
      expect(scripts[name], `npm run ${name}`).toMatch(/^exec node /);
  });
});
