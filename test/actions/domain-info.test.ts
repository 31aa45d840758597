import { describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { answered, itRejectsBeforeUpstream } from '../support/assertions.js';

const CONTACT = 'name email phone street city state postalCode countryCode countryName';
const EVERY_FIELD = `
  domainName isRegistered registrationStatus lookupSucceeded createdOn updatedOn expiresOn
  registrar { name ianaId email phone website whoisServer }
  registrantContact { ${CONTACT} } administrativeContact { ${CONTACT} } technicalContact { ${CONTACT} }
  statuses nameServers queryTime whoisServer whoisRaw`;

describe('domainInfo against the sandbox', () => {
  it('resolves every field of a registered domain', async ({ sandbox: gw }) => {
    const { body } = await answered(gw, `{ domainInfo(domain: "Stripe.COM.") { ${EVERY_FIELD} } }`);
    const record = body.data!.domainInfo;
    expect(record).toMatchObject({
      domainName: 'stripe.com',
      isRegistered: true,
      registrationStatus: 'yes',
      lookupSucceeded: true,
      createdOn: '1997-08-20',
      updatedOn: '2025-11-28',
      expiresOn: '2031-08-20',
      registrar: {
        name: 'Example Registrar, Inc.',
        ianaId: '292',
        email: 'abusecomplaints@registrar.example',
        phone: '+1.2086851750',
        website: 'http://www.registrar.example',
        whoisServer: 'whois.registrar.example',
      },
      registrantContact: {
        name: 'Registration Private',
        email: 'registrant@privacy-relay.example',
        phone: '+1.4255550100',
        street: '716 Park Avenue',
        city: 'Redmond',
        state: 'WA',
        postalCode: '98090',
        countryCode: 'US',
        countryName: 'United States',
      },
      administrativeContact: {
        name: 'Domain Administrator',
        city: 'Redacted For Privacy',
        postalCode: '94105',
        street: '2 Main Street, Suite 100',
      },
      // The live service drops empty keys from contacts: they read as null, not as errors.
      technicalContact: {
        name: 'Technical Contact',
        email: 'tech@privacy-relay.example',
        phone: null,
        street: null,
        city: null,
        state: null,
        postalCode: null,
        countryCode: 'US',
        countryName: 'United States',
      },
      statuses: [
        'clienttransferprohibited',
        'clientupdateprohibited',
        'serverdeleteprohibited',
        'servertransferprohibited',
      ],
      nameServers: ['ns1.nameserve.example', 'ns2.nameserve.example'],
      queryTime: '2026-11-20 14:03:27',
      whoisServer: 'whois.verisign-grs.com',
    });
    expect(record.whoisRaw).toContain('Domain Name: STRIPE.COM\n');
    expect(record.whoisRaw.split('\n')).toHaveLength(11);
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('returns the minimal record of an unregistered domain without errors', async ({ sandbox: gw }) => {
    const { body } = await gw.query(`{ domainInfo(domain: "unregistered-name-4821.com") { ${EVERY_FIELD} } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.domainInfo).toEqual({
      domainName: 'unregistered-name-4821.com',
      isRegistered: false,
      registrationStatus: 'no',
      lookupSucceeded: true,
      createdOn: null,
      updatedOn: null,
      expiresOn: null,
      registrar: null,
      registrantContact: null,
      administrativeContact: null,
      technicalContact: null,
      statuses: [],
      nameServers: [],
      queryTime: null,
      whoisServer: null,
      whoisRaw: null,
    });
  });

  it('makes one upstream call for the same domain asked twice in one operation, however it is written', async ({
    sandbox: gw,
  }) => {
    const before = gw.gateway.sandbox!.calls.get('domain_info') ?? 0;
    const { body } = await gw.query(
      `{ a: domainInfo(domain: "github.com") { domainName } b: domainInfo(domain: "GitHub.com.") { expiresOn } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ a: { domainName: 'github.com' }, b: { expiresOn: '2029-10-24' } });
    expect((gw.gateway.sandbox!.calls.get('domain_info') ?? 0) - before).toBe(1);
    expect(body.extensions?.gateway.upstreamCalls).toBe(1);
  });

  itRejectsBeforeUpstream('domainInfo', 'domain', 'domainName', [
    ['', 'must not be empty'],
    ['not a domain', 'must be a domain name'],
    ['localhost', 'must be a domain name'],
    ['-bad-.com', 'must be a domain name'],
    [`${'a'.repeat(64)}.com`, 'must be a domain name'],
    ['a'.repeat(300), 'at most 253'],
  ]);

  it('accepts an internationalised domain in its ASCII form', async ({ sandbox: gw }) => {
    const { body } = await gw.query('{ domainInfo(domain: "bücher.de") { domainName } }');
    expect(body.data!.domainInfo).toEqual({ domainName: 'xn--bcher-kva.de' });
  });
});
