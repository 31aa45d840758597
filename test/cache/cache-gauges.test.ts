import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { REDIS_HOST, REDIS_PORT, requireRedisInCi } from '../support/redis.js';

const redisUp = await requireRedisInCi();

/** The envelope the upstream sends for a domain: the memory cache keeps exactly this text as the entry. */
const envelopeOf = (domain: string) => ({
  status: 200,
  response: { domain_name: domain, registrar: 'Gauge Registrar' },
});

let up: FaultUpstream;
beforeAll(async () => {
  up = await startFaultUpstream();
  up.handle((call, _req, res) => json(res, 200, envelopeOf(String(call.body.domain))));
});
afterAll(() => up.close());

/** Every sample of `name`, by its `part` label. */
async function byPart(gw: TestGateway, name: string): Promise<Record<string, number>> {
  const text = await (await gw.fetch(`/metrics`)).text();
  const parts: Record<string, number> = {};
  for (const match of text.matchAll(new RegExp(`^${name}\\{part="(\\w+)"\\} (\\S+)$`, 'gm')))
    parts[match[1]!] = Number(match[2]);
  return parts;
}

describe('cache size gauges on /metrics', () => {
  it('count the entries, their parsed copies and the remembered results the memory cache holds, in the bytes each bound counts', async () => {
    const gw = await startGateway(upstreamEnv(up, { CACHE_ENABLED: 'true' }));
    try {
      expect(await byPart(gw, 'lookup_graph_cache_entries')).toEqual({
        entries: 0,
        parsed: 0,
        results: 0,
        documents: 0,
      });
      expect(await byPart(gw, 'lookup_graph_cache_bytes')).toEqual({ entries: 0, parsed: 0, results: 0, documents: 0 });

      const query = (domain: string) => gw.query(`{ domainInfo(domain: "${domain}") { domainName } }`);
      await query('one.example'); // stored
      await query('one.example'); // read again: kept parsed too, and the operation, made a second time, remembered
      await query('two.example'); // stored

      const entryBytes = (domain: string) => JSON.stringify(envelopeOf(domain)).length;
      // Two document texts, each parsed and validated once (the repeat was answered from its remembered result).
      expect(await byPart(gw, 'lookup_graph_cache_entries')).toEqual({
        entries: 2,
        parsed: 1,
        results: 1,
        documents: 2,
      });
      const bytes = await byPart(gw, 'lookup_graph_cache_bytes');
      // What a kept document holds is estimated from its text: more than the text, a small lookup tens of KB.
      expect(bytes.documents).toBeGreaterThan(2 * 16 * 1024);
      expect(bytes.entries).toBe(entryBytes('one.example') + entryBytes('two.example'));
      expect(bytes.parsed).toBe(2 * entryBytes('one.example'));
      expect(bytes.results).toBeGreaterThan(JSON.stringify({ domainInfo: { domainName: 'one.example' } }).length);
    } finally {
      await gw.close();
    }
  });

  it.skipIf(!redisUp)(
    "with the Redis cache, count its in-process tier's entries and the remembered results",
    async () => {
      const gw = await startGateway(
        upstreamEnv(up, {
          CACHE_ENABLED: 'true',
          REDIS_URL: `redis://${REDIS_HOST}:${REDIS_PORT}`,
          CACHE_KEY_SECRET: `gauges-${process.pid}-${Date.now()}`,
        }),
      );
      try {
        await gw.query('{ domainInfo(domain: "shared.example") { domainName } }');
        await gw.query('{ domainInfo(domain: "shared.example") { domainName } }');
        expect(await byPart(gw, 'lookup_graph_cache_entries')).toEqual({
          entries: 1,
          parsed: 1,
          results: 1,
          documents: 1,
        });
      } finally {
        await gw.close();
      }
    },
  );

  it('count only the documents when lookups are not cached in the process (cache off)', async () => {
    const gw = await startGateway(upstreamEnv(up));
    try {
      await gw.query('{ domainInfo(domain: "off.example") { domainName } }');
      const text = await (await gw.fetch(`/metrics`)).text();
      expect(text).toContain('lookup_graph_cache_lookups_total');
      expect(text).not.toMatch(/^lookup_graph_cache_(bytes|entries)\{part="(entries|parsed|results)"\}/m);
      expect(await byPart(gw, 'lookup_graph_cache_entries')).toEqual({ documents: 1 });
    } finally {
      await gw.close();
    }
  });
});
