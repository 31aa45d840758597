import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejectsBeforeUpstream, sandboxCalls } from '../support/assertions.js';
import { upstreamGatewayFor, test } from '../support/fixtures.js';
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
      // The path of a short link names the video; a `v` beside it names nothing.
      'https://youtu.be/dQw4w9WgXcQ?v=AAAAAAAAAAA',
      // A path that names a video wins over a `v` parameter.
      'https://www.youtube.com/shorts/dQw4w9WgXcQ?v=AAAAAAAAAAA',
      'https://music.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&v=dQw4w9WgXcQ',
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
    expect(requireChannelUrl('url', 'youtube.com/channel/UC1234567890abcdefghijKL/about')).toBe(
      'https://www.youtube.com/channel/UC1234567890abcdefghijKL',
    );
    expect(requireChannelUrl('url', 'UC1234567890abcdefghijKL')).toBe(
      'https://www.youtube.com/channel/UC1234567890abcdefghijKL',
    );
    expect(requireChannelUrl('url', 'https://www.youtube.com/c/Sequoia/videos')).toBe(
      'https://www.youtube.com/c/sequoia',
    );
  });

  it.each([
    ['domain', () => requireDomain('domain', 'mailto:a@b.com'), 'such as example.com'],
    ['handle', () => requireHandle('handle', 'https://www.linkedin.com/company/northwind/'), 'such as "sam-rivera"'],
    ['username', () => canonicalUsername('username', 'https://www.instagram.com/p/Cx1y2z3/'), 'such as "natgeo"'],
    ['channel', () => requireChannelUrl('url', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'), 'such as "@name"'],
    [
      'video',
      () => requireVideoUrl('url', 'https://www.youtube.com/@sequoiacapital'),
      'such as https://www.youtube.com/watch?v=',
    ],
    ['symbol', () => canonicalSymbol('symbols', 'N/A; DROP'), 'such as AAPL, BRK-B or ^GSPC'],
    [
      'video naming two videos',
      () => requireVideoUrl('url', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&v=AAAAAAAAAAA'),
      'such as https://www.youtube.com/watch?v=',
    ],
  ])('an unreducible %s is BAD_USER_INPUT showing an accepted form', (_name, reduce, accepted) => {
    expect(reduce).toThrowError(
      expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringContaining(accepted) }),
    );
  });

  const VIDEO_HOSTS = ['youtube.com', 'youtu.be', 'videosite.example'];
  const PROFILE_HOSTS = ['linkedin.com', 'professionalnet.example'];
  const PHOTO_HOSTS = ['instagram.com', 'photosocial.example'];
  it.each([
    ['video', () => requireVideoUrl('url', 'https://evil.com/watch?v=dQw4w9WgXcQ'), VIDEO_HOSTS],
    ['video', () => requireVideoUrl('url', 'notyoutube.com/watch?v=dQw4w9WgXcQ'), VIDEO_HOSTS],
    ['video', () => requireVideoUrl('url', 'https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ'), VIDEO_HOSTS],
    ['video', () => requireVideoUrl('url', 'https://evil.com/shorts/dQw4w9WgXcQ'), VIDEO_HOSTS],
    ['channel', () => requireChannelUrl('url', 'https://evil.com/@sequoiacapital'), VIDEO_HOSTS],
    ['channel', () => requireChannelUrl('url', 'evil.com/channel/UC1234567890abcdefghijKL'), VIDEO_HOSTS],
    ['handle', () => requireHandle('handle', 'https://evil.com/in/sam-rivera'), PROFILE_HOSTS],
    ['handle', () => requireHandle('handle', 'linkedin.com.evil.com/in/sam-rivera/'), PROFILE_HOSTS],
    ['username', () => canonicalUsername('username', 'https://evil.com/natgeo'), PHOTO_HOSTS],
    ['username', () => canonicalUsername('username', 'evil.com/natgeo/reels/'), PHOTO_HOSTS],
  ])('a %s URL on another host is BAD_USER_INPUT naming the accepted hosts', (_name, reduce, hosts) => {
    expect(reduce).toThrowError(
      expect.objectContaining({
        code: 'BAD_USER_INPUT',
        message: expect.stringContaining(hosts.join(' or ')),
        extensions: expect.objectContaining({ acceptedHosts: hosts }),
      }),
    );
  });

  it('domains stay any host: they are hosts', () => {
    expect(requireDomain('domain', 'https://www.evil.com/watch?v=dQw4w9WgXcQ')).toBe('evil.com');
  });
});

