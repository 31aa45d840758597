import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from './support/fixtures.js';
import { SANDBOX_ACTIONS } from '../src/sandbox/answers.js';
import { startSandbox, type Sandbox } from '../src/sandbox/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 5 });
});
afterAll(() => sandbox.close());

async function call(action: string, body: unknown, token = sandbox.token, on = sandbox) {
  const res = await fetch(`${on.url}/v1/action/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('the built-in sandbox behaves like the live action service', () => {
  it('answers with the envelope and the rate-limit headers', async () => {
    const { status, headers, body } = await call('company_financial_profile', { company: 'AAPL, NOPE, nke' });
    expect(status).toBe(200);
    expect(body.status).toBe(200);
    // An unknown symbol is simply missing from the array.
    expect(body.response.map((p: { symbol: string }) => p.symbol)).toEqual(['AAPL', 'NKE']);
    expect(headers.get('ratelimit-limit')).toBe('5');
    expect(Number(headers.get('ratelimit-remaining'))).toBeLessThan(5);
    expect(Number(headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(headers.get('ratelimit-reset-date')).toMatch(/GMT$/);
  });

  it('refuses a wrong token with the 403 envelope', async () => {
    const { status, body } = await call('domain_info', { domain: 'example.com' }, 'wrong');
    expect(status).toBe(403);
    expect(body).toEqual({ status: 403, response: null, error: 'Invalid or missing access token.' });
  });

  it('refuses a missing field with the 400 envelope', async () => {
    const { status, body } = await call('get_search_news', { query: 'x' });
    expect(status).toBe(400);
    expect(body).toEqual({ status: 400, response: null, error: 'Missing required field: date_range.' });
  });

  it("answers 429 with retry-after once the minute's budget is spent", async () => {
    let last = await call('domain_info', { domain: 'a.example' });
    for (let i = 0; i < 6 && last.status !== 429; i += 1) last = await call('domain_info', { domain: 'a.example' });
    expect(last.status).toBe(429);
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.body).toEqual({ status: 429, response: null, error: 'Too many requests.' });
  });
});

/** A body every action accepts, by action: the crawl below covers all eleven. */
const BODIES: Record<string, Record<string, unknown>> = {
  domain_info: { domain: 'stripe.com' },
  get_photosocial_profile: { username: 'natgeo' },
  get_videosite_channel: { url: 'https://www.youtube.com/@sandboxstudio' },
  get_videosite_transcript: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
  get_search_news: { query: 'rust language', date_range: '7d' },
  get_professionalnet_profile: { profile_handle: 'sam-rivera' },
  get_company_object: { domain: 'stripe.com' },
  run_videosite_search: { query: 'how zippers are made' },
  company_financial_profile: { company: 'AAPL, BRK-B, ^GSPC, STRIPE' },
  get_crm_owners: { crm_portal: '139981' },
  search_microblog_posts: { query: 'graphql', num_posts: 5 },
};

/** Every string of a JSON value with the key it sits under. */
function* strings(value: unknown, key = ''): Generator<[key: string, text: string]> {
  if (typeof value === 'string') yield [key, value];
  else if (Array.isArray(value)) for (const item of value) yield* strings(item, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, k);
}

describe('sandbox answers derived from the input', () => {
  let plain: Sandbox;
  let other: Sandbox;
  beforeAll(async () => {
    [plain, other] = await Promise.all([startSandbox(), startSandbox()]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), other.close()]);
  });
  const ask = (action: string, body: unknown, on = plain) => call(action, body, on.token, on);

  it('company(domain:) for hubspot.com, stripe.com and nike.com: three tickers, each leading to its own listing and back', async ({
    sandbox: gw,
  }) => {
    const company = (domain: string) =>
      `company(domain: "${domain}") { name ticker financialProfile { symbol companyName price website company { domain ticker } } }`;
    const { body } = await gw.query(
      `{ hubspot: ${company('hubspot.com')} stripe: ${company('stripe.com')} nike: ${company('nike.com')} }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      hubspot: {
        name: 'Hubspot',
        ticker: 'HUBS',
        financialProfile: {
          symbol: 'HUBS',
          companyName: 'HubSpot, Inc.',
          price: 742.3,
          website: 'https://www.hubspot.com',
          company: { domain: 'hubspot.com', ticker: 'HUBS' },
        },
      },
      stripe: {
        name: 'Stripe',
        ticker: 'STRIPE',
        financialProfile: {
          symbol: 'STRIPE',
          companyName: 'Stripe, Inc.',
          price: 677.6,
          website: 'https://www.stripe.com',
          company: { domain: 'stripe.com', ticker: 'STRIPE' },
        },
      },
      nike: {
        name: 'Nike',
        ticker: 'NKE',
        financialProfile: {
          symbol: 'NKE',
          companyName: 'NIKE, Inc.',
          price: 76.41,
          website: 'https://investors.nike.com',
          company: { domain: 'nike.com', ticker: 'NKE' },
        },
      },
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true });
  });

  it('financialProfiles(symbols: ["AAPL", "NKE", "BRK.B"]): three items, three prices', async ({ sandbox: gw }) => {
    const { body } = await gw.query(
      '{ financialProfiles(symbols: ["AAPL", "NKE", "BRK.B"]) { symbol companyName price company { domain ticker } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.financialProfiles).toEqual([
      { symbol: 'AAPL', companyName: 'Apple Inc.', price: 228.52, company: { domain: 'apple.com', ticker: 'AAPL' } },
      { symbol: 'NKE', companyName: 'NIKE, Inc.', price: 76.41, company: { domain: 'nike.com', ticker: 'NKE' } },
      {
        symbol: 'BRK-B',
        companyName: 'Berkshire Hathaway Inc.',
        price: 468.21,
        company: { domain: 'berkshirehathaway.com', ticker: 'BRK-B' },
      },
    ]);
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true });
  });

  it('indices, share classes and exchange listings resolve; symbols starting with ZZ or NOPE, mixing letters and digits or on an unknown exchange are NOT_FOUND', async ({
    sandbox: gw,
  }) => {
    const { body } = await gw.query(
      '{ financialProfiles(symbols: ["^GSPC", "brk/a", "VOD.L", "ZZZZ", "NOPE", "QQ1", "ABC.XX"]) { symbol companyName exchangeShortName currency company { domain ticker } } }',
    );
    expect(body.data!.financialProfiles).toEqual([
      { symbol: '^GSPC', companyName: 'S&P 500', exchangeShortName: 'INDEX', currency: 'USD', company: null },
      {
        symbol: 'BRK-A',
        companyName: 'Berkshire Hathaway Inc.',
        exchangeShortName: 'NYSE',
        currency: 'USD',
        company: { domain: 'berkshirehathaway.com', ticker: 'BRK-B' },
      },
      {
        symbol: 'VOD.L',
        companyName: 'Vod plc',
        exchangeShortName: 'LSE',
        currency: 'GBp',
        company: { domain: 'vod.co.uk', ticker: 'VOD.L' },
      },
      null,
      null,
      null,
      null,
    ]);
    expect(body.errors!.map((e) => [e.path, e.extensions!.code, e.extensions!.symbol])).toEqual([
      [['financialProfiles', 3], 'NOT_FOUND', 'ZZZZ'],
      [['financialProfiles', 4], 'NOT_FOUND', 'NOPE'],
      [['financialProfiles', 5], 'NOT_FOUND', 'QQ1'],
      [['financialProfiles', 6], 'NOT_FOUND', 'ABC.XX'],
    ]);
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true });
  });

  it.for(['no-such-company-zzqx.io', 'unregistered-shop.com', 'shop.invalid'])(
    'the failure inputs of docs/frontend.md: %s is unregistered in domainInfo and NOT_FOUND as a company',
    async (domain, { sandbox: gw }) => {
      const res = await gw.query(
        `{ company(domain: "${domain}") { name } domainInfo(domain: "${domain}") { isRegistered } }`,
      );
      expect(res.body.data).toEqual({ company: null, domainInfo: { isRegistered: false } });
      expect(res.body.errors).toEqual([
        expect.objectContaining({ path: ['company'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) }),
      ]);
    },
  );

  it('the failure inputs of docs/frontend.md: handles starting with no-such- are NOT_FOUND; the same without it are found', async ({
    sandbox: gw,
  }) => {
    const res = await gw.query(
      '{ photosocialProfile(username: "no_such_user") { username } professionalnetProfile(handle: "no-such-person") { handle } found: professionalnetProfile(handle: "such-person") { handle } }',
    );
    expect(res.body.data).toEqual({
      photosocialProfile: null,
      professionalnetProfile: null,
      found: { handle: 'such-person' },
    });
    expect(res.body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([
      [['photosocialProfile'], 'NOT_FOUND'],
      [['professionalnetProfile'], 'NOT_FOUND'],
    ]);
  });

  it('a domain whose ticker the financial sandbox does not know is a private company: no ticker, no financial lookup', async ({
    sandbox: gw,
  }) => {
    const { body } = await gw.query(
      '{ company(domain: "zzshop.com") { name type ticker financialProfile { symbol } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.company).toEqual({ name: 'Zzshop', type: 'private', ticker: null, financialProfile: null });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('names, prices, follower counts and dates differ from one input to another', async () => {
    const followers = await Promise.all(
      ['natgeo', 'ava.lindqvist', 'bench'].map((username) => ask('get_photosocial_profile', { username })),
    );
    const names = followers.map(({ body }) => body.response.response.full_name);
    expect(names).toEqual(['Natgeo', 'Ava Lindqvist', 'Bench']);
    expect(new Set(followers.map(({ body }) => body.response.response.follower_count)).size).toBe(3);

    const domains = await Promise.all(
      ['stripe.com', 'github.com', 'nike.com'].map((domain) => ask('domain_info', { domain })),
    );
    expect(new Set(domains.map(({ body }) => body.response.create_date)).size).toBe(3);
    expect(new Set(domains.map(({ body }) => body.response.expiry_date)).size).toBe(3);

    const { body: listings } = await ask('company_financial_profile', { company: 'STRIPE, VOD.L, XYZ-A, XYZ-B' });
    expect(new Set(listings.response.map((p: { price: number }) => p.price)).size).toBe(4);
    expect(new Set(listings.response.map((p: { ipoDate: string }) => p.ipoDate)).size).toBe(3); // two classes of one company

    const companies = await Promise.all(
      ['stripe.com', 'github.com', 'zzshop.com'].map((domain) => ask('get_company_object', { domain })),
    );
    expect(new Set(companies.map(({ body }) => body.response.foundedYear)).size).toBe(3);
    expect(new Set(companies.map(({ body }) => body.response.twitter.followers)).size).toBe(3);
  });

  it('answers the same input the same way in every process (only the image origin differs)', async () => {
    for (const [action, body] of Object.entries(BODIES)) {
      const [mine, theirs] = await Promise.all([ask(action, body), ask(action, body, other)]);
      expect(JSON.stringify(theirs.body).replaceAll(other.url, plain.url)).toBe(JSON.stringify(mine.body));
    }
  });

  it('every image URL is a small PNG the sandbox itself serves; no answer names an image host that does not exist', async () => {
    expect(Object.keys(BODIES).sort()).toEqual(Object.keys(SANDBOX_ACTIONS).sort());
    const images = new Set<string>();
    for (const [action, body] of Object.entries(BODIES)) {
      const { status, body: envelope } = await ask(action, body);
      expect(status, action).toBe(200);
      for (const [key, text] of strings(envelope)) {
        if (
          /image|logo|avatar|thumbnail|pic|banner|icon|selfie|favicon|picture/i.test(key) &&
          /^(https?|data):/.test(text)
        ) {
          expect(
            text.startsWith('data:image/png;base64,') || text.startsWith(`${plain.url}/images/`),
            `${action} ${key}: ${text.slice(0, 80)}`,
          ).toBe(true);
        }
        expect(text, `${action} ${key}`).not.toMatch(
          /https?:\/\/[^/]*(videosite-img|microblog-images|company-data|financialmodelingprep|cdn\.photosocial|media\.professionalnet)\./,
        );
        if (text.startsWith(`${plain.url}/images/`)) images.add(text);
      }
    }
    expect(images.size).toBeGreaterThan(30);
    for (const url of images) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.length).toBeLessThan(8_192);
    }
  });

  it('serves images without a token, for HEAD too, outside the rate limit and the call counts; anything else under /images is 404', async () => {
    const url = `${sandbox.url}/images/logo/stripe.com.png`;
    for (let i = 0; i < 8; i += 1) expect((await fetch(url)).status).toBe(200); // the 5-a-minute sandbox
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    expect(head.headers.get('cache-control')).toContain('immutable');
    expect([...sandbox.calls.keys()]).not.toContain('images');
    for (const path of [
      '/images/poster/x.png',
      '/images/logo/UPPER.png',
      '/images/logo/x.jpg',
      '/images/logo/../x.png',
    ]) {
      expect((await fetch(`${sandbox.url}${path}`)).status, path).toBe(404);
    }
  });

  it('a search result, its channel page and its transcript tell the same video', async ({ sandbox: gw }) => {
    const { body } = await gw.query(`{
      videositeSearch(query: "how zippers are made") {
        videos {
          videoId title viewCount
          transcript { title video { videoId viewCount channelName } }
          channel { title details { channel { title } videosSections { videos { videoId title viewCount } } } }
        }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const videos = body.data!.videositeSearch.videos;
    expect(videos.map((video: { title: string }) => video.title)).toEqual([
      'How a Zipper Is Made',
      'How a Zipper Is Made',
      'How a Zipper Is Made',
    ]);
    for (const video of videos) {
      expect(video.transcript).toEqual({
        title: video.title,
        video: { videoId: video.videoId, viewCount: video.viewCount, channelName: video.channel.title },
      });
      expect(video.channel.details.channel.title).toBe(video.channel.title);
    }
    const third = videos[2];
    const shelf = third.channel.details.videosSections[0].videos;
    expect(shelf).toContainEqual({ videoId: third.videoId, title: third.title, viewCount: third.viewCount });
  });
});
