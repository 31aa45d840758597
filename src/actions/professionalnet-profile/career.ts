import { builder } from '../../schema/builder.js';
import { id, obj, objects, type Raw, safeInt, str, text, url } from '../../schema/read.js';
import { CountRange } from '../company-object/range-types.js';
import type { NumberRange } from '../company-object/ranges.js';
import { PartialDate, Period } from './partial-date.js';

function employeeRange(company: Raw): NumberRange | null {
  const employees = obj(company.employees);
  if (!employees) return null;
  const range = { min: safeInt(employees.start), max: safeInt(employees.end) };
  return range.min === null && range.max === null ? null : range;
}

const ProfessionalCompany = builder.objectRef<Raw>('ProfessionalCompany').implement({
  description:
    'A company as a profile shows it: an employer of a position group, or the issuer of a certification. Smaller companies often have no id, logo or page.',
  fields: (t) => ({
    id: t.id({
      description: "The network's numeric company identifier, as a string; null for companies without a page.",
      resolve: (c) => id(c.id),
    }),
    name: t.string({ description: 'Company name.', resolve: (c) => str(c.name) }),
    logoUrl: t.field({
      type: 'URL',
      description: 'Logo image URL (upstream `logo`); null when the company has none.',
      resolve: (c) => url(c.logo),
    }),
    url: t.field({
      type: 'URL',
      description: "The company's page on the network; null when it has none.",
      resolve: (c) => url(c.url),
    }),
    employeeCountRange: t.field({
      type: CountRange,
      description:
        "The company's size band (upstream `employees` {start, end}); null when not given, as for certification issuers.",
      resolve: employeeRange,
    }),
  }),
});

const ProfessionalSchool = builder.objectRef<Raw>('ProfessionalSchool').implement({
  description: 'A school, college or university on a profile.',
  fields: (t) => ({
    name: t.string({ description: 'Name of the school.', resolve: (s) => str(s.name) }),
    logoUrl: t.field({ type: 'URL', description: 'Logo image URL (upstream `logo`).', resolve: (s) => url(s.logo) }),
    url: t.field({ type: 'URL', description: "The school's page on the network.", resolve: (s) => url(s.url) }),
  }),
});

export const ProfessionalCertification = builder.objectRef<Raw>('ProfessionalCertification').implement({
  description: 'A licence or certification listed on a profile.',
  fields: (t) => ({
    name: t.string({
      description: 'Name of the certification, e.g. "AWS Certified Solutions Architect - Associate".',
      resolve: (c) => str(c.name),
    }),
    authority: t.string({ description: 'The body that issued it.', resolve: (c) => str(c.authority) }),
    displaySource: t.string({
      description: 'Where the credential can be verified, as display text (e.g. a host name).',
      resolve: (c) => str(c.display_source),
    }),
    url: t.field({
      type: 'URL',
      description: 'Link to the credential; null when not given.',
      resolve: (c) => url(c.url),
    }),
    licenseNumber: t.string({
      description: 'Credential or licence number; null when not given.',
      resolve: (c) => (typeof c.license_number === 'number' ? id(c.license_number) : text(c.license_number)),
    }),
    company: t.field({
      type: ProfessionalCompany,
      description: 'The issuing company as the network knows it.',
      resolve: (c) => obj(c.company),
    }),
    period: t.field({
      type: Period,
      description: 'When it was issued (`start`) and when it expires (`end`) (upstream `date`).',
      resolve: (c) => obj(c.date),
    }),
  }),
});

