import { beforeEach, describe, expect, it } from 'vitest';
import { upstreamGatewayFor } from '../support/fixtures.js';
import { json, type RecordedCall } from '../support/fault-upstream.js';
import { sleep, until } from '../support/wait.js';

/** Links against a test upstream: missing keys, failed links, timing. No cross-request cache. */
const rig = upstreamGatewayFor({ CACHE_ENABLED: 'false' });
beforeEach(() => {
  rig.up.calls.length = 0;
});

type Answers = Record<string, (call: RecordedCall) => unknown>;

/** Answers each action with a 200 envelope whose `response` the test gives, after an optional delay. */
function answer(answers: Answers, delayMs: (call: RecordedCall) => number = () => 0) {
  rig.up.handle(async (call, _req, res) => {
    const make = answers[call.action];
    if (!make) return json(res, 404, { status: 404, response: null, error: "The requested page doesn't exist." });
    await sleep(delayMs(call));
    json(res, 200, { status: 200, response: make(call) });
  });
}

const actions = () => rig.up.calls.map((c) => c.action);

function profile(symbol: string, website: string | null) {
  return { symbol, companyName: `${symbol} Corp`, price: 10, website };
}

describe('links whose key is missing or malformed', () => {
  it('a company with no ticker, a malformed ticker or no parents: null links, no call, no error', async () => {
    answer({
      get_company_object: (call) =>
        call.body.domain === 'no-ticker.example'
          ? {
              domain: 'no-ticker.example',
              name: 'No Ticker',
              ticker: null,
              parent: { domain: null },
              ultimateParent: null,
            }
          : {
              domain: 'bad-ticker.example',
              name: 'Bad Ticker',
              ticker: 'N/A; DROP',
              parent: { domain: 'not a domain' },
            },
    });
    const { body } = await rig.gw.query(`{
      a: company(domain: "no-ticker.example") { name ticker financialProfile { symbol } parent { name } ultimateParent { name } }
      b: company(domain: "bad-ticker.example") { ticker financialProfile { symbol } parent { name } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      a: { name: 'No Ticker', ticker: null, financialProfile: null, parent: null, ultimateParent: null },
      b: { ticker: 'N/A; DROP', financialProfile: null, parent: null },
    });
    expect(actions().sort()).toEqual(['get_company_object', 'get_company_object']);
  });

  it('a financial profile with no website or an unusable one: company null, no call, no error', async () => {
    answer({
      company_financial_profile: () => [
        profile('AAA', null),
        profile('BBB', 'ftp://files.example'),
        profile('CCC', 'https://10.0.0.1/'),
      ],
    });
    const { body } = await rig.gw.query(
      '{ financialProfiles(symbols: ["AAA", "BBB", "CCC"]) { symbol company { name } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.financialProfiles).toEqual([
      { symbol: 'AAA', company: null },
      { symbol: 'BBB', company: null },
      { symbol: 'CCC', company: null },
    ]);
    expect(actions()).toEqual(['company_financial_profile']);
  });

  it('a website on a country domain links to its registrable domain', async () => {
    answer({
      company_financial_profile: () => [profile('BBC', 'https://www.bbc.co.uk/corporate')],
      get_company_object: (call) => ({ domain: call.body.domain, name: 'BBC' }),
    });
    const { body } = await rig.gw.query('{ financialProfiles(symbols: ["BBC"]) { company { domain } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data!.financialProfiles).toEqual([{ company: { domain: 'bbc.co.uk' } }]);
    expect(rig.up.calls.map((c) => [c.action, c.body])).toEqual([
      ['company_financial_profile', { company: 'BBC' }],
      ['get_company_object', { domain: 'bbc.co.uk' }],
    ]);
  });

  it('videos and result channels with no link: transcript and details null, no call, no error', async () => {
    answer({
      run_videosite_search: () => ({
        videos: [
          { id: 'noLink00001', title: 'No link', channel: { title: 'No link either' } },
          { id: 'badLink0002', link: 'javascript:alert(1)', channel: { title: 'Bad', link: 'mailto:x@example.com' } },
        ],
      }),
    });
    const { body } = await rig.gw.query(
      '{ videositeSearch(query: "x") { videos { id: videoId transcript { title } channel { title details { requestedUrl } } } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.videositeSearch.videos).toEqual([
      { id: 'noLink00001', transcript: null, channel: { title: 'No link either', details: null } },
      { id: 'badLink0002', transcript: null, channel: { title: 'Bad', details: null } },
    ]);
    expect(actions()).toEqual(['run_videosite_search']);
  });
});

describe('failed link lookups', () => {
  it('are null with their coded error at their path, while the rest resolves', async () => {
    // The company is found, its ticker is unknown upstream (an empty array), its domain record is a 404.
    rig.up.handle(async (call, _req, res) => {
      if (call.action === 'domain_info')
        return json(res, 404, { status: 404, response: null, error: "The requested page doesn't exist." });
      if (call.action === 'get_company_object')
        return json(res, 200, { status: 200, response: { domain: call.body.domain, name: 'Acme', ticker: 'ACME' } });
      return json(res, 200, { status: 200, response: [] });
    });
    const { status, body } = await rig.gw.query(
      '{ company(domain: "acme.example") { name financialProfile { symbol } domainInfo { domainName } } }',
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ company: { name: 'Acme', financialProfile: null, domainInfo: null } });
    const byPath = Object.fromEntries(body.errors!.map((e) => [e.path!.join('.'), e.extensions]));
    expect(byPath).toEqual({
      'company.financialProfile': expect.objectContaining({
        code: 'NOT_FOUND',
        action: 'company_financial_profile',
        symbol: 'ACME',
      }),
      'company.domainInfo': expect.objectContaining({ code: 'NOT_FOUND', action: 'domain_info' }),
    });
  });
});

describe('symbol batching when companies answer at different times', () => {
  it('ten companies answering 0 to 90 ms apart: their ten tickers and a financialProfiles field go up in ONE call', async () => {
    const tickers = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF', 'GGG', 'HHH', 'III', 'JJJ'];
    const domainIndex = (domain: string) => Number(/^c(\d)\.example$/.exec(domain)![1]);
    answer(
      {
        get_company_object: (call) => ({ domain: call.body.domain, ticker: tickers[domainIndex(call.body.domain)] }),
        company_financial_profile: (call) =>
          String(call.body.company)
            .split(', ')
            .map((symbol) => profile(symbol, null)),
      },
      (call) => (call.action === 'get_company_object' ? domainIndex(call.body.domain) * 10 : 0),
    );
    const query = `{
      ${tickers.map((_, i) => `c${i}: company(domain: "c${i}.example") { financialProfile { symbol } }`).join('\n')}
      listed: financialProfiles(symbols: ["ZZZ", "AAA"]) { symbol }
    }`;
    const { body } = await rig.gw.query(query);
    expect(body.errors).toBeUndefined();
    expect(tickers.map((_, i) => body.data![`c${i}`].financialProfile.symbol)).toEqual(tickers);
    expect(body.data!.listed).toEqual([{ symbol: 'ZZZ' }, { symbol: 'AAA' }]);
    const financial = rig.up.calls.filter((c) => c.action === 'company_financial_profile');
    expect(financial).toHaveLength(1);
    expect(financial[0]!.body.company.split(', ').sort()).toEqual([...tickers, 'ZZZ'].sort());
    expect(actions().filter((a) => a === 'get_company_object')).toHaveLength(10);
    expect(body.extensions!.gateway).toMatchObject({ upstreamCalls: 11, cost: { estimated: 11, budget: 50 } });
  });

  it('without financial links, a financialProfiles field does not wait for slower lookups', async () => {
    // The company lookup is held until the financial call arrives (5 s at most): had the financial
    // call waited for it, it would arrive only after the company answer.
    let companyAnswered = false;
    let companyAnsweredBeforeFinancial: boolean | undefined;
    const financialCalled = () => rig.up.calls.some((c) => c.action === 'company_financial_profile');
    rig.up.handle(async (call, _req, res) => {
      if (call.action === 'company_financial_profile') {
        companyAnsweredBeforeFinancial = companyAnswered;
        return json(res, 200, { status: 200, response: [profile('AAA', null)] });
      }
      await until(financialCalled, 5000).catch(() => undefined);
      companyAnswered = true;
      json(res, 200, { status: 200, response: { domain: call.body.domain, ticker: 'AAA' } });
    });
    const { body } = await rig.gw.query(
      '{ company(domain: "slow.example") { ticker } financialProfiles(symbols: ["AAA"]) { symbol } }',
    );
    expect(body.errors).toBeUndefined();
    expect(companyAnsweredBeforeFinancial).toBe(false);
  });
});
