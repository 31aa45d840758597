import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { TEN_COMPANIES_WITH_SYMBOLS } from '../support/samples.js';

/** Links against the sandbox, with per-action upstream call counts. No cross-request cache. */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startGateway({ CACHE_ENABLED: 'false', COST_BUDGET: '200' });
});
afterAll(() => gw.close());

const ACTIONS = [
  'get_company_object',
  'company_financial_profile',
  'domain_info',
  'run_videosite_search',
  'get_videosite_channel',
  'get_videosite_transcript',
];

/**
 * Runs a query, checks it answered without errors, and returns it with the upstream calls it made, per
 * action (only actions that were called).
 */
async function measure(query: string, variables?: Record<string, unknown>) {
  const before = new Map(ACTIONS.map((a) => [a, gw.gateway.sandbox!.calls.get(a) ?? 0]));
  const response = await gw.query(query, variables);
  expect(response.body.errors).toBeUndefined();
  const calls: Record<string, number> = {};
  for (const action of ACTIONS) {
    const made = (gw.gateway.sandbox!.calls.get(action) ?? 0) - before.get(action)!;
    if (made > 0) calls[action] = made;
  }
  return { ...response, calls };
}

describe('company links', () => {
  it('Company.financialProfile (by ticker) and Company.domainInfo (by domain): one call each', async () => {
    const { body, calls } = await measure(`{
      company(domain: "HubSpot.com") {
        ticker
        financialProfile { symbol companyName exchangeShortName }
        domainInfo { domainName isRegistered registrar { name } }
      }
    }`);
    expect(body.data!.company).toEqual({
      ticker: 'HUBS',
      financialProfile: { symbol: 'HUBS', companyName: 'HubSpot, Inc.', exchangeShortName: 'NYSE' },
      domainInfo: {
        domainName: 'hubspot.com',
        isRegistered: true,
        registrar: { name: 'Placeholder Registry Services Ltd' },
      },
    });
    expect(calls).toEqual({ get_company_object: 1, company_financial_profile: 1, domain_info: 1 });
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 3, cost: { estimated: 3, budget: 200 } });
  });

  it('DomainRecord.company (by domain name), and on to its financial profile', async () => {
    const { body, calls } = await measure(
      '{ domainInfo(domain: "apple.com") { domainName company { name ticker financialProfile { symbol companyName } } } }',
    );
    expect(body.data!.domainInfo).toEqual({
      domainName: 'apple.com',
      company: { name: 'Apple', ticker: 'AAPL', financialProfile: { symbol: 'AAPL', companyName: 'Apple Inc.' } },
    });
    expect(calls).toEqual({ domain_info: 1, get_company_object: 1, company_financial_profile: 1 });
  });

  it('DomainRecord.company of an unregistered domain is null with no company call and no error', async () => {
    const { body, calls } = await measure(
      '{ domainInfo(domain: "unregistered-name.com") { isRegistered company { name } } }',
    );
    expect(body.data!.domainInfo).toEqual({ isRegistered: false, company: null });
    expect(calls).toEqual({ domain_info: 1 });
  });

  it('FinancialProfile.company (by the registrable domain of its website): one financial call, one company call per site', async () => {
    const { body, calls } = await measure(
      '{ financialProfiles(symbols: ["HUBS", "NKE", "GOOGL"]) { symbol website company { domain ticker } } }',
    );
    expect(body.data!.financialProfiles).toEqual([
      { symbol: 'HUBS', website: 'https://www.hubspot.com', company: { domain: 'hubspot.com', ticker: 'HUBS' } },
      { symbol: 'NKE', website: 'https://investors.nike.com', company: { domain: 'nike.com', ticker: 'NKE' } },
      { symbol: 'GOOGL', website: 'https://abc.xyz', company: { domain: 'abc.xyz', ticker: 'GOOGL' } },
    ]);
    expect(calls).toEqual({ company_financial_profile: 1, get_company_object: 3 });
    expect(body.extensions!.gateway.cost).toEqual({ estimated: 4, budget: 200 });
  });

  it('Company.ultimateParent that is the company itself shares its lookup; a parent with no domain is null with no call', async () => {
    const { body, calls } = await measure(
      '{ company(domain: "hubspot.com") { name parentDomain parent { name } ultimateParent { domain name } } }',
    );
    expect(body.data!.company).toEqual({
      name: 'Hubspot',
      parentDomain: null,
      parent: null,
      ultimateParent: { domain: 'hubspot.com', name: 'Hubspot' },
    });
    expect(calls).toEqual({ get_company_object: 1 });
  });
});