/**
 * Property tests: every way the generators write an entity (hosts of the site, scheme or none, case,
 * sub-pages, tracking parameters, a misleading `v`, a fragment) reduces to that entity's one key, the
 * key reduces to itself, and two different entities never share a key.
 */
describe('canonical keys (property tests)', () => {
  const RUNS = { numRuns: 300, seed: 32_5 };
  /** "." and ".." cannot be path segments: URLs resolve them away ("/user/." is "/user/"). */
  const notDotSegment = (name: string) => name !== '.' && name !== '..';
  const anyCase = (text: string) =>
    fc
      .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
      .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
  const scheme = fc.constantFrom('https://', 'http://', '//', '');
  const tracking = fc.constantFrom('', '?si=AbC', '?utm_source=share&utm_campaign=x', '?feature=share');
  const fragment = fc.constantFrom('', '#top', '#t=42');
  /** One entity in one of its spellings, with its key. */
  type Written = { entity: string; form: string };

  function keysBehave(
    reduce: (value: string) => string,
    canonical: (entity: string) => string,
    written: fc.Arbitrary<Written>,
  ) {
    fc.assert(
      fc.property(written, written, (a, b) => {
        const keyA = reduce(a.form);
        expect(keyA).toBe(canonical(a.entity));
        expect(reduce(keyA)).toBe(keyA);
        if (a.entity !== b.entity) expect(reduce(b.form)).not.toBe(keyA);
      }),
      RUNS,
    );
  }

  /** The site's own hosts and the stand-in's: a URL keeps its family's canonical host. */
  const VIDEO_FAMILIES = [
    {
      canonical: 'www.youtube.com',
      hosts: ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'WWW.YouTube.COM'],
      short: 'youtu.be',
    },
    {
      canonical: 'www.videosite.example',
      hosts: ['videosite.example', 'www.videosite.example', 'm.videosite.example'],
      short: null,
    },
  ] as const;
  const videoFamily = fc.constantFrom(...VIDEO_FAMILIES);

  it('videos: one key per video id, whatever link names it', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
    const other = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
    const written = fc
      .tuple(videoFamily, id, scheme, other, tracking, fragment, fc.nat(5))
      .chain(([family, entity, s, misleading, t, f, shape]) =>
        fc.constantFrom(...family.hosts).map((h): Written => {
          const forms = [
            `${s}${h}/watch?v=${entity}${t.replace('?', '&')}${f}`,
            `${s}${h}/shorts/${entity}?v=${misleading}${f}`,
            `${s}${h}/embed/${entity}${t}`,
            `${s}${h}/live/${entity}${t}${f}`,
          ];
          if (family.short) forms.push(`${s}${family.short}/${entity}?v=${misleading}&si=x${f}`, entity);
          return { entity: `https://${family.canonical}/watch?v=${entity}`, form: forms[shape % forms.length]! };
        }),
      );
    keysBehave(
      (v) => requireVideoUrl('url', v),
      (entity) => entity,
      written,
    );
  });

  it('channels: one key per handle (any case), channel id (exact case) or named path', () => {
    const name = fc.stringMatching(/^[a-z0-9._-]{1,20}$/).filter(notDotSegment);
    const channelId = fc.stringMatching(/^UC[A-Za-z0-9_-]{22}$/);
    const subPage = fc.constantFrom('', '/', '/videos', '/about', '/featured');
    const path = fc.oneof(
      name.map((n) => `/@${n}`),
      channelId.map((c) => `/channel/${c}`),
      name.map((n) => `/c/${n}`),
      name.map((n) => `/user/${n}`),
    );
    const written = fc
      .tuple(videoFamily, path, scheme, subPage, tracking, fragment, fc.boolean())
      .chain(([family, p, s, page, t, f, bare]) =>
        fc
          .tuple(fc.constantFrom(...family.hosts), p.startsWith('/channel/') ? fc.constant(p) : anyCase(p))
          .map(([h, spelled]): Written => {
            // A bare handle or channel id is on the site's own host.
            const bareForm =
              family.short === null
                ? null
                : p.startsWith('/@')
                  ? spelled.slice(1)
                  : p.startsWith('/channel/')
                    ? p.slice('/channel/'.length)
                    : null;
            return {
              entity: `https://${family.canonical}${p}`,
              form: bare && bareForm ? bareForm : `${s}${h}${spelled}${page}${t}${f}`,
            };
          }),
      );
    keysBehave(
      (v) => requireChannelUrl('url', v),
      (entity) => entity,
      written,
    );
  });

  it('professional handles: one key per handle, any case, bare or as a profile URL', () => {
    const handle = fc.stringMatching(/^[a-z0-9_-]{3,30}$/);
    const host = fc.constantFrom('linkedin.com', 'www.linkedin.com', 'm.linkedin.com', 'uk.linkedin.com');
    const subPage = fc.constantFrom('', '/', '/details/experience/', '/recent-activity/');
    const written = fc
      .tuple(handle, scheme, host, subPage, tracking, fc.nat(2))
      .chain(([entity, s, h, page, t, shape]) =>
        anyCase(entity).map(
          (spelled): Written => ({
            entity,
            form: [spelled, `@${spelled}`, `${s}${h}/in/${spelled}${page}${t}`][shape]!,
          }),
        ),
      );
    keysBehave(
      (v) => requireHandle('handle', v),
      (entity) => entity,
      written,
    );
  });

  it('photo-social usernames: one key per username, any case, bare or as a profile URL', () => {
    const reserved = new Set([
      'p',
      'reel',
      'reels',
      'tv',
      'explore',
      'accounts',
      'direct',
      'about',
      'legal',
      'developer',
      'web',
      'challenge',
      'stories',
    ]);
    const username = fc.stringMatching(/^[a-z0-9._]{1,30}$/).filter((u) => !reserved.has(u) && notDotSegment(u));
    const host = fc.constantFrom('instagram.com', 'www.instagram.com', 'm.instagram.com');
    const written = fc
      .tuple(
        username,
        scheme.filter((s) => s !== '//'),
        host,
        tracking,
        fc.nat(3),
      )
      .chain(([entity, s, h, t, shape]) =>
        anyCase(entity).map(
          (spelled): Written => ({
            entity,
            form: [spelled, `@${spelled}`, `${s}${h}/${spelled}/${t}`, `${s}${h}/stories/${spelled}/3141592653/`][
              shape
            ]!,
          }),
        ),
      );
    keysBehave(
      (v) => canonicalUsername('username', v),
      (entity) => entity,
      written,
    );
  });

  it('a URL on any other host is refused, for every URL argument', () => {
    const offSiteHost = fc
      .domain()
      .filter((d) => !/(^|\.)(youtube\.com|youtu\.be|linkedin\.com|instagram\.com|[a-z]+\.example)$/.test(d));
    fc.assert(
      fc.property(offSiteHost, (host) => {
        for (const reduce of [
          () => requireVideoUrl('url', `https://${host}/watch?v=dQw4w9WgXcQ`),
          () => requireChannelUrl('url', `https://${host}/@name`),
          () => requireHandle('handle', `https://${host}/in/sam-rivera/`),
          () => canonicalUsername('username', `https://${host}/natgeo/`),
        ]) {
          expect(reduce).toThrowError(
            expect.objectContaining({
              code: 'BAD_USER_INPUT',
              extensions: expect.objectContaining({ acceptedHosts: expect.any(Array) }),
            }),
          );
        }
      }),
      RUNS,
    );
  });
});

