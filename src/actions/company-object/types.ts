import { builder } from '../../schema/builder.js';
import { bool, dateTime, float, int, obj, type Raw, str, strings, text, url } from '../../schema/read.js';
import { CompanyCategory, CompanyGeo, CompanyIdentifiers, CompanySite } from './details.js';
import type { CompanySource } from './load.js';
import { CompanyMetrics } from './metrics.js';
import { CompanyFacebook, CompanySocialHandle, CompanyTwitter } from './social.js';

function lowerDomain(value: unknown): string | null {
  return text(value)?.trim().toLowerCase() ?? null;
}

/** `emailProvider` is documented as a boolean; some records carry the provider's domain instead. */
function emailProviderDomain(raw: Raw): string | null {
  return lowerDomain(raw.emailProvider);
}

export const Company = builder.objectRef<CompanySource>('Company').implement({
  description:
    'A company found by its web domain, with firmographics, industry classification, location, social accounts and metrics (upstream action get_company_object).',
  fields: (t) => ({
    companyId: t.id({
      description:
        "The upstream's identifier of the company (a UUID; upstream `id`). Was `id`, which is now the gateway's node id.",
      resolve: (c) => text(c.raw.id),
    }),
    domain: t.string({
      nullable: false,
      description: "The company's primary web domain, lower-case (the domain asked for when the upstream omits it).",
      resolve: (c) => lowerDomain(c.raw.domain) ?? c.requestedDomain,
    }),
    domainAliases: t.stringList({
      nullable: false,
      description: 'Other domains that belong to the company. Empty when none.',
      resolve: (c) => strings(c.raw.domainAliases),
    }),
    name: t.string({ description: 'Common name, e.g. "HubSpot".', resolve: (c) => str(c.raw.name) }),
    legalName: t.string({
      description: 'Registered legal name, e.g. "HubSpot, Inc.".',
      resolve: (c) => str(c.raw.legalName),
    }),
    description: t.string({
      description: 'Short description of what the company does.',
      resolve: (c) => str(c.raw.description),
    }),
    type: t.string({
      description:
        'Kind of organisation as the upstream names it, e.g. "public", "private", "nonprofit", "education", "government".',
      resolve: (c) => str(c.raw.type),
    }),
    ticker: t.string({
      description: 'Stock ticker symbol of a listed company, e.g. "HUBS"; usable as a `financialProfiles` symbol.',
      resolve: (c) => str(c.raw.ticker),
    }),
    foundedYear: t.int({ description: 'Year the company was founded.', resolve: (c) => int(c.raw.foundedYear) }),
    logoUrl: t.field({
      type: 'URL',
      description: "URL of the company's logo image (upstream `logo`).",
      resolve: (c) => url(c.raw.logo),
    }),
    phone: t.string({
      description: 'Main phone number, as written (e.g. "+1 888-482-7768").',
      resolve: (c) => str(c.raw.phone),
    }),
    location: t.string({
      description: 'Headquarters address as one line of text; see `geo` for its parts.',
      resolve: (c) => str(c.raw.location),
    }),
    geo: t.field({
      type: CompanyGeo,
      description: 'Headquarters address parts and coordinates.',
      resolve: (c) => obj(c.raw.geo),
    }),
    timeZone: t.string({
      description: 'IANA time zone of the headquarters, e.g. "America/New_York".',
      resolve: (c) => str(c.raw.timeZone),
    }),
    utcOffset: t.float({
      description:
        "Offset of the headquarters' time zone from UTC, in hours (e.g. -5; fractional for zones such as +5.5).",
      resolve: (c) => float(c.raw.utcOffset),
    }),
    isEmailProvider: t.boolean({
      description:
        'Whether this domain is a (free) email provider such as a webmail service, when the upstream says so with a boolean. Null when the upstream sent a provider domain instead (see `emailProviderDomain`).',
      resolve: (c) => bool(c.raw.emailProvider),
    }),
    emailProviderDomain: t.string({
      description:
        'The domain of the email provider, when the upstream sent one in place of the documented boolean (e.g. "google.com"); null otherwise.',
      resolve: (c) => emailProviderDomain(c.raw),
    }),
    category: t.field({
      type: CompanyCategory,
      description: 'Industry classification (GICS, NAICS, SIC).',
      resolve: (c) => obj(c.raw.category),
    }),
    tags: t.stringList({
      nullable: false,
      description: 'Descriptive tags, e.g. ["B2B", "SAAS"]. Empty when none.',
      resolve: (c) => strings(c.raw.tags),
    }),
    tech: t.stringList({
      nullable: false,
      description:
        'Technologies detected on the company\'s site, as identifiers (e.g. "google_analytics"). Empty when none.',
      resolve: (c) => strings(c.raw.tech),
    }),
    techCategories: t.stringList({
      nullable: false,
      description:
        'Categories of the detected technologies, e.g. "analytics", "email_delivery_service". Empty when none.',
      resolve: (c) => strings(c.raw.techCategories),
    }),
    metrics: t.field({
      type: CompanyMetrics,
      description: 'Employees, revenue, market capitalisation, funding and web-traffic figures.',
      resolve: (c) => obj(c.raw.metrics),
    }),
    identifiers: t.field({
      type: CompanyIdentifiers,
      description: 'Government identifiers (US CIK and EIN).',
      resolve: (c) => obj(c.raw.identifiers),
    }),
    parentDomain: t.string({
      description:
        'Domain of the direct parent company; null when the company has no parent or it is unknown (upstream `parent.domain`).',
      resolve: (c) => lowerDomain(obj(c.raw.parent)?.domain),
    }),
    ultimateParentDomain: t.string({
      description:
        'Domain of the top-most parent company; null when unknown (upstream `ultimateParent.domain`). Equals `domain` for a company that is its own top parent.',
      resolve: (c) => lowerDomain(obj(c.raw.ultimateParent)?.domain),
    }),
    site: t.field({
      type: CompanySite,
      description: "Email addresses and phone numbers published on the company's website.",
      resolve: (c) => obj(c.raw.site),
    }),
    businessDirectory: t.field({
      type: CompanySocialHandle,
      description: "The company's business-data directory profile (upstream `crunchbase`).",
      resolve: (c) => obj(c.raw.crunchbase),
    }),
    professionalNetwork: t.field({
      type: CompanySocialHandle,
      description: "The company's page on the professional network (upstream `linkedin`).",
      resolve: (c) => obj(c.raw.linkedin),
    }),
    socialNetwork: t.field({
      type: CompanyFacebook,
      description: "The company's social-network page and its likes (upstream `facebook`).",
      resolve: (c) => obj(c.raw.facebook),
    }),
    microblog: t.field({
      type: CompanyTwitter,
      description: "The company's microblogging account; null when it has none (upstream `twitter`).",
      resolve: (c) => obj(c.raw.twitter),
    }),
    indexedAt: t.field({
      type: 'DateTime',
      description: "When the upstream last refreshed this company's data.",
      resolve: (c) => dateTime(c.raw.indexedAt),
    }),
  }),
});
