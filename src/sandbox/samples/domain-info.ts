import type { SandboxAnswer } from '../answer.js';
import { sampleDigits } from '../data/identity.js';
import { citiesIn, STREETS } from '../data/places.js';
import { seededDate, seededInt, seededPick, seededSubset } from '../data/seeded.js';
import { isUnregisteredDomain } from './not-found.js';

const REGISTRARS = [
  { name: 'Example Registrar, Inc.', iana: '292', host: 'registrar.example', phone: '+1.2086851750' },
  { name: 'Sample Names LLC', iana: '1068', host: 'sample-names.example', phone: '+1.4806242505' },
  { name: 'Demo Domains GmbH', iana: '1508', host: 'demo-domains.example', phone: '+49.8912345670' },
  { name: 'Placeholder Registry Services Ltd', iana: '3786', host: 'placeholder-registry.example', phone: '+44.2071234567' },
];
const DNS_HOSTS = ['dns-host.example', 'nameserve.example', 'cloud-dns.example'];
const STATUSES = [
  'clientdeleteprohibited',
  'clienttransferprohibited',
  'clientupdateprohibited',
  'serverdeleteprohibited',
  'servertransferprohibited',
  'serverupdateprohibited',
];
const WHOIS_SERVERS: Readonly<Record<string, string>> = {
  com: 'whois.verisign-grs.com',
  net: 'whois.verisign-grs.com',
  org: 'whois.publicinterestregistry.org',
};

/**
 * domain_info (contract 2.1). The requested domain comes back in the record, and its dates,
 * registrar, name servers and registrant's city are derived from it; a domain whose first label
 * starts with "no-such-" or contains "unregistered", or whose TLD is .invalid (isUnregisteredDomain), gets the minimal record the live service sends for a free domain.
 */
function domainInfo(domain: string): Record<string, unknown> {
  const name = domain.trim().toLowerCase();
  if (isUnregisteredDomain(name)) {
    return { status: true, domain_name: name, domain_registered: 'no' };
  }
  const seed = (what: string) => `domain:${name}:${what}`;
  const tld = name.split('.').pop() ?? 'com';
  const created = seededDate(seed('created'), '1994-01-01', '2022-12-31');
  const updated = seededDate(seed('updated'), '2024-01-01', '2026-10-31');
  const expires = `${seededInt(seed('expires'), 2027, 2032)}${created.endsWith('-02-29') ? '-02-28' : created.slice(4)}`; // yearly renewals
  const registrar = seededPick(seed('registrar'), REGISTRARS);
  const dns = seededPick(seed('dns'), DNS_HOSTS);
  const nameServers = Array.from({ length: seededInt(seed('ns'), 2, 4) }, (_, i) => `ns${i + 1}.${dns}`);
  const registrant = seededPick(seed('city'), citiesIn('US'));
  const whoisServer = WHOIS_SERVERS[tld] ?? `whois.nic.${tld}`;
  const time = (day: string) => `${day}T${String(seededInt(seed(`h${day}`), 0, 23)).padStart(2, '0')}:17:33Z`;
  return {
    administrative_contact: {
      city: 'Redacted For Privacy',
      country_code: 'US',
      country_name: 'United States',
      email_address: 'admin@privacy-relay.example',
      name: 'Domain Administrator',
      phone: '+1.2083895740',
      state: 'CA',
      street: '2 Main Street, Suite 100',
      zip_code: '94105',
    },
    registrant_contact: {
      city: registrant.city,
      country_code: 'US',
      country_name: 'United States',
      email_address: 'registrant@privacy-relay.example',
      name: 'Registration Private',
      phone: `+1.${registrant.area}5550100`,
      state: registrant.stateCode,
      street: `${seededInt(seed('number'), 1, 999)} ${seededPick(seed('street'), STREETS)}`,
      zip_code: `${registrant.zipPrefix}${sampleDigits(seed('zip'), 2)}`,
    },
    technical_contact: {
      // Contact objects drop keys that are empty, as the live service does.
      country_code: 'US',
      country_name: 'United States',
      email_address: 'tech@privacy-relay.example',
      name: 'Technical Contact',
    },
    create_date: created,
    update_date: updated,
    expiry_date: expires,
    domain_name: name,
    domain_registered: 'yes',
    domain_registrar: {
      email_address: `abusecomplaints@${registrar.host}`,
      iana_id: registrar.iana,
      phone_number: registrar.phone,
      registrar_name: registrar.name,
      website_url: `http://www.${registrar.host}`,
      whois_server: `whois.${registrar.host}`,
    },
    domain_status: seededSubset(seed('status'), STATUSES, seededInt(seed('statuses'), 2, 5)),
    name_servers: nameServers,
    query_time: '2026-11-20 14:03:27',
    status: true,
    whois_raw_domain: [
      `Domain Name: ${name.toUpperCase()}`,
      `Registry Domain ID: ${sampleDigits(seed('registry-id'), 7)}_DOMAIN_${tld.toUpperCase()}-VRSN`,
      `Registrar WHOIS Server: whois.${registrar.host}`,
      `Updated Date: ${time(updated)}`,
      `Creation Date: ${time(created)}`,
      `Registry Expiry Date: ${time(expires)}`,
      `Registrar: ${registrar.name}`,
      `Registrar IANA ID: ${registrar.iana}`,
      'Domain Status: clientDeleteProhibited',
      `Name Server: ${nameServers[0]!.toUpperCase()}`,
      '>>> Last update of whois database: 2026-11-20T14:03:27Z <<<',
    ].join('\n'),
    whois_server: whoisServer,
  };
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = { required: ['domain'], respond: (b) => ({ response: domainInfo(String(b.domain)) }) };