describe('over HTTP: a URL argument on another host is refused before any call', () => {
  test.for([
    ['videositeTranscript', 'url', 'https://evil.com/watch?v=dQw4w9WgXcQ', '{ requestedUrl }'],
    ['videositeTranscript', 'url', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&v=AAAAAAAAAAA', '{ requestedUrl }'],
    ['videositeChannel', 'url', 'https://evil.com/@sequoiacapital', '{ requestedUrl }'],
    ['professionalnetProfile', 'handle', 'https://evil.com/in/sam-rivera', '{ handle }'],
    ['photosocialProfile', 'username', 'https://evil.com/natgeo', '{ username }'],
  ] as const)(
    '%s(%s: %j) → BAD_USER_INPUT, no upstream call',
    async ([field, argument, value, selection], { sandbox }) => {
      await rejectsBeforeUpstream(
        sandbox,
        `query($v: String!) { ${field}(${argument}: $v) ${selection} }`,
        { v: value },
        { field, argument },
      );
    },
  );

  test('the short link with a misleading v looks up the video its path names', async ({ sandbox }) => {
    const before = sandboxCalls(sandbox);
    const { body } = await sandbox.query(
      '{ videositeTranscript(url: "https://youtu.be/dQw4w9WgXcQ?v=AAAAAAAAAAA") { requestedUrl } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ videositeTranscript: { requestedUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' } });
    expect(sandboxCalls(sandbox) - before).toBe(1);
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
          return json(res, 200, {
            status: 200,
            response: { domain_name: `www.${call.body.domain}`, domain_registered: 'yes' },
          });
        case 'get_company_object':
          return json(res, 200, { status: 200, response: { domain: `WWW.${call.body.domain}`, name: 'Company' } });
        default:
          return json(res, 200, { status: 200, response: { echo: call.body } });
      }
    });
  });

  const alias = (forms: readonly string[], field: (form: string) => string) =>
    forms.map((form, i) => `a${i}: ${field(JSON.stringify(form))}`).join('\n');

  it.each([
    ['domain', 'get_company_object', { domain: 'hubspot.com' }, (f: string) => `company(domain: ${f}) { name }`],
    ['domain', 'domain_info', { domain: 'hubspot.com' }, (f: string) => `domainInfo(domain: ${f}) { domainName }`],
    [
      'handle',
      'get_professionalnet_profile',
      { profile_handle: 'sam-rivera' },
      (f: string) => `professionalnetProfile(handle: ${f}) { handle }`,
    ],
    [
      'username',
      'get_photosocial_profile',
      { username: 'natgeo' },
      (f: string) => `photosocialProfile(username: ${f}) { username }`,
    ],
    [
      'channel',
      'get_videosite_channel',
      { url: 'https://www.youtube.com/@sequoiacapital' },
      (f: string) => `videositeChannel(url: ${f}) { requestedUrl }`,
    ],
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
    const { body } = await rig.gw.query(
      '{ financialProfiles(symbols: ["^gspc", "BRK.B", "brk-b", "BRK/B", "$BRK-B"]) { symbol } }',
    );
    expect(body.errors).toBeUndefined();
    expect(rig.up.calls).toEqual([
      expect.objectContaining({ action: 'company_financial_profile', body: { company: '^GSPC, BRK-B' } }),
    ]);
    expect(body.data!.financialProfiles).toEqual([
      { symbol: '^GSPC' },
      { symbol: 'BRK-B' },
      { symbol: 'BRK-B' },
      { symbol: 'BRK-B' },
      { symbol: 'BRK-B' },
    ]);
  });
});

