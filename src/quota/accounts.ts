import { readFileSync } from 'node:fs';
import type { EnvReader } from '../kernel/env.js';
import { parseQuota, type QuotaSpec } from './window.js';

/**
 * The API keys the gateway accepts, and who each one is: read here, below the protections that check
 * the keys (src/security) and beside the quotas that count their calls, so that `npm run quota` reads
 * them as the gateway does.
 */

/** A key's line in GATEWAY_API_KEYS_FILE beyond its digest: `name=team-a quota=20000/day` (or `quota=none`). */
export interface KeyAccount {
  /** Names the client in metrics, the request log and `npm run quota` (never the key or its digest). */
  name: string | null;
  /** Its own quota (null: none); absent: CLIENT_QUOTA. */
  quota?: QuotaSpec | null;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The name of the one shared account of anonymous requests (ANONYMOUS_ACCESS): a line of its own may give its quota. */
export const ANONYMOUS = 'anonymous';

/**
 * GATEWAY_API_KEY_HASHES (comma-separated digests) and GATEWAY_API_KEYS_FILE: one digest a line, then
 * optionally `name=<name>` and `quota=<N/window|none>`; `#` starts a comment. A line without a digest,
 * `name=<name> [quota=...]`, names a client that has no key here (one that signs in with a token, or
 * `anonymous`) and gives its quota. A bad line is a problem naming its line number.
 */
export function readApiKeys(read: EnvReader): {
  hashes: string[];
  accounts: Map<string, KeyAccount>;
  /** Every named client, keyed or not, with its quota (undefined: CLIENT_QUOTA). */
  names: Map<string, KeyAccount>;
} {
  const hashes: string[] = [];
  const accounts = new Map<string, KeyAccount>();
  const names = new Map<string, KeyAccount>();
  const digestOf = (where: string, value: string): string | null => {
    const digest = value.trim().toLowerCase();
    if (SHA256_HEX.test(digest)) return digest;
    read.problem(`${where} must hold sha256 hex digests of the keys (64 hex characters), got "${value.slice(0, 12)}…"`);
    return null;
  };
  for (const value of read.list('GATEWAY_API_KEY_HASHES')) {
    const digest = digestOf('GATEWAY_API_KEY_HASHES', value);
    if (digest) hashes.push(digest);
  }
  const file = read.string('GATEWAY_API_KEYS_FILE');
  let lines: string[] = [];
  if (file) {
    try {
      lines = readFileSync(file, 'utf8').split('\n');
    } catch (error) {
      read.problem(`GATEWAY_API_KEYS_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'} ${file}`);
    }
  }
  const quotaOfName = new Map<string, string>();
  for (const [index, line] of lines.entries()) {
    const where = `GATEWAY_API_KEYS_FILE line ${index + 1}`;
    const [first, ...attributes] = line.replace(/#.*$/, '').trim().split(/\s+/).filter(Boolean);
    if (!first) continue;
    const keyless = first.startsWith('name=');
    const digest = keyless ? null : digestOf(where, first);
    if (!keyless && !digest) continue;
    if (digest) hashes.push(digest);
    if (attributes.length === 0 && !keyless) continue;
    const account: KeyAccount = { name: null };
    for (const attribute of keyless ? [first, ...attributes] : attributes) {
      const [name, value = ''] = attribute.split(/=(.*)/s);
      if (name === 'name' && NAME.test(value)) account.name = value;
      else if (name === 'name')
        read.problem(
          `${where}: name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit; got "${value}"`,
        );
      else if (name === 'quota') {
        const quota = parseQuota(value);
        if (quota && 'problem' in quota) read.problem(`${where}: ${quota.problem}`);
        else account.quota = quota;
      } else
        read.problem(
          `${where}: unknown setting "${name}" (a line is: <digest> [name=<name>] [quota=<N/window|none>], or name=<name> [quota=<N/window|none>])`,
        );
    }
    if (digest && account.name === ANONYMOUS)
      read.problem(
        `${where}: "${ANONYMOUS}" names the requests that come without a key or token; a key cannot have it`,
      );
    // Keys that share a name share one quota: they must agree on it.
    if (account.name) {
      const quota = account.quota === undefined ? 'default' : JSON.stringify(account.quota);
      const earlier = quotaOfName.get(account.name);
      if (earlier !== undefined && earlier !== quota)
        read.problem(`${where}: the keys named "${account.name}" share one quota, so each must give the same quota`);
      quotaOfName.set(account.name, quota);
      names.set(account.name, account);
    }
    if (digest) accounts.set(digest, account);
  }
  return { hashes: [...new Set(hashes)], accounts, names };
}
