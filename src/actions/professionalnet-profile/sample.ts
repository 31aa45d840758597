import { sampleHex } from '../sample-identity.js';

/**
 * get_professionalnet_profile (contract 2.6). A complete, realistically large profile for any
 * handle: the names come from the handle ("sam-rivera" -> Sam Rivera), the picture URLs carry it.
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

function capitalised(part: string | undefined, fallback: string): string {
  return part && /^\p{L}+$/u.test(part) ? part.charAt(0).toUpperCase() + part.slice(1).toLowerCase() : fallback;
}

export function professionalnetProfile(handle: string): Record<string, unknown> {
  const slug = handle.trim();
  const parts = slug.split(/[-_]/);
  const firstName = capitalised(parts[0], 'Sam');
  const lastName = capitalised(parts[1], 'Rivera');
  const media = 'https://media.professionalnet.example/dms/image';
  return {
    first_name: firstName,
    last_name: lastName,
    sub_title: 'Engineering Manager, Data Platform at Northwind Analytics | GraphQL, distributed systems',
    summary: [
      'I lead teams that build the data platforms product engineers rely on every day.',
      '',
      'Over twelve years I have moved from writing ingestion pipelines to running a group of 14 engineers across three time zones. We own the GraphQL gateway, the event pipeline (2 billion events a day) and the warehouse models behind customer-facing analytics.',
      '',
      'What I care about: small reversible changes, measured performance, and on-call that does not burn people out.',
    ].join('\n'),
    industry: 'Software Development',
    profile_id: `ACoAA${sampleHex(`professional:${slug.toLowerCase()}`, 34)}`,
    entity_urn: 'urn:li:fsd_profile:ACoAAB4m2XQBc1vR7oQj0p3sKfXh2YwLmN8tUe4',
    object_urn: 509_446_612,
    profile_picture: `${media}/D5603AQH7kq2R9xYz1w/profile-displayphoto-shrink_800_800/${slug}/0?e=1767225600&v=beta&t=q8Zr3kV1`,
    background_image: `${media}/D5616AQF2mP0xLq4sEw/profile-displaybackgroundimage-shrink_350_1400/${slug}/0?e=1767225600&v=beta&t=Jm2Lx7Pa`,
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
      city: 'San Francisco',
      country: 'United States',
      default: 'San Francisco, California, United States',
      short: 'San Francisco, California',
      state: 'California',
    },
    network_info: { connections_count: 2_847, followers_count: 3_912, followable: true },
    certifications: [
      {
        authority: 'Amazon Web Services (AWS)',
        display_source: 'credly.com',
        name: 'AWS Certified Solutions Architect – Professional',
        url: 'https://www.credly.com/badges/5d1c2e7a-8b3f-4f0e-9a61-2c7d4e8b1f03',
        license_number: 'AWS-PSA-4471920',
        company: {
          id: 2_382_910,
          logo: `${media}/C560BAQGh3kQ2vV0ypA/company-logo_200_200/aws/0`,
          name: 'Amazon Web Services (AWS)',
          url: 'https://www.professionalnet.example/company/amazon-web-services/',
        },
        date: { start: { day: null, month: 3, year: 2023 }, end: { day: null, month: 3, year: 2026 } },
      },
      {
        authority: 'Cloud Native Computing Foundation',
        display_source: 'training.linuxfoundation.example',
        name: 'Certified Kubernetes Administrator (CKA)',
        url: 'https://training.linuxfoundation.example/certification/verify/LF-8xk2p1z9qa',
        license_number: null,
        company: { id: null, logo: `${media}/C4E0BAQF9wP1nYq3h8g/company-logo_200_200/cncf/0`, name: 'Cloud Native Computing Foundation', url: null },
        date: { start: { day: null, month: 11, year: 2021 }, end: NO_END },
      },
    ],
    education: [
      {
        degree_name: 'Master of Science - MS',
        field_of_study: 'Computer Science',
        description: 'Thesis: consistent snapshots for streaming joins. Teaching assistant for CS 244b (Distributed Systems).',
        grade: null,
        date: period([2011, null], [2013, null]),
        school: {
          logo: `${media}/C560BAQHrq0o8Xvx4xg/company-logo_100_100/stanford/0`,
          name: 'Stanford University',
          url: 'https://www.professionalnet.example/school/stanford-university/',
        },
      },
      {
        degree_name: 'Bachelor of Science - BS',
        field_of_study: 'Computer Engineering',
        description: null,
        grade: '3.8 GPA',
        date: period([2007, null], [2011, null]),
        school: {
          logo: `${media}/C4D0BAQGu1kQ9o6f8yA/company-logo_100_100/ucsd/0`,
          name: 'University of California San Diego',
          url: 'https://www.professionalnet.example/school/uc-san-diego/',
        },
      },
    ],
    position_groups: [
      {
        company: {
          employees: { start: 1_001, end: 5_000 },
          id: 18_244_011,
          logo: `${media}/C4E0BAQE8n2kLw1Xb4Q/company-logo_200_200/northwind/0`,
          name: 'Northwind Analytics',
          url: 'https://www.professionalnet.example/company/northwind-analytics/',
        },
        date: period([2019, 4], null),
        profile_positions: [
          {
            company: 'Northwind Analytics',
            description:
              'Lead the Data Platform group (14 engineers, 3 teams): GraphQL gateway, event pipeline and warehouse. Cut p95 API latency from 480 ms to 95 ms and halved infrastructure cost per customer.',
            employment_type: 'Full-time',
            location: 'San Francisco, California, United States',
            title: 'Engineering Manager, Data Platform',
            date: period([2022, 1], null),
          },
          {
            company: 'Northwind Analytics',
            description: 'Designed and built the first GraphQL gateway over 30 internal services; introduced schema review and persisted queries.',
            employment_type: 'Full-time',
            location: null,
            title: 'Staff Software Engineer',
            date: period([2019, 4], [2021, 12]),
          },
        ],
      },
      {
        company: {
          employees: { start: 201, end: 500 },
          id: 3_105_577,
          logo: `${media}/C560BAQF0r3vYw8Lp1A/company-logo_200_200/contoso/0`,
          name: 'Contoso Logistics',
          url: 'https://www.professionalnet.example/company/contoso-logistics/',
        },
        date: period([2015, 6], [2019, 3]),
        profile_positions: [
          {
            company: 'Contoso Logistics',
            description: 'Built the shipment-tracking event pipeline on Kafka (40k events/s) and its read APIs.',
            employment_type: 'Full-time',
            location: 'Oakland, California, United States',
            title: 'Senior Software Engineer',
            date: period([2015, 6], [2019, 3]),
          },
        ],
      },
      {
        company: { employees: { start: 11, end: 50 }, id: null, logo: null, name: 'Fabrikam Labs', url: null },
        date: period([2013, 7], [2015, 5]),
        profile_positions: [
          {
            company: 'Fabrikam Labs',
            description: null,
            employment_type: null,
            location: null,
            title: 'Software Engineer',
            date: period([2013, 7], [2015, 5]),
          },
        ],
      },
    ],
    publications: [
      {
        name: 'One Gateway, Thirty Services: Lessons from Migrating to GraphQL',
        publisher: 'InfoQ',
        url: 'https://www.infoq.example/articles/graphql-gateway-migration/',
        date: { day: 12, month: 4, year: 2023 },
        authors: [
          { first_name: firstName, last_name: lastName, headline: 'Engineering Manager, Data Platform at Northwind Analytics', name: null, type: 'profile' },
          { first_name: 'Priya', last_name: 'Natarajan', headline: 'Principal Engineer at Northwind Analytics', name: null, type: 'profile' },
        ],
      },
      {
        name: 'Consistent Snapshots for Streaming Joins',
        publisher: 'Stanford CS Technical Reports',
        url: 'https://cs.stanford.example/reports/2013-07',
        date: { day: null, month: 6, year: 2013 },
        authors: [
          { first_name: firstName, last_name: lastName, headline: 'Engineering Manager, Data Platform at Northwind Analytics', name: null, type: 'profile' },
          { first_name: null, last_name: null, headline: null, name: 'M. Okafor', type: 'name' },
        ],
      },
    ],
  };
}
