import { LRUCache } from 'lru-cache';

/** Clients whose registrations are tracked at once; the least recently seen beyond it are forgotten (their entries stay). */
const MAX_CLIENTS = 10_000;

/**
 * Each client's share of the persisted-query budget, in this process: a client's registrations
 * beyond `shareBytes` push out its own oldest ones, never another client's. `register` answers the
 * hashes to forget from the store (the client's own, oldest first), or null when the query alone is
 * larger than a share and is not to be registered at all.
 */
export class RegistrationShares {
  private readonly clients = new LRUCache<string, LRUCache<string, number>>({ max: MAX_CLIENTS });
  /** What the registration under way pushed out (LRU eviction is synchronous). */
  private evicted: string[] = [];

  constructor(private readonly shareBytes: number) {}

  register(client: string, hash: string, cost: number): string[] | null {
    if (cost > this.shareBytes) return null;
    let own = this.clients.get(client);
    if (!own) {
      own = new LRUCache<string, number>({
        maxSize: this.shareBytes,
        sizeCalculation: (size) => size,
        dispose: (_size, evicted, reason) => {
          if (reason === 'evict') this.evicted.push(evicted);
        },
      });
      this.clients.set(client, own);
    }
    this.evicted = [];
    own.set(hash, cost);
    return this.evicted;
  }
}
