import { builder } from '../../schema/builder.js';
import { float, type Raw, str, strings } from '../../schema/read.js';

export const CompanyCategory = builder.objectRef<Raw>('CompanyCategory').implement({
  description:
    'Industry classification of a company under the GICS, NAICS and SIC schemes. Any part can be null when the upstream has not classified the company.',
  fields: (t) => ({
    sector: t.string({
      description: 'GICS sector name, e.g. "Information Technology".',
      resolve: (c) => str(c.sector),
    }),
    industryGroup: t.string({
      description: 'GICS industry group name, e.g. "Software & Services".',
      resolve: (c) => str(c.industryGroup),
    }),
    industry: t.string({ description: 'GICS industry name, e.g. "Software".', resolve: (c) => str(c.industry) }),
    subIndustry: t.string({
      description: 'GICS sub-industry name, e.g. "Application Software".',
      resolve: (c) => str(c.subIndustry),
    }),
    gicsCode: t.string({
      description: 'Eight-digit GICS sub-industry code, as text (e.g. "45103010").',
      resolve: (c) => str(c.gicsCode),
    }),
    sicCode: t.string({
      description: 'Two-digit SIC major group code, as text (e.g. "73").',
      resolve: (c) => str(c.sicCode),
    }),
    sic4Codes: t.stringList({
      nullable: false,
      description: 'Four-digit SIC industry codes, as text (e.g. ["7372"]). Empty when none.',
      resolve: (c) => strings(c.sic4Codes),
    }),
    naicsCode: t.string({
      description: 'NAICS code at the level the upstream gives, as text (e.g. "51").',
      resolve: (c) => str(c.naicsCode),
    }),
    naics6Codes: t.stringList({
      nullable: false,
      description: 'Six-digit NAICS 2017 codes, as text (e.g. ["513210"]). Empty when none.',
      resolve: (c) => strings(c.naics6Codes),
    }),
    naics6Codes2022: t.stringList({
      nullable: false,
      description: 'Six-digit NAICS 2022 codes, as text. Empty when none.',
      resolve: (c) => strings(c.naics6Codes2022),
    }),
  }),
});

export const CompanyGeo = builder.objectRef<Raw>('CompanyGeo').implement({
  description: "Where a company's headquarters is, as structured address parts and coordinates.",
  fields: (t) => ({
    streetNumber: t.string({ description: 'House or building number, e.g. "2".', resolve: (g) => str(g.streetNumber) }),
    streetName: t.string({ description: 'Street name, e.g. "Canal Park".', resolve: (g) => str(g.streetName) }),
    subPremise: t.string({ description: 'Suite, floor or unit, e.g. "5th Floor".', resolve: (g) => str(g.subPremise) }),
    streetAddress: t.string({
      description: 'The street line as one text, e.g. "2 Canal Park".',
      resolve: (g) => str(g.streetAddress),
    }),
    city: t.string({ description: 'City.', resolve: (g) => str(g.city) }),
    postalCode: t.string({ description: 'Postal or ZIP code.', resolve: (g) => str(g.postalCode) }),
    state: t.string({
      description: 'State, province or region name, e.g. "Massachusetts".',
      resolve: (g) => str(g.state),
    }),
    stateCode: t.string({ description: 'State or region code, e.g. "MA".', resolve: (g) => str(g.stateCode) }),
    country: t.string({ description: 'Country name, e.g. "United States".', resolve: (g) => str(g.country) }),
    countryCode: t.string({
      description: 'ISO 3166-1 alpha-2 country code, e.g. "US".',
      resolve: (g) => str(g.countryCode),
    }),
    latitude: t.float({
      description: 'Latitude in decimal degrees (upstream `lat`).',
      resolve: (g) => coordinate(g.lat, 90),
    }),
    longitude: t.float({
      description: 'Longitude in decimal degrees (upstream `lng`).',
      resolve: (g) => coordinate(g.lng, 180),
    }),
  }),
});

export const CompanyIdentifiers = builder.objectRef<Raw>('CompanyIdentifiers').implement({
  description: 'Government identifiers of a company.',
  fields: (t) => ({
    usCik: t.string({
      description:
        'Central Index Key at the US securities regulator, as text (upstream `usCIK`); null for companies that do not file.',
      resolve: (i) => str(i.usCIK),
    }),
    usEin: t.string({
      description: 'US Employer Identification Number, e.g. "20-2632791" (upstream `usEIN`); often null.',
      resolve: (i) => str(i.usEIN),
    }),
  }),
});

export const CompanySite = builder.objectRef<Raw>('CompanySite').implement({
  description: "Contact details published on a company's website.",
  fields: (t) => ({
    emailAddresses: t.stringList({
      nullable: false,
      description: 'Email addresses found on the site. Empty when none.',
      resolve: (s) => strings(s.emailAddresses),
    }),
    phoneNumbers: t.stringList({
      nullable: false,
      description: 'Phone numbers found on the site, as written there. Empty when none.',
      resolve: (s) => strings(s.phoneNumbers),
    }),
  }),
});

function coordinate(value: unknown, limit: number): number | null {
  const n = float(value);
  return n !== null && Math.abs(n) <= limit ? n : null;
}
