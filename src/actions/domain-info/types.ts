import { builder } from '../../schema/builder.js';
import { bool, date, obj, type Raw, str, strings } from '../../schema/read.js';
import type { DomainRecordSource } from './load.js';

const DomainContact = builder.objectRef<Raw>('DomainContact').implement({
  description:
    'A contact published in a domain registration record. Registries redact or omit parts freely, so every field can be null.',
  fields: (t) => ({
    name: t.string({ description: 'Name of the person or organisation.', resolve: (c) => str(c.name) }),
    email: t.string({
      description: 'Email address, often a privacy-service relay.',
      resolve: (c) => str(c.email_address),
    }),
    phone: t.string({
      description: 'Phone number as the registry wrote it (e.g. +1.2083895740).',
      resolve: (c) => str(c.phone),
    }),
    street: t.string({ description: 'Street address.', resolve: (c) => str(c.street) }),
    city: t.string({ description: 'City.', resolve: (c) => str(c.city) }),
    state: t.string({ description: 'State, province or region.', resolve: (c) => str(c.state) }),
    postalCode: t.string({ description: 'Postal or ZIP code (upstream `zip_code`).', resolve: (c) => str(c.zip_code) }),
    countryCode: t.string({
      description: 'ISO 3166-1 alpha-2 country code, e.g. US.',
      resolve: (c) => str(c.country_code),
    }),
    countryName: t.string({ description: 'Country name in English.', resolve: (c) => str(c.country_name) }),
  }),
});

const DomainRegistrar = builder.objectRef<Raw>('DomainRegistrar').implement({
  description: 'The registrar through which a domain is registered.',
  fields: (t) => ({
    name: t.string({
      description: 'Registrar name (upstream `registrar_name`).',
      resolve: (r) => str(r.registrar_name),
    }),
    ianaId: t.string({
      description: 'The registrar\'s IANA identifier, as text (e.g. "292").',
      resolve: (r) => str(r.iana_id),
    }),
    email: t.string({
      description: 'Abuse or contact email address of the registrar.',
      resolve: (r) => str(r.email_address),
    }),
    phone: t.string({ description: 'Contact phone number of the registrar.', resolve: (r) => str(r.phone_number) }),
    website: t.string({
      description:
        'Website of the registrar as the registry wrote it; not always a full URL (e.g. "http://www.markmonitor.com" or "markmonitor.com").',
      resolve: (r) => str(r.website_url),
    }),
    whoisServer: t.string({
      description: "Host name of the registrar's WHOIS server.",
      resolve: (r) => str(r.whois_server),
    }),
  }),
});

export const DomainRecord = builder.objectRef<DomainRecordSource>('DomainRecord').implement({
  description:
    'The registration (WHOIS) record of an internet domain. An unregistered domain has only `domainName`, `isRegistered: false` and `registrationStatus`; everything else is null or empty.',
  fields: (t) => ({
    domainName: t.string({
      nullable: false,
      description: 'The domain name, lower-case.',
      resolve: (d) => str(d.raw.domain_name)?.toLowerCase() ?? d.requestedDomain,
    }),
    isRegistered: t.boolean({
      description:
        'Whether the domain is registered. Null when the upstream reports a registration state other than yes or no (see `registrationStatus`).',
      resolve: (d) => registered(d.raw.domain_registered),
    }),
    registrationStatus: t.string({
      description: 'The upstream\'s raw registration state (`domain_registered`): "yes", "no", or another value.',
      resolve: (d) => str(d.raw.domain_registered),
    }),
    lookupSucceeded: t.boolean({
      description: "The upstream's own success flag for this lookup (upstream `status`).",
      resolve: (d) => bool(d.raw.status),
    }),
    createdOn: t.field({
      type: 'Date',
      description: 'Date the domain was first registered (upstream `create_date`).',
      resolve: (d) => date(d.raw.create_date),
    }),
    updatedOn: t.field({
      type: 'Date',
      description: 'Date the record last changed (upstream `update_date`).',
      resolve: (d) => date(d.raw.update_date),
    }),
    expiresOn: t.field({
      type: 'Date',
      description: 'Date the registration expires unless renewed (upstream `expiry_date`).',
      resolve: (d) => date(d.raw.expiry_date),
    }),
    registrar: t.field({
      type: DomainRegistrar,
      description: 'The registrar holding the registration.',
      resolve: (d) => obj(d.raw.domain_registrar),
    }),
    registrantContact: t.field({
      type: DomainContact,
      description: 'The registrant (owner) contact.',
      resolve: (d) => obj(d.raw.registrant_contact),
    }),
    administrativeContact: t.field({
      type: DomainContact,
      description: 'The administrative contact.',
      resolve: (d) => obj(d.raw.administrative_contact),
    }),
    technicalContact: t.field({
      type: DomainContact,
      description: 'The technical contact.',
      resolve: (d) => obj(d.raw.technical_contact),
    }),
    statuses: t.stringList({
      nullable: false,
      description:
        'EPP status codes of the domain as the upstream writes them, lower-case (e.g. "clienttransferprohibited"). Empty when none are published.',
      resolve: (d) => strings(d.raw.domain_status),
    }),
    nameServers: t.stringList({
      nullable: false,
      description: "Host names of the domain's authoritative name servers. Empty when none are published.",
      resolve: (d) => strings(d.raw.name_servers),
    }),
    queryTime: t.string({
      description:
        'When the upstream queried the registry, as it wrote it ("YYYY-MM-DD HH:MM:SS", no time zone given).',
      resolve: (d) => str(d.raw.query_time),
    }),
    whoisServer: t.string({
      description: 'Host name of the registry WHOIS server that answered.',
      resolve: (d) => str(d.raw.whois_server),
    }),
    whoisRaw: t.string({
      description:
        'The raw, multi-line registry text (upstream `whois_raw_domain`). Large: select it only when needed.',
      resolve: (d) => str(d.raw.whois_raw_domain),
    }),
  }),
});

function registered(value: unknown): boolean | null {
  const state = str(value)?.trim().toLowerCase();
  if (state === 'yes') return true;
  if (state === 'no') return false;
  return null;
}