describe('batching across links', () => {
  it('companies (aliases) with their financial profiles and a financialProfiles field make ONE financial call', async () => {
    const { body, calls } = await measure(`{
      apple: company(domain: "apple.com") { financialProfile { symbol price } }
      nike: company(domain: "nike.com") { financialProfile { symbol } }
      hubspot: company(domain: "hubspot.com") { financialProfile { symbol } domainInfo { company { financialProfile { symbol } } } }
      listed: financialProfiles(symbols: ["KO", "aapl"]) { symbol }
    }`);
    expect(body.data).toEqual({
      apple: { financialProfile: { symbol: 'AAPL', price: 228.52 } },
      nike: { financialProfile: { symbol: 'NKE' } },
      hubspot: {
        financialProfile: { symbol: 'HUBS' },
        domainInfo: { company: { financialProfile: { symbol: 'HUBS' } } },
      },
      listed: [{ symbol: 'KO' }, { symbol: 'AAPL' }],
    });
    // hubspot.com's domain record links back to hubspot.com: the same company lookup, no second call.
    expect(calls).toEqual({ get_company_object: 3, domain_info: 1, company_financial_profile: 1 });
  });

  it("ten companies' financial profiles through company(...) aliases: ten company calls and ONE financial call", async () => {
    const { body, calls } = await measure(TEN_COMPANIES_WITH_SYMBOLS);
    expect(Object.values(body.data!).map((c: any) => c.financialProfile.symbol)).toEqual([
      'AAPL',
      'NKE',
      'MSFT',
      'GOOGL',
      'AMZN',
      'TSLA',
      'META',
      'NVDA',
      'IBM',
      'ORCL',
    ]);
    expect(calls).toEqual({ get_company_object: 10, company_financial_profile: 1 });
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 11, cost: { estimated: 11, budget: 200 } });
  });
});

