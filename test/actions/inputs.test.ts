import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { upstreamGatewayFor } from '../support/fixtures.js';
import { canonicalSymbol } from '../../src/actions/financial-profile/load.js';
import { canonicalUsername } from '../../src/actions/photosocial-profile/load.js';
import { requireHandle } from '../../src/actions/professionalnet-profile/handle.js';
import { requireDomain } from '../../src/actions/validate.js';
import { requireChannelUrl, requireVideoUrl } from '../../src/actions/videosite-shared/links.js';
import { json } from '../support/fault-upstream.js';

/** Forgiving inputs: what people paste is reduced to one canonical key before any loader. */
const FORMS = {
  domain: {
    canonical: 'hubspot.com',
    reduce: (v: string) => requireDomain('domain', v),
    forms: [
      'hubspot.com',
      'HubSpot.com.',
      'www.hubspot.com',
      'm.hubspot.com',
      'https://www.hubspot.com/',
      'http://hubspot.com',
      'hubspot.com/pricing?utm_source=x&utm_medium=y',
      'https://www.hubspot.com:443/products#top',
    ],
  },
  handle: {
    canonical: 'sam-rivera',
    reduce: (v: string) => requireHandle('handle', v),
    forms: [
      'sam-rivera',
      'Sam-Rivera',
      '@sam-rivera',
      'www.linkedin.com/in/sam-rivera/',
      'https://www.linkedin.com/in/sam-rivera',
      'https://m.linkedin.com/in/Sam-Rivera/details/experience/',
      'linkedin.com/in/sam-rivera?utm_source=share&utm_campaign=x',
    ],
  },
  username: {
    canonical: 'natgeo',
    reduce: (v: string) => canonicalUsername('username', v),
    forms: [
      'natgeo',
      '@NatGeo',
      'https://www.instagram.com/natgeo/',
      'instagram.com/natgeo',
      'm.instagram.com/natgeo/reels/?igsh=abc',
      'https://www.instagram.com/stories/natgeo/3141592653/',
    ],
  },
  channel: {
    canonical: 'https://www.youtube.com/@sequoiacapital',
    reduce: (v: string) => requireChannelUrl('url', v),
    forms: [
      '@sequoiacapital',
      '@SequoiaCapital',
      'youtube.com/@sequoiacapital',
      'https://www.youtube.com/@sequoiacapital/videos',
      'm.youtube.com/@sequoiacapital',
      'http://youtube.com/@SequoiaCapital/featured?si=x#about',
    ],
  },
  video: {
    canonical: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    reduce: (v: string) => requireVideoUrl('url', v),
    forms: [
      'https://youtu.be/dQw4w9WgXcQ?si=AbCdEf',
      'youtu.be/dQw4w9WgXcQ',
      'https://youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share&utm_source=x&pp=y',
      'm.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'dQw4w9WgXcQ',
    ],
  },
} as const;

describe('root arguments reduce what people paste to one canonical key', () => {
  for (const [name, { canonical, reduce, forms }] of Object.entries(FORMS)) {
    it.each(forms.map((form) => [form]))(`${name}: %j -> ${canonical}`, (form) => {
      expect(reduce(form)).toBe(canonical);
    });
  }

  it.each([
    ['^GSPC', '^GSPC'],
    ['^gspc', '^GSPC'],
    ['BRK.B', 'BRK-B'],
    ['brk-b', 'BRK-B'],
    ['BRK/B', 'BRK-B'],
    ['$aapl', 'AAPL'],
    ['VOD.L', 'VOD.L'],
    ['SAP.DE', 'SAP.DE'],
  ])('symbol %j -> %j', (form, canonical) => {
    expect(canonicalSymbol('symbols', form)).toBe(canonical);
  });

  it('other channel forms keep their kind of path', () => {
    expect(requireChannelUrl('url', 'youtube.com/channel/UC1234567890abcdefghijKL/about')).toBe('https://www.youtube.com/channel/UC1234567890abcdefghijKL');
    expect(requireChannelUrl('url', 'UC1234567890abcdefghijKL')).toBe('https://www.youtube.com/channel/UC1234567890abcdefghijKL');
    expect(requireChannelUrl('url', 'https://www.youtube.com/c/Sequoia/videos')).toBe('https://www.youtube.com/c/sequoia');
  });

  it.each([
    ['domain', () => requireDomain('domain', 'mailto:a@b.com'), 'such as example.com'],
    ['handle', () => requireHandle('handle', 'https://www.linkedin.com/company/northwind/'), 'such as "sam-rivera"'],
    ['username', () => canonicalUsername('username', 'https://www.instagram.com/p/Cx1y2z3/'), 'such as "natgeo"'],
    ['channel', () => requireChannelUrl('url', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'), 'such as "@name"'],
    ['video', () => requireVideoUrl('url', 'https://www.youtube.com/@sequoiacapital'), 'such as https://www.youtube.com/watch?v='],
    ['symbol', () => canonicalSymbol('symbols', 'N/A; DROP'), 'such as AAPL, BRK-B or ^GSPC'],
  ])('an unreducible %s is BAD_USER_INPUT showing an accepted form', (_name, reduce, accepted) => {
    expect(reduce).toThrowError(expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringContaining(accepted) }));
  });
});