export const ProfessionalEducation = builder.objectRef<Raw>('ProfessionalEducation').implement({
  description: 'A course of study on a profile.',
  fields: (t) => ({
    school: t.field({
      type: ProfessionalSchool,
      description: 'Where the person studied.',
      resolve: (e) => obj(e.school),
    }),
    degreeName: t.string({
      description: 'Degree, e.g. "Bachelor of Science - BS".',
      resolve: (e) => str(e.degree_name),
    }),
    fieldOfStudy: t.string({
      description: 'Field of study, e.g. "Computer Science".',
      resolve: (e) => str(e.field_of_study),
    }),
    grade: t.string({ description: 'Grade as the person wrote it; often null.', resolve: (e) => str(e.grade) }),
    description: t.string({ description: 'Activities and notes; often null.', resolve: (e) => str(e.description) }),
    period: t.field({
      type: Period,
      description: 'When the study began and ended (upstream `date`).',
      resolve: (e) => obj(e.date),
    }),
  }),
});

const ProfessionalPosition = builder.objectRef<Raw>('ProfessionalPosition').implement({
  description: 'One role held at a company. Everything but the period is often null on real profiles.',
  fields: (t) => ({
    title: t.string({ description: 'Job title, e.g. "Engineering Manager".', resolve: (p) => str(p.title) }),
    companyName: t.string({
      description: 'Company name as written on the role (upstream `company`).',
      resolve: (p) => str(p.company),
    }),
    employmentType: t.string({
      description: 'Employment type as display text, e.g. "Full-time", "Contract"; null when not given.',
      resolve: (p) => str(p.employment_type),
    }),
    location: t.string({
      description: 'Where the role is based, free text; null when not given.',
      resolve: (p) => str(p.location),
    }),
    description: t.string({
      description: 'What the person did in the role; null when not given.',
      resolve: (p) => str(p.description),
    }),
    period: t.field({
      type: Period,
      description: 'When the role began and ended (upstream `date`).',
      resolve: (p) => obj(p.date),
    }),
  }),
});

export const ProfessionalPositionGroup = builder.objectRef<Raw>('ProfessionalPositionGroup').implement({
  description:
    'The time a person spent at one company, with each role held there (upstream `position_groups`), most recent first.',
  fields: (t) => ({
    company: t.field({ type: ProfessionalCompany, description: 'The employer.', resolve: (g) => obj(g.company) }),
    period: t.field({
      type: Period,
      description: "From the first role's start to the last role's end at this company (upstream `date`).",
      resolve: (g) => obj(g.date),
    }),
    positions: t.field({
      type: [ProfessionalPosition],
      nullable: false,
      description:
        'The roles held at this company, most recent first (upstream `profile_positions`). Empty when none are listed.',
      resolve: (g) => objects(g.profile_positions),
    }),
  }),
});

const PublicationAuthor = builder.objectRef<Raw>('PublicationAuthor').implement({
  description:
    'An author of a publication. A co-author with a profile has first and last names and a headline; others may have only `name`.',
  fields: (t) => ({
    name: t.string({
      description: 'Full name as written on the publication; often null for authors with a profile.',
      resolve: (a) => str(a.name),
    }),
    firstName: t.string({ description: 'First name.', resolve: (a) => str(a.first_name) }),
    lastName: t.string({ description: 'Last name.', resolve: (a) => str(a.last_name) }),
    headline: t.string({ description: "The author's profile headline.", resolve: (a) => str(a.headline) }),
    type: t.string({
      description: 'Kind of author entry as the upstream names it (e.g. "profile").',
      resolve: (a) => str(a.type),
    }),
  }),
});

export const ProfessionalPublication = builder.objectRef<Raw>('ProfessionalPublication').implement({
  description: 'A publication (article, paper, book) listed on a profile.',
  fields: (t) => ({
    name: t.string({ description: 'Title of the publication.', resolve: (p) => str(p.name) }),
    publisher: t.string({ description: 'Publisher or venue.', resolve: (p) => str(p.publisher) }),
    url: t.field({ type: 'URL', description: 'Link to the publication.', resolve: (p) => url(p.url) }),
    date: t.field({
      type: PartialDate,
      description: 'Publication date, as precise as given.',
      resolve: (p) => obj(p.date),
    }),
    authors: t.field({
      type: [PublicationAuthor],
      nullable: false,
      description: 'Its authors, in order. Empty when not listed.',
      resolve: (p) => objects(p.authors),
    }),
  }),
});
