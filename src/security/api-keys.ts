import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The gateway's API keys, held only as sha256 digests. A presented key is hashed and compared with
 * every digest in constant time (crypto.timingSafeEqual), without stopping at the first match.
 */
export class ApiKeys {
  private readonly digests: Buffer[];

  constructor(hashes: string[]) {
    this.digests = hashes.map((hash) => Buffer.from(hash, 'hex'));
  }

  get size(): number {
    return this.digests.length;
  }

  /** A short, non-secret id of the matching key (the start of its digest), or null. */
  match(key: string): string | null {
    const digest = this.digestOf(key);
    return digest ? keyId(digest) : null;
  }

  /** The hex digest of the matching key, or null. */
  digestOf(key: string): string | null {
    const presented = createHash('sha256').update(key, 'utf8').digest();
    let found: Buffer | null = null;
    for (const digest of this.digests) {
      if (timingSafeEqual(digest, presented)) found = digest;
    }
    return found ? found.toString('hex') : null;
  }
}

/** The sha256 hex digest to put in GATEWAY_API_KEY_HASHES for a key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A key's short id from its digest: for per-client limits, never shown in metrics. */
export function keyId(digest: string): string {
  return `key:${digest.slice(0, 12)}`;
}