describe('video links', () => {
  const CHANNEL = 'https://www.videosite.example/@sandboxstudio';

  it('Video.transcript on search results, keyed by the canonical watch URL', async () => {
    const { body, calls } = await measure(
      '{ videositeSearch(query: "zippers") { videos { id: videoId link transcript { requestedUrl title } } } }',
    );
    expect(body.data!.videositeSearch.videos).toEqual([
      {
        id: 'qtXRPv3AMPx',
        link: 'https://www.videosite.example/watch?v=qtXRPv3AMPx',
        transcript: {
          requestedUrl: 'https://www.videosite.example/watch?v=qtXRPv3AMPx',
          title: 'How a Zipper Is Made',
        },
      },
      {
        id: 'dD2FUcWGjqm',
        link: 'https://www.videosite.example/watch?v=dD2FUcWGjqm',
        transcript: {
          requestedUrl: 'https://www.videosite.example/watch?v=dD2FUcWGjqm',
          title: 'How a Zipper Is Made',
        },
      },
      {
        id: 'RIUSIIulSwM',
        link: 'https://www.videosite.example/watch?v=RIUSIIulSwM&pp=ygUHc2FuZGJveA%3D%3D',
        transcript: {
          requestedUrl: 'https://www.videosite.example/watch?v=RIUSIIulSwM',
          title: 'How Pencils Are Made',
        },
      },
    ]);
    expect(calls).toEqual({ run_videosite_search: 1, get_videosite_transcript: 3 });
    // Without `first` the estimate counts the 20 videos a result page can hold.
    expect(body.extensions!.gateway.cost).toEqual({ estimated: 21, budget: 200 });
  });

  it('the same video reached from a search, a channel shelf and the root field is ONE transcript call', async () => {
    const { body, calls } = await measure(`{
      videositeSearch(query: "zippers") { videos { id: videoId transcript { requestedUrl } } }
      videositeChannel(url: "${CHANNEL}") {
        highlightedVideo { id: videoId transcript { requestedUrl } }
        videosSections { videos { id: videoId transcript { requestedUrl } } }
      }
      videositeTranscript(url: "https://www.videosite.example/watch?v=RIUSIIulSwM") { video { id: videoId } }
    }`);
    const fromSearch = body.data!.videositeSearch.videos.find((v: any) => v.id === 'RIUSIIulSwM');
    const fromShelf = body.data!.videositeChannel.videosSections[0].videos.find((v: any) => v.id === 'RIUSIIulSwM');
    expect(fromSearch.transcript).toEqual({ requestedUrl: 'https://www.videosite.example/watch?v=RIUSIIulSwM' });
    expect(fromShelf.transcript).toEqual(fromSearch.transcript);
    expect(body.data!.videositeTranscript).toEqual({ video: { id: 'RIUSIIulSwM' } });
    expect(body.data!.videositeChannel.highlightedVideo.transcript).toEqual({
      requestedUrl: 'https://www.videosite.example/watch?v=ANNZbQIEs9h',
    });
    // 3 search videos + 3 on the "Videos" shelf + the highlighted one (also the "Popular videos" shelf),
    // one video in both search and shelf: 6 distinct videos, 6 transcript calls for 9 transcript fields.
    expect(calls).toEqual({ run_videosite_search: 1, get_videosite_channel: 1, get_videosite_transcript: 6 });
  });

  it('Video.transcript on shorts and on the highlighted video', async () => {
    const { body, calls } = await measure(`{
      videositeSearch(query: "zippers") { shorts { items { id: videoId transcript { requestedUrl } } } }
      videositeChannel(url: "${CHANNEL}") { highlightedVideo { transcript { title text } } }
    }`);
    expect(body.data!.videositeSearch.shorts[0].items).toEqual([
      { id: '4sKlzZweDgA', transcript: { requestedUrl: 'https://www.videosite.example/watch?v=4sKlzZweDgA' } },
      { id: 'VWyE20ZU9dx', transcript: { requestedUrl: 'https://www.videosite.example/watch?v=VWyE20ZU9dx' } },
    ]);
    expect(body.data!.videositeChannel.highlightedVideo.transcript.title).toBe('How Glass Bottles Are Made');
    expect(body.data!.videositeChannel.highlightedVideo.transcript.text).toMatch(/^Sand, soda ash/);
    expect(calls).toEqual({ run_videosite_search: 1, get_videosite_channel: 1, get_videosite_transcript: 3 });
  });

  it("VideositeSearchChannel.details: the whole channel from a result's channel link, one call per channel, shared with the root field", async () => {
    const { body, calls } = await measure(`{
      videositeSearch(query: "zippers") { videos { channel { title details { requestedUrl channel { handle } } } } }
      videositeChannel(url: "${CHANNEL}") { channel { handle } }
    }`);
    expect(body.data!.videositeSearch.videos.map((v: any) => v.channel)).toEqual([
      { title: 'Sandbox Studio', details: { requestedUrl: CHANNEL, channel: { handle: '@sandboxstudio' } } },
      {
        title: 'Sandbox Vlogs',
        details: { requestedUrl: 'https://www.videosite.example/@sandboxvlogs', channel: { handle: '@sandboxvlogs' } },
      },
      { title: 'Sandbox Studio', details: { requestedUrl: CHANNEL, channel: { handle: '@sandboxstudio' } } },
    ]);
    expect(calls).toEqual({ run_videosite_search: 1, get_videosite_channel: 2 });
  });
});

describe('the root transcript field and the video links share lookups', () => {
  it("a root lookup by another form of the URL and a search result's link to the same video: one transcript call", async () => {
    const { body, calls } = await measure(`{
      videositeTranscript(url: "https://m.videosite.example/shorts/YtsX3WCKkxa") { title }
      videositeSearch(query: "sandbox") { videos { id: videoId transcript { title } } }
    }`);
    const video = body.data!.videositeSearch.videos.find((v: { id: string }) => v.id === 'YtsX3WCKkxa');
    expect(video.transcript).toEqual(body.data!.videositeTranscript);
    const distinctVideos = new Set(body.data!.videositeSearch.videos.map((v: { id: string }) => v.id)).size;
    // One call per distinct video of the search; the root lookup adds none.
    expect(calls.get_videosite_transcript).toBe(distinctVideos);
  });
});
