import type { SandboxAnswer } from '../answer.js';
import { sampleDigits, sampleHex } from '../data/identity.js';
import { DETACHED_IMAGES, type SampleImages } from '../data/images.js';
import { citiesIn } from '../data/places.js';
import { seededInt, seededMagnitude, seededPick } from '../data/seeded.js';
import { SandboxInputError } from '../input-error.js';
import { isUnknownHandle, NOT_FOUND_MESSAGE } from './not-found.js';

/**
 * get_professionalnet_profile (contract 2.6). A complete, realistically large profile for any
 * handle: the names come from the handle ("sam-rivera" -> Sam Rivera); the employers, the career's
 * years, the counts, the city and the pictures are derived from it.
 * As on the live service, several documented strings are null: an early job's company has no id,
 * logo or page, and some roles have no description or employment type.
 */
const NO_END = { day: null, month: null, year: null };

function period(start: [number, number | null], end: [number, number | null] | null) {
  return {
    start: { day: null, month: start[1], year: start[0] },
    end: end ? { day: null, month: end[1], year: end[0] } : NO_END,
  };
}

/** Employers of the first two position groups (the third is a small company with no page). */
const EMPLOYERS = [
  { name: 'Northwind Analytics', slug: 'northwind-analytics', employees: { start: 1_001, end: 5_000 } },
  { name: 'Contoso Logistics', slug: 'contoso-logistics', employees: { start: 201, end: 500 } },
  { name: 'Tailspin Systems', slug: 'tailspin-systems', employees: { start: 501, end: 1_000 } },
  { name: 'Wide World Importers', slug: 'wide-world-importers', employees: { start: 5_001, end: 10_000 } },
  { name: 'Adventure Works Cycles', slug: 'adventure-works-cycles', employees: { start: 51, end: 200 } },
  { name: 'Litware Health', slug: 'litware-health', employees: { start: 10_001, end: null } },
];

function capitalised(part: string | undefined, fallback: string): string {
  return part && /^\p{L}+$/u.test(part) ? part.charAt(0).toUpperCase() + part.slice(1).toLowerCase() : fallback;
}