describe('links look up by what was asked, so the same thing asked two ways is one call', () => {
  const rig = upstreamGatewayFor({ CACHE_ENABLED: 'false' });
  beforeAll(async () => {
    rig.up.handle((call, _req, res) => {
      if (call.action === 'domain_info')
        return json(res, 200, {
          status: 200,
          response: { domain_name: `www.${call.body.domain}`, domain_registered: 'yes' },
        });
      return json(res, 200, {
        status: 200,
        response: { domain: `www.${call.body.domain}`, name: `Company of ${call.body.domain}` },
      });
    });
  });
  beforeEach(() => {
    rig.up.calls.length = 0;
  });

  it('DomainRecord.company uses the requested domain, shared with company(domain:) asked another way', async () => {
    const { body } = await rig.gw.query(
      '{ domainInfo(domain: "cnn.com") { domainName company { name } } company(domain: "https://www.cnn.com/") { name } }',
    );
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
    expect(body.data!.company.domainInfo.company).toEqual({
      name: 'Company of cnn.com',
      domainInfo: { domainName: 'www.cnn.com' },
    });
    expect(rig.up.calls.map((c) => [c.action, c.body.domain]).sort()).toEqual([
      ['domain_info', 'cnn.com'],
      ['get_company_object', 'cnn.com'],
    ]);
  });
});