describe('over HTTP: every spelling in one operation is one upstream call with the canonical key', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'false' });
  beforeEach(() => {
    rig.up.calls.length = 0;
    rig.up.handle((call, _req, res) => {
      switch (call.action) {
        case 'get_photosocial_profile':
          return json(res, 200, { status: 200, response: { response: { username: call.body.username } } });
        case 'get_videosite_transcript':
          return json(res, 200, { status: 200, response: 'Title\nText', metadata: { id: 'dQw4w9WgXcQ' } });
        case 'company_financial_profile':
          return json(res, 200, {
            status: 200,
            response: String(call.body.company)
              .split(', ')
              .map((symbol) => ({ symbol })),
          });
        case 'domain_info':
          // The record echoes another spelling of the domain: links must still use the one asked for.
          return json(res, 200, { status: 200, response: { domain_name: `www.${call.body.domain}`, domain_registered: 'yes' } });
        case 'get_company_object':
          return json(res, 200, { status: 200, response: { domain: `WWW.${call.body.domain}`, name: 'Company' } });
        default:
          return json(res, 200, { status: 200, response: { echo: call.body } });
      }
    });
  });

  const alias = (forms: readonly string[], field: (form: string) => string) => forms.map((form, i) => `a${i}: ${field(JSON.stringify(form))}`).join('\n');

  it.each([
    ['domain', 'get_company_object', { domain: 'hubspot.com' }, (f: string) => `company(domain: ${f}) { name }`],
    ['domain', 'domain_info', { domain: 'hubspot.com' }, (f: string) => `domainInfo(domain: ${f}) { domainName }`],
    ['handle', 'get_professionalnet_profile', { profile_handle: 'sam-rivera' }, (f: string) => `professionalnetProfile(handle: ${f}) { handle }`],
    ['username', 'get_photosocial_profile', { username: 'natgeo' }, (f: string) => `photosocialProfile(username: ${f}) { username }`],
    ['channel', 'get_videosite_channel', { url: 'https://www.youtube.com/@sequoiacapital' }, (f: string) => `videositeChannel(url: ${f}) { requestedUrl }`],
    [
      'video',
      'get_videosite_transcript',
      { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      (f: string) => `videositeTranscript(url: ${f}) { requestedUrl }`,
    ],
  ] as const)('%s forms -> one %s call', async (kind, action, body, field) => {
    const { body: response } = await rig.gw.query(`{ ${alias(FORMS[kind].forms, field)} }`);
    expect(response.errors).toBeUndefined();
    expect(rig.up.calls).toEqual([expect.objectContaining({ action, body })]);
    if (kind === 'channel' || kind === 'video') {
      // requestedUrl echoes the canonical key, whatever was pasted.
      for (const value of Object.values(response.data!)) expect(value).toEqual({ requestedUrl: FORMS[kind].canonical });
    }
  });

  it('symbols: index and share-class spellings go upstream once each, in one call', async () => {
    const { body } = await rig.gw.query('{ financialProfiles(symbols: ["^gspc", "BRK.B", "brk-b", "BRK/B", "$BRK-B"]) { symbol } }');
    expect(body.errors).toBeUndefined();
    expect(rig.up.calls).toEqual([expect.objectContaining({ action: 'company_financial_profile', body: { company: '^GSPC, BRK-B' } })]);
    expect(body.data!.financialProfiles).toEqual([{ symbol: '^GSPC' }, { symbol: 'BRK-B' }, { symbol: 'BRK-B' }, { symbol: 'BRK-B' }, { symbol: 'BRK-B' }]);
  });
});

describe('links look up by what was asked, so the same thing asked two ways is one call', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'false' });
  beforeAll(async () => {
    rig.up.handle((call, _req, res) => {
      if (call.action === 'domain_info') return json(res, 200, { status: 200, response: { domain_name: `www.${call.body.domain}`, domain_registered: 'yes' } });
      return json(res, 200, { status: 200, response: { domain: `www.${call.body.domain}`, name: `Company of ${call.body.domain}` } });
    });
  });
  beforeEach(() => {
    rig.up.calls.length = 0;
  });

  it('DomainRecord.company uses the requested domain, shared with company(domain:) asked another way', async () => {
    const { body } = await rig.gw.query('{ domainInfo(domain: "cnn.com") { domainName company { name } } company(domain: "https://www.cnn.com/") { name } }');
    expect(body.errors).toBeUndefined();
    expect(body.data!.domainInfo).toEqual({ domainName: 'www.cnn.com', company: { name: 'Company of cnn.com' } });
    expect(rig.up.calls.map((c) => [c.action, c.body.domain]).sort()).toEqual([
      ['domain_info', 'cnn.com'],
      ['get_company_object', 'cnn.com'],
    ]);
  });

  it('Company.domainInfo.company uses the requested domain all the way round: two calls', async () => {
    const { body } = await rig.gw.query(
      '{ company(domain: "www.cnn.com") { domainInfo { company { name domainInfo { domainName } } } } domainInfo(domain: "CNN.com") { domainName } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.company.domainInfo.company).toEqual({ name: 'Company of cnn.com', domainInfo: { domainName: 'www.cnn.com' } });
    expect(rig.up.calls.map((c) => [c.action, c.body.domain]).sort()).toEqual([
      ['domain_info', 'cnn.com'],
      ['get_company_object', 'cnn.com'],
    ]);
  });
});
