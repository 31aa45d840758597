import { describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { json, upstreamEnv } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { answersWithCalls, rejectsBeforeUpstream } from '../support/assertions.js';
import { requireRedisInCi } from '../support/redis.js';

const EVERY_FIELD = `symbol companyName price change range priceRange { low high } beta averageVolume marketCap lastDividend
  currency exchange exchangeShortName cik isin cusip industry sector website description ceo country fullTimeEmployees
  fullTimeEmployeesText phone address city state zip dcf dcfDiff logoUrl ipoDate isDefaultImage isEtf isActivelyTrading isAdr isFund`;

describe('financialProfiles against the sandbox', () => {
  it('resolves every field of a profile', async ({ sandbox: gw }) => {
    const { body } = await gw.query(`{ financialProfiles(symbols: ["hubs"]) { ${EVERY_FIELD} } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.financialProfiles).toEqual([
      {
        symbol: 'HUBS',
        companyName: 'HubSpot, Inc.',
        price: 742.3,
        change: 12.08,
        range: '434.84-768.36',
        priceRange: { low: 434.84, high: 768.36 },
        beta: 1.66,
        averageVolume: 611905,
        marketCap: 37885576433,
        lastDividend: 0,
        currency: 'USD',
        exchange: 'New York Stock Exchange',
        exchangeShortName: 'NYSE',
        cik: '0001404655',
        isin: 'US4435731009',
        cusip: '443573100',
        industry: 'Software - Application',
        sector: 'Technology',
        website: 'https://www.hubspot.com', // exactly as the upstream wrote it
        description:
          'HubSpot, Inc. operates in software - application within the technology sector, headquartered in Cambridge, MA.',
        ceo: 'Ms. Yamini Rangan',
        country: 'US',
        fullTimeEmployees: 7663,
        fullTimeEmployeesText: '7663',
        phone: '888 482 7768',
        address: '2 Canal Park',
        city: 'Cambridge',
        state: 'MA',
        zip: '02141',
        dcf: 214.32,
        dcfDiff: 527.98,
        logoUrl: `${gw.gateway.sandbox!.url}/images/logo/hubspot.com.png`, // the company's logo
        ipoDate: '2014-10-09',
        isDefaultImage: false,
        isEtf: false,
        isActivelyTrading: true,
        isAdr: false,
        isFund: false,
      },
    ]);
  });

  it('batches two aliases and a list naming four symbols, one repeated in another case, into ONE call', async ({
    sandbox: gw,
  }) => {
    const { body } = await answersWithCalls(
      gw,
      'company_financial_profile',
      `{
      a: financialProfiles(symbols: ["AAPL"]) { symbol }
      b: financialProfiles(symbols: ["nke", "MSFT"]) { symbol price }
      c: financialProfiles(symbols: ["aapl", "KO", "Msft", "NKE"]) { symbol }
    }`,
      {
        a: [{ symbol: 'AAPL' }],
        b: [
          { symbol: 'NKE', price: 76.41 },
          { symbol: 'MSFT', price: 415.49 },
        ],
        c: [{ symbol: 'AAPL' }, { symbol: 'KO' }, { symbol: 'MSFT' }, { symbol: 'NKE' }],
      },
    );
    expect(body.extensions?.gateway.upstreamCalls).toBe(1);
  });

  it('returns null with NOT_FOUND at the index of a symbol the upstream omits; the others resolve', async ({
    sandbox: gw,
  }) => {
    const { body } = await gw.query('{ financialProfiles(symbols: ["AAPL", "NOPE", "KO"]) { symbol } }');
    expect(body.data!.financialProfiles).toEqual([{ symbol: 'AAPL' }, null, { symbol: 'KO' }]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({
      path: ['financialProfiles', 1],
      extensions: { code: 'NOT_FOUND', action: 'company_financial_profile', symbol: 'NOPE' },
    });
  });

  it.for([
    ['[]', 'at least one'],
    [JSON.stringify(Array.from({ length: 101 }, (_, i) => `S${i}`)), 'at most 100'],
    ['["AAPL", ""]', 'stock symbols'],
    ['["AAPL; DROP"]', 'stock symbols'],
    ['["TOOLONGSYMBOL1234"]', 'stock symbols'],
  ])('rejects symbols %s before any upstream call', async ([symbols, message], { sandbox: gw }) => {
    await rejectsBeforeUpstream(gw, `{ financialProfiles(symbols: ${symbols}) { symbol } }`, undefined, {
      field: 'financialProfiles',
      argument: 'symbols',
      message,
    });
  });
});

describe('financialProfiles against a test upstream', () => {
  const { up, gw } = upstreamGatewayFor({}, { financialBatchSize: 3 });
  /** Forgets earlier calls and answers each call with a profile for every symbol it names. */
  function answerEachSymbol() {
    up.calls.length = 0;
    up.handle((call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: String(call.body.company)
          .split(', ')
          .map((symbol) => ({ symbol, price: 1 })),
      }),
    );
  }

  it('writes symbols "A, B, C" and splits only above the batch size (3 here)', async () => {
    answerEachSymbol();
    const { body } = await gw.query('{ financialProfiles(symbols: ["a", "b", "c", "d", "A"]) { symbol } }');
    expect(body.errors).toBeUndefined();
    expect(body.data!.financialProfiles.map((p: { symbol: string }) => p.symbol)).toEqual(['A', 'B', 'C', 'D', 'A']);
    expect(up.calls.map((call) => call.body)).toEqual([{ company: 'A, B, C' }, { company: 'D' }]);
    expect(up.calls[0]!.authorization).toBe(`Bearer ${up.token}`);
  });

  it('sends two aliases and a list of four symbols, one repeated in another case, as ONE call naming four distinct symbols', async () => {
    answerEachSymbol();
    const big = await startGateway(upstreamEnv(up));
    try {
      const { body } = await big.query(`{
        a: financialProfiles(symbols: ["AAPL"]) { symbol }
        b: financialProfiles(symbols: ["nke"]) { symbol }
        c: financialProfiles(symbols: ["MSFT", "aapl", "KO", "NKE"]) { symbol }
      }`);
      expect(body.errors).toBeUndefined();
      expect(up.calls).toHaveLength(1);
      expect(up.calls[0]!.body.company.split(', ').sort()).toEqual(['AAPL', 'KO', 'MSFT', 'NKE']);
      expect(body.extensions!.gateway.upstreamCalls).toBe(1);
    } finally {
      await big.close();
    }
  });

  it('reads a whole and a fractional lastDiv, and a range it cannot parse as null numbers', async () => {
    up.handle((_call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: [
          { symbol: 'X', lastDiv: 2, range: '1.5-2.25', mktCap: 37885576433 },
          { symbol: 'Y', lastDiv: 0.24, range: 'n/a', fullTimeEmployees: 'many' },
        ],
      }),
    );
    const { body } = await gw.query(
      '{ financialProfiles(symbols: ["X", "Y"]) { lastDividend range priceRange { low high } marketCap fullTimeEmployees fullTimeEmployeesText } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.financialProfiles).toEqual([
      {
        lastDividend: 2,
        range: '1.5-2.25',
        priceRange: { low: 1.5, high: 2.25 },
        marketCap: 37885576433,
        fullTimeEmployees: null,
        fullTimeEmployeesText: null,
      },
      {
        lastDividend: 0.24,
        range: 'n/a',
        priceRange: null,
        marketCap: null,
        fullTimeEmployees: null,
        fullTimeEmployeesText: 'many',
      },
    ]);
  });

  it('gives every symbol NOT_FOUND when the upstream returns an empty array', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: [] }));
    const { body } = await gw.query('{ financialProfiles(symbols: ["P", "Q"]) { symbol } }');
    expect(body.data!.financialProfiles).toEqual([null, null]);
    expect(body.errors!.map((e) => e.extensions!.code)).toEqual(['NOT_FOUND', 'NOT_FOUND']);
  });
});

const redisUp = await requireRedisInCi();

describe('a NOT_FOUND answered from the cache reads as the first one did', () => {
  /** A symbol no test asked before; the first answer shows the sandbox does not know it. */
  const unknownSymbol = () => `ZQ${process.pid % 1000}${Math.floor(Math.random() * 1e6)}`;
  const QUERY = (symbol: string) => `{ financialProfiles(symbols: ["KO", "${symbol.toLowerCase()}"]) { symbol } }`;

  async function expectSameErrorFromCache(first: TestGateway, second: TestGateway): Promise<void> {
    const symbol = unknownSymbol();
    const fresh = (await first.query(QUERY(symbol))).body;
    expect(fresh.errors).toEqual([
      {
        message: `No financial profile for symbol ${symbol}`,
        path: ['financialProfiles', 1],
        extensions: { code: 'NOT_FOUND', action: 'company_financial_profile', symbol },
      },
    ]);
    expect(fresh.extensions!.gateway.lookups.find((l: { key: string }) => l.key === symbol)).toMatchObject({
      source: 'upstream',
    });
    const cached = (await second.query(QUERY(symbol))).body;
    expect(cached.extensions!.gateway.lookups.find((l: { key: string }) => l.key === symbol)).toMatchObject({
      source: 'cache',
    });
    expect(cached.data).toEqual(fresh.data);
    expect(cached.errors).toEqual(fresh.errors);
  }

  it('from the memory cache', async ({ startGateway: start }) => {
    const gw = await start();
    await expectSameErrorFromCache(gw, gw);
  });

  it.skipIf(!redisUp)('from Redis, read by another replica', async ({ startGateway: start, redis }) => {
    const env = { ...redis.env, CACHE_ENABLED: 'true' };
    await expectSameErrorFromCache(await start(env), await start(env));
  });
});
