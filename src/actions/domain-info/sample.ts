/**
 * domain_info (contract 2.1). The requested domain comes back in the record; a domain whose first
 * label contains "unregistered" gets the minimal record the live service sends for a free domain.
 */
export function domainInfo(domain: string): Record<string, unknown> {
  const name = domain.trim().toLowerCase();
  if (name.split('.')[0]?.includes('unregistered')) {
    return { status: true, domain_name: name, domain_registered: 'no' };
  }
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
      city: 'San Francisco',
      country_code: 'US',
      country_name: 'United States',
      email_address: 'registrant@privacy-relay.example',
      name: 'Registration Private',
      phone: '+1.4155550100',
      state: 'CA',
      street: '548 Market Street',
      zip_code: '94104',
    },
    technical_contact: {
      // Contact objects drop keys that are empty, as the live service does.
      country_code: 'US',
      country_name: 'United States',
      email_address: 'tech@privacy-relay.example',
      name: 'Technical Contact',
    },
    create_date: '1997-09-15',
    update_date: '2024-08-02',
    expiry_date: '2028-09-14',
    domain_name: name,
    domain_registered: 'yes',
    domain_registrar: {
      email_address: 'abusecomplaints@registrar.example',
      iana_id: '292',
      phone_number: '+1.2086851750',
      registrar_name: 'Example Registrar, Inc.',
      website_url: 'http://www.registrar.example',
      whois_server: 'whois.registrar.example',
    },
    domain_status: ['clientdeleteprohibited', 'clienttransferprohibited', 'clientupdateprohibited', 'serverdeleteprohibited'],
    name_servers: ['ns1.dns-host.example', 'ns2.dns-host.example', 'ns3.dns-host.example', 'ns4.dns-host.example'],
    query_time: '2026-11-20 14:03:27',
    status: true,
    whois_raw_domain: [
      `Domain Name: ${name.toUpperCase()}`,
      'Registry Domain ID: 2138514_DOMAIN_COM-VRSN',
      'Registrar WHOIS Server: whois.registrar.example',
      'Updated Date: 2024-08-02T02:17:33Z',
      'Creation Date: 1997-09-15T04:00:00Z',
      'Registry Expiry Date: 2028-09-14T04:00:00Z',
      'Registrar: Example Registrar, Inc.',
      'Registrar IANA ID: 292',
      'Domain Status: clientDeleteProhibited',
      'Name Server: NS1.DNS-HOST.EXAMPLE',
      '>>> Last update of whois database: 2026-11-20T14:03:27Z <<<',
    ].join('\n'),
    whois_server: 'whois.verisign-grs.com',
  };
}