function professionalnetProfile(handle: string, images: SampleImages = DETACHED_IMAGES): Record<string, unknown> {
  const slug = handle.trim();
  if (isUnknownHandle(slug)) throw new SandboxInputError(NOT_FOUND_MESSAGE);
  const seed = (what: string) => `professional:${slug.toLowerCase()}:${what}`;
  const parts = slug.split(/[-_]/);
  const firstName = capitalised(parts[0], 'Sam');
  const lastName = capitalised(parts[1], 'Rivera');
  // Every year of the career moves together, so careers differ and stay consistent.
  const shift = seededInt(seed('years'), -8, 2);
  const y = (year: number) => year + shift;
  const current = seededPick(seed('employer'), EMPLOYERS);
  const previous = seededPick(
    seed('previous-employer'),
    EMPLOYERS.filter((other) => other !== current),
  );
  const employer = (which: (typeof EMPLOYERS)[number]) => ({
    employees: which.employees,
    id: Number(sampleDigits(`professional-company:${which.slug}`, 8)),
    logo: images.url('logo', `professionalnet-${which.slug}`),
    name: which.name,
    url: `https://www.professionalnet.example/company/${which.slug}/`,
  });
  const city = seededPick(seed('city'), citiesIn('US'));
  const place = `${city.city}, ${city.state}`;
  return {
    first_name: firstName,
    last_name: lastName,
    sub_title: `Engineering Manager, Data Platform at ${current.name} | GraphQL, distributed systems`,
    summary: [
      'I lead teams that build the data platforms product engineers rely on every day.',
      '',
      'Over twelve years I have moved from writing ingestion pipelines to running a group of 14 engineers across three time zones. We own the GraphQL gateway, the event pipeline (2 billion events a day) and the warehouse models behind customer-facing analytics.',
      '',
      'What I care about: small reversible changes, measured performance, and on-call that does not burn people out.',
    ].join('\n'),
    industry: 'Software Development',
    profile_id: `ACoAA${sampleHex(`professional:${slug.toLowerCase()}`, 34)}`,
    entity_urn: `urn:li:fsd_profile:ACoAA${sampleHex(seed('entity'), 34)}`,
    object_urn: Number(sampleDigits(seed('object'), 9)),
    profile_picture: `${images.url('photo', `professionalnet-${slug}`)}?e=1767225600&v=beta&t=q8Zr3kV1`,
    background_image: `${images.url('banner', `professionalnet-${slug}`)}?e=1767225600&v=beta&t=Jm2Lx7Pa`,
    profile_type: 'personal',
    influencer: false,
    open_to_work: false,
    premium: true,
    birth_date: null,
    contact_info: null,
    verifications_info: null,
    awards: [],
    courses: [],
    organizations: [],
    patents: [],
    projects: [],
    related_profiles: [],
    test_scores: [],
    treasury_media: [],
    volunteer_experiences: [],
    skills: [
      'GraphQL',
      'Distributed Systems',
      'Engineering Management',
      'TypeScript',
      'Node.js',
      'PostgreSQL',
      'Apache Kafka',
      'Data Engineering',
      'Kubernetes',
      'Amazon Web Services (AWS)',
      'System Design',
      'Hiring',
      'Mentoring',
      'Go (Programming Language)',
      'Apache Spark',
      'dbt',
      'Site Reliability Engineering',
      'Agile Methodologies',
      'REST APIs',
      'Python (Programming Language)',
    ],
    languages: {
      primary_locale: { country: 'US', language: 'en' },
      profile_languages: [
        { name: 'English', proficiency: 'NATIVE_OR_BILINGUAL' },
        { name: 'Spanish', proficiency: 'PROFESSIONAL_WORKING' },
        { name: 'Portuguese', proficiency: 'ELEMENTARY' },
      ],
      supported_locales: [
        { country: 'US', language: 'en' },
        { country: 'ES', language: 'es' },
      ],
    },
    location: {
      city: city.city,
      country: 'United States',
      default: `${place}, United States`,
      short: place,
      state: city.state,
    },
    network_info: {
      connections_count: seededMagnitude(seed('connections'), 30, 30_000),
      followers_count: seededMagnitude(seed('followers'), 30, 900_000),
      followable: true,
    },
    certifications: [
      {
        authority: 'Amazon Web Services (AWS)',
        display_source: 'credly.com',
        name: 'AWS Certified Solutions Architect – Professional',
        url: 'https://www.credly.com/badges/5d1c2e7a-8b3f-4f0e-9a61-2c7d4e8b1f03',
        license_number: 'AWS-PSA-4471920',
        company: {
          id: 2_382_910,
          logo: images.url('logo', 'professionalnet-amazon-web-services'),
          name: 'Amazon Web Services (AWS)',
          url: 'https://www.professionalnet.example/company/amazon-web-services/',
        },
        date: { start: { day: null, month: 3, year: y(2023) }, end: { day: null, month: 3, year: y(2026) } },
      },
      {
        authority: 'Cloud Native Computing Foundation',
        display_source: 'training.linuxfoundation.example',
        name: 'Certified Kubernetes Administrator (CKA)',
        url: 'https://training.linuxfoundation.example/certification/verify/LF-8xk2p1z9qa',
        license_number: null,
        company: { id: null, logo: images.url('logo', 'professionalnet-cncf'), name: 'Cloud Native Computing Foundation', url: null },
        date: { start: { day: null, month: 11, year: y(2021) }, end: NO_END },
      },
    ],
    education: [
      {
        degree_name: 'Master of Science - MS',
        field_of_study: 'Computer Science',
        description: 'Thesis: consistent snapshots for streaming joins. Teaching assistant for CS 244b (Distributed Systems).',
        grade: null,
        date: period([y(2011), null], [y(2013), null]),
        school: {
          logo: images.url('logo', 'professionalnet-stanford-university'),
          name: 'Stanford University',
          url: 'https://www.professionalnet.example/school/stanford-university/',
        },
      },
      {
        degree_name: 'Bachelor of Science - BS',
        field_of_study: 'Computer Engineering',
        description: null,
        grade: '3.8 GPA',
        date: period([y(2007), null], [y(2011), null]),
        school: {
          logo: images.url('logo', 'professionalnet-uc-san-diego'),
          name: 'University of California San Diego',
          url: 'https://www.professionalnet.example/school/uc-san-diego/',
        },
      },
    ],
    position_groups: [
      {
        company: employer(current),
        date: period([y(2019), 4], null),
        profile_positions: [
          {
            company: current.name,
            description:
              'Lead the Data Platform group (14 engineers, 3 teams): GraphQL gateway, event pipeline and warehouse. Cut p95 API latency from 480 ms to 95 ms and halved infrastructure cost per customer.',
            employment_type: 'Full-time',
            location: `${place}, United States`,
            title: 'Engineering Manager, Data Platform',
            date: period([y(2022), 1], null),
          },
          {
            company: current.name,
            description: 'Designed and built the first GraphQL gateway over 30 internal services; introduced schema review and persisted queries.',
            employment_type: 'Full-time',
            location: null,
            title: 'Staff Software Engineer',
            date: period([y(2019), 4], [y(2021), 12]),
          },
        ],
      },
      {
        company: employer(previous),
        date: period([y(2015), 6], [y(2019), 3]),
        profile_positions: [
          {
            company: previous.name,
            description: 'Built the shipment-tracking event pipeline on Kafka (40k events/s) and its read APIs.',
            employment_type: 'Full-time',
            location: 'Oakland, California, United States',
            title: 'Senior Software Engineer',
            date: period([y(2015), 6], [y(2019), 3]),
          },
        ],
      },
      {
        company: { employees: { start: 11, end: 50 }, id: null, logo: null, name: 'Fabrikam Labs', url: null },
        date: period([y(2013), 7], [y(2015), 5]),
        profile_positions: [
          {
            company: 'Fabrikam Labs',
            description: null,
            employment_type: null,
            location: null,
            title: 'Software Engineer',
            date: period([y(2013), 7], [y(2015), 5]),
          },
        ],
      },
    ],
    publications: [
      {
        name: 'One Gateway, Thirty Services: Lessons from Migrating to GraphQL',
        publisher: 'InfoQ',
        url: 'https://www.infoq.example/articles/graphql-gateway-migration/',
        date: { day: 12, month: 4, year: y(2023) },
        authors: [
          { first_name: firstName, last_name: lastName, headline: `Engineering Manager, Data Platform at ${current.name}`, name: null, type: 'profile' },
          { first_name: 'Priya', last_name: 'Natarajan', headline: `Principal Engineer at ${current.name}`, name: null, type: 'profile' },
        ],
      },
      {
        name: 'Consistent Snapshots for Streaming Joins',
        publisher: 'Stanford CS Technical Reports',
        url: 'https://cs.stanford.example/reports/2013-07',
        date: { day: null, month: 6, year: y(2013) },
        authors: [
          { first_name: firstName, last_name: lastName, headline: `Engineering Manager, Data Platform at ${current.name}`, name: null, type: 'profile' },
          { first_name: null, last_name: null, headline: null, name: 'M. Okafor', type: 'name' },
        ],
      },
    ],
  };
}

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['profile_handle'],
  respond: (b, images) => ({ response: professionalnetProfile(String(b.profile_handle), images) }),
};
