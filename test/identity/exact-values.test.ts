import { describe, expect, it } from 'vitest';
import { parseDateText, parseDateTimeText } from '../../src/schema/dates.js';
import { ExactURLScalar } from '../../src/schema/exact-scalars.js';
import { startGateway } from '../support/gateway.js';
import { json, startFaultUpstream, upstreamEnv } from '../support/fault-upstream.js';

describe('URL scalar', () => {
  it('returns the upstream string unchanged', () => {
    for (const value of [
      'http://taylorswift.com',
      'https://www.hubspot.com',
      'https://example.com/caf\u00e9/r\u00e9sum\u00e9?q=a b',
      'https://EXAMPLE.com:443/Path/',
    ]) {
      expect(ExactURLScalar.serialize(value)).toBe(value);
    }
  });
  it('refuses what is not an absolute http(s) URL, in and out', () => {
    for (const value of ['instagram.com/name', 'ftp://x.example/', 'javascript:alert(1)', '', 42]) {
      expect(() => ExactURLScalar.serialize(value)).toThrow();
      expect(() => ExactURLScalar.parseValue(value)).toThrow();
    }
    expect(ExactURLScalar.parseValue(' https://a.example ')).toBe('https://a.example');
  });
});

describe('dates', () => {
  it('reads the forms the upstream uses', () => {
    expect(parseDateText('Mar 26, 2024')).toBe('2024-03-26');
    expect(parseDateText('March 26, 2024')).toBe('2024-03-26');
    expect(parseDateText('26 Mar 2024')).toBe('2024-03-26');
    expect(parseDateText('2025-09-18')).toBe('2025-09-18');
    expect(parseDateText('2025-02-12T00:14:58')).toBe('2025-02-12');
    expect(parseDateText('2024-02-30')).toBeNull();
    expect(parseDateText('3 hours ago')).toBeNull();
    expect(parseDateText('Foo 26, 2024')).toBeNull();
    expect(parseDateTimeText('2025-02-12T00:14:58')).toBe('2025-02-12T00:14:58Z');
    expect(parseDateTimeText('2025-02-12 00:14:58.120+0200')).toBe('2025-02-12T00:14:58.120+02:00');
    expect(parseDateTimeText('2025-09-18')).toBe('2025-09-18T00:00:00Z');
    expect(parseDateTimeText('2025-02-12T25:14:58Z')).toBeNull();
  });
});

describe('exact values over HTTP', () => {
  it('URLs come back as the upstream wrote them; dates parse, with their text kept; an empty period start is null', async () => {
    const upstream = await startFaultUpstream();
    const gw = await startGateway(upstreamEnv(upstream));
    try {
      const responses: Record<string, unknown> = {
        company_financial_profile: [{ symbol: 'TSWF', website: 'http://taylorswift.com', ipoDate: 'Mar 26, 2024' }],
        get_company_object: { domain: 'hubspot.com', logo: 'https://logo.example/caf\u00e9', indexedAt: '2025-09-18' },
        get_crm_owners: [{ id: 1, createdAt: '2025-02-12T00:14:58', updatedAt: 'yesterday' }],
        get_professionalnet_profile: {
          full_name: 'Sam',
          certifications: [{ name: 'X', date: { start: {}, end: { year: 2027 } } }],
        },
      };
      upstream.handle((call, _req, res) => json(res, 200, { status: 200, response: responses[call.action] }));
      const res = await gw.query(`{
        financialProfiles(symbols: ["TSWF"]) { website ipoDate ipoDateText }
        company(domain: "hubspot.com") { logoUrl indexedAt indexedAtText }
        crmOwners(portal: "1") { createdAt createdAtText updatedAt updatedAtText }
        professionalnetProfile(handle: "sam-rivera") { certifications { period { start { year } end { year } } } }
      }`);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data!.financialProfiles[0]).toEqual({
        website: 'http://taylorswift.com',
        ipoDate: '2024-03-26',
        ipoDateText: 'Mar 26, 2024',
      });
      expect(res.body.data!.company).toEqual({
        logoUrl: 'https://logo.example/caf\u00e9',
        indexedAt: '2025-09-18T00:00:00.000Z',
        indexedAtText: '2025-09-18',
      });
      expect(res.body.data!.crmOwners[0]).toEqual({
        createdAt: '2025-02-12T00:14:58.000Z',
        createdAtText: '2025-02-12T00:14:58',
        updatedAt: null,
        updatedAtText: 'yesterday',
      });
      expect(res.body.data!.professionalnetProfile.certifications[0].period).toEqual({
        start: null,
        end: { year: 2027 },
      });
    } finally {
      await gw.close();
      await upstream.close();
    }
  });
});
