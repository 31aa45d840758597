import { describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { json } from '../support/fault-upstream.js';
import { answered, answersWithCalls, itRejectsBeforeUpstream, smallerThanRest } from '../support/assertions.js';
import { sampleDigits, sampleUuid } from '../../src/sandbox/data/identity.js';

const CATEGORY =
  'sector industryGroup industry subIndustry gicsCode sicCode sic4Codes naicsCode naics6Codes naics6Codes2022';
const METRICS = `employees employeesRange employeeCountRange { min max } marketCap annualRevenue estimatedAnnualRevenue
  estimatedAnnualRevenueRange { min max } raised fiscalYearEnd alexaGlobalRank alexaUsRank trafficRank`;
const TWITTER = 'handle accountId bio location avatarUrl siteUrl followerCount followingCount';
const EVERY_FIELD = `
  companyId domain domainAliases name legalName description type ticker foundedYear logoUrl phone location
  geo { streetNumber streetName subPremise streetAddress city postalCode state stateCode country countryCode latitude longitude }
  timeZone utcOffset isEmailProvider emailProviderDomain
  category { ${CATEGORY} }
  tags tech techCategories
  metrics { ${METRICS} }
  identifiers { usCik usEin }
  parentDomain ultimateParentDomain
  site { emailAddresses phoneNumbers }
  businessDirectory { handle } professionalNetwork { handle } socialNetwork { handle likes } microblog { ${TWITTER} }
  indexedAt`;

describe('company against the sandbox', () => {
  it('resolves every field of a company', async ({ sandbox: gw }) => {
    const { body } = await answered(gw, `{ company(domain: "HubSpot.com.") { ${EVERY_FIELD} } }`);
    expect(body.data!.company).toEqual({
      companyId: sampleUuid('company:hubspot.com'),
      domain: 'hubspot.com',
      domainAliases: ['hubspot.net', 'hubspot-inbound.com', 'hubspot.de'],
      name: 'Hubspot',
      legalName: 'HubSpot, Inc.', // the HUBS listing's name: the company and its financial profile agree
      description:
        'Hubspot offers a cloud-based customer platform of marketing, sales, service, content and operations software for mid-market businesses.',
      type: 'public',
      ticker: 'HUBS',
      foundedYear: 1992,
      logoUrl: `${gw.gateway.sandbox!.url}/images/logo/hubspot.com.png`,
      phone: '+1 888-482-7768',
      location: '2 Canal Park, Cambridge, MA 02141, USA',
      geo: {
        streetNumber: '2',
        streetName: 'Canal Park',
        subPremise: 'Building 2',
        streetAddress: '2 Canal Park',
        city: 'Cambridge',
        postalCode: '02141',
        state: 'Massachusetts',
        stateCode: 'MA',
        country: 'United States',
        countryCode: 'US',
        latitude: 42.3587607,
        longitude: -71.0746492,
      },
      timeZone: 'America/New_York',
      utcOffset: -5,
      isEmailProvider: false,
      emailProviderDomain: null,
      category: {
        sector: 'Information Technology',
        industryGroup: 'Software & Services',
        industry: 'Software',
        subIndustry: 'Application Software',
        gicsCode: '45103010',
        sicCode: '73',
        sic4Codes: ['7372'],
        naicsCode: '51',
        naics6Codes: ['513210', '541511'],
        naics6Codes2022: ['513210'],
      },
      tags: ['Technology', 'SAAS', 'B2B', 'Enterprise', 'Marketing Automation', 'CRM'],
      tech: ['google_tag_manager', 'cloudflare', 'stripe', 'zendesk', 'segment', 'fastly', 'okta', 'slack'],
      techCategories: [
        'tag_management',
        'cdn',
        'payment',
        'customer_support',
        'analytics',
        'security',
        'communications',
      ],
      metrics: {
        employees: 7663,
        employeesRange: '5K-10K',
        employeeCountRange: { min: 5000, max: 10000 },
        marketCap: 37885576433, // the HUBS listing's
        annualRevenue: 1134100000,
        estimatedAnnualRevenue: '$1B-$10B',
        estimatedAnnualRevenueRange: { min: 1e9, max: 1e10 },
        raised: 27545053,
        fiscalYearEnd: 6,
        alexaGlobalRank: 4099,
        alexaUsRank: 1145,
        trafficRank: 'very_high',
      },
      identifiers: { usCik: '0001404655', usEin: '37-5474783' },
      parentDomain: null,
      ultimateParentDomain: 'hubspot.com',
      site: {
        emailAddresses: ['info@hubspot.com', 'press@hubspot.com', 'investors@hubspot.com'],
        phoneNumbers: ['+1 888-482-7768', '+353 974 8191'],
      },
      businessDirectory: { handle: 'organization/hubspot' },
      professionalNetwork: { handle: 'company/hubspot' },
      socialNetwork: { handle: 'hubspot', likes: 6473 },
      microblog: {
        handle: 'Hubspot',
        accountId: sampleDigits('twitter:hubspot.com', 8),
        bio: 'News, product updates and stories from the Hubspot team.',
        location: 'Cambridge, MA',
        avatarUrl: `${gw.gateway.sandbox!.url}/images/avatar/microblog-hubspot.com.png`,
        siteUrl: 'https://www.hubspot.com', // exactly as the upstream wrote it (the URL scalar keeps the string)
        followerCount: 13080939,
        followingCount: 170,
      },
      indexedAt: '2026-09-12T14:01:42.000Z',
    });
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('makes one upstream call for the same domain asked twice in one operation', async ({ sandbox: gw }) => {
    await answersWithCalls(
      gw,
      'get_company_object',
      '{ a: company(domain: "stripe.com") { name } b: company(domain: "STRIPE.com.") { ticker } }',
      {
        a: { name: 'Stripe' },
        b: { ticker: 'STRIPE' },
      },
    );
  });

  itRejectsBeforeUpstream('company', 'domain', 'name', [
    ['', 'must not be empty'],
    ['mailto:someone@hubspot.com', 'must be a domain name'],
    ['hubspot', 'must be a domain name'],
    ['hub spot.com', 'must be a domain name'],
    ['a'.repeat(300), 'at most 253'],
  ]);

  it('answers a five-field query in a small fraction of the REST payload', async ({ sandbox: gw }) => {
    await smallerThanRest(gw, {
      action: 'get_company_object',
      body: { domain: 'hubspot.com' },
      query: '{ company(domain: "hubspot.com") { name ticker logoUrl metrics { employees marketCap } } }',
      maxBytes: 400,
      factor: 5,
    });
  });
});

describe('company against upstream variants', () => {
  const { up, gw } = upstreamGatewayFor();

  function answer(response: Record<string, unknown>) {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response }));
  }

  it('reads emailProvider given as a provider domain instead of a boolean', async () => {
    answer({ domain: 'acme-widgets.com', emailProvider: 'Google.com' });
    const { body } = await gw.query(
      '{ company(domain: "acme-widgets.com") { domain isEmailProvider emailProviderDomain } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.company).toEqual({
      domain: 'acme-widgets.com',
      isEmailProvider: null,
      emailProviderDomain: 'google.com',
    });
    expect(up.calls.at(-1)!.body).toEqual({ domain: 'acme-widgets.com' });
  });

  it('reads emailProvider given as the documented boolean', async () => {
    answer({ domain: 'mail-provider.example', emailProvider: true });
    const { body } = await gw.query(
      '{ company(domain: "mail-provider.example") { isEmailProvider emailProviderDomain } }',
    );
    expect(body.data!.company).toEqual({ isEmailProvider: true, emailProviderDomain: null });
  });

  it.each([
    ['251-1K', undefined, null, '251-1K', { min: 251, max: 1000 }],
    ['10K+', undefined, null, '10K+', { min: 10000, max: null }],
    ['1,200', undefined, 1200, null, null],
    [42, '11-50', 42, '11-50', { min: 11, max: 50 }],
    ['about fifty', undefined, null, 'about fifty', null],
  ])('reads metrics.employees %j (employeesRange %j)', async (employees, employeesRange, count, rangeText, range) => {
    answer({
      domain: 'acme-widgets.com',
      metrics: { employees, employeesRange, estimatedAnnualRevenue: '$10B+', marketCap: null },
    });
    const { body } = await gw.query(
      '{ company(domain: "acme-widgets.com") { metrics { employees employeesRange employeeCountRange { min max } estimatedAnnualRevenueRange { min max } marketCap } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.company.metrics).toEqual({
      employees: count,
      employeesRange: rangeText,
      employeeCountRange: range,
      estimatedAnnualRevenueRange: { min: 1e10, max: null },
      marketCap: null,
    });
  });

  /** A category with none of its single values known. */
  const NO_CATEGORY = {
    sector: null,
    industryGroup: null,
    industry: null,
    subIndustry: null,
    gicsCode: null,
    sicCode: null,
    naicsCode: null,
  };

  it('resolves a null twitter, null category parts, null usEIN, raised and parent domain as null', async () => {
    answer({
      id: '9b1e0c44-1d2f-4a55-8e33-0c6f7a2b9d10',
      name: 'Acme Widgets',
      domain: 'acme-widgets.com',
      twitter: null,
      category: { ...NO_CATEGORY, sic4Codes: null, naics6Codes: null, naics6Codes2022: null },
      identifiers: { usCIK: null, usEIN: null },
      metrics: { raised: null, marketCap: 3_200_000_000, annualRevenue: 48_500_000_000, employees: 251 },
      parent: { domain: null },
      ultimateParent: null,
      tags: null,
      site: null,
    });
    const { body } = await gw.query(`{ company(domain: "acme-widgets.com") {
      companyId name microblog { ${TWITTER} } category { ${CATEGORY} } identifiers { usCik usEin }
      metrics { raised marketCap annualRevenue employees employeesRange employeeCountRange { min } }
      parentDomain ultimateParentDomain tags site { emailAddresses } geo { city } indexedAt isEmailProvider
    } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.company).toEqual({
      companyId: '9b1e0c44-1d2f-4a55-8e33-0c6f7a2b9d10',
      name: 'Acme Widgets',
      microblog: null,
      // Its lists come back empty, not null.
      category: { ...NO_CATEGORY, sic4Codes: [], naics6Codes: [], naics6Codes2022: [] },
      identifiers: { usCik: null, usEin: null },
      // Beyond 2^31: these would break a 32-bit Int.
      metrics: {
        raised: null,
        marketCap: 3200000000,
        annualRevenue: 48500000000,
        employees: 251,
        employeesRange: null,
        employeeCountRange: null,
      },
      parentDomain: null,
      ultimateParentDomain: null,
      tags: [],
      site: null,
      geo: null,
      indexedAt: null,
      isEmailProvider: null,
    });
  });

  it('resolves a null category as null', async () => {
    answer({ domain: 'acme-widgets.com', category: null });
    const { body } = await gw.query(`{ company(domain: "acme-widgets.com") { domain category { ${CATEGORY} } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.company).toEqual({ domain: 'acme-widgets.com', category: null });
  });

  it('reports a response that is not an object as UPSTREAM_BAD_RESPONSE', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: 'no company' }));
    const { body } = await gw.query('{ company(domain: "acme-widgets.com") { name } }');
    expect(body.data).toEqual({ company: null });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', action: 'get_company_object' });
  });
});
