/**
 * Each client's quota as the gateway counts it, from the same settings and the same Redis:
 *
 *   npm run quota -- show            every client of the API keys file: quota, used, remaining, reset
 *   npm run quota -- reset <name>    the client's current window starts again from zero
 *
 * Reads CLIENT_QUOTA, GATEWAY_API_KEY_HASHES, GATEWAY_API_KEYS_FILE, REDIS_URL and REDIS_KEY_PREFIX
 * as the gateway does. Forwarded tokens (GATEWAY_AUTH=forward) have no name and are not listed.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { DEFAULT_REDIS_GUARD } from '../redis/guard.js';
import { EnvReader } from '../kernel/env.js';
import { readApiKeys } from './accounts.js';
import { RedisQuotaCounter } from './redis-counter.js';
import { readQuotaSettings } from './settings.js';
import { formatQuota, type QuotaSpec, stateAt, windowAt } from './window.js';

/** One client as `show` lists it: where its quota is counted and what it is. */
export interface ListedClient {
  id: string;
  quota: QuotaSpec | null;
}

/** The clients of the keys file, once per name (keys sharing a name share a quota); unnamed keys by their short id. */
export function listClients(env: Record<string, string | undefined>): {
  clients: ListedClient[];
  problems: string[];
  redisUrl: string | null;
  prefix: string;
} {
  const read = new EnvReader(env);
  const settings = readQuotaSettings(read);
  const { hashes, accounts, names } = readApiKeys(read);
  const clients = new Map<string, ListedClient>();
  for (const digest of hashes) {
    const account = accounts.get(digest);
    const id = account?.name ?? `key:${digest.slice(0, 12)}`;
    const quota = account?.quota === undefined ? settings.defaultQuota : account.quota;
    if (!clients.has(id)) clients.set(id, { id, quota });
  }
  // Named clients without a key here (signed in with a token, or anonymous): counted under their name.
  for (const [name, account] of names)
    if (!clients.has(name))
      clients.set(name, { id: name, quota: account.quota === undefined ? settings.defaultQuota : account.quota });
  return {
    clients: [...clients.values()],
    problems: read.problems,
    redisUrl: settings.redisUrl,
    prefix: settings.redisPrefix,
  };
}

async function main(args: string[]): Promise<number> {
  const [command, name] = args;
  if (command !== 'show' && !(command === 'reset' && name)) {
    console.error('usage: npm run quota -- show | npm run quota -- reset <name>');
    return 64;
  }
  const { clients, problems, redisUrl, prefix } = listClients(process.env);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    return 78;
  }
  if (!redisUrl) {
    console.error(
      'REDIS_URL is not set: each gateway process counts its own quotas in memory, which this command cannot read.',
    );
    return 78;
  }
  const counter = new RedisQuotaCounter(redisUrl, prefix, 1, pino({ level: 'silent' }), {
    ...DEFAULT_REDIS_GUARD,
    commandTimeoutMs: 2000,
  });
  try {
    await counter.ready(3000);
    if (!counter.health().healthy) {
      console.error(`Redis does not answer at ${counter.health().target}.`);
      return 69;
    }
    const now = Date.now();
    if (command === 'reset') {
      const client = clients.find((candidate) => candidate.id === name);
      if (!client?.quota) {
        console.error(client ? `${name} has no quota.` : `No client named ${name} in the API keys file.`);
        return 65;
      }
      await counter.reset({ id: client.id, ...windowAt(client.quota.window, now) });
      console.log(`${name}: ${client.quota.limit} calls left until the window ends.`);
      return 0;
    }
    const rows = [['client', 'quota', 'used', 'remaining', 'resets in (s)']];
    for (const client of clients) {
      if (!client.quota) {
        rows.push([client.id, formatQuota(null), '-', '-', '-']);
        continue;
      }
      const used = await counter.used({ id: client.id, ...windowAt(client.quota.window, now) });
      const state = stateAt(client.quota, used, now);
      rows.push([
        client.id,
        formatQuota(client.quota),
        String(used),
        String(state.remaining),
        String(state.resetSeconds),
      ]);
    }
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    for (const row of rows)
      console.log(
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join('  ')
          .trimEnd(),
      );
    return 0;
  } finally {
    await counter.close();
  }
}

// Run as a command (not imported by a test): compared by real path, so a linked or URL-escaped path still runs it.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
