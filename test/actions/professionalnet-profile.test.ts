import { describe, expect } from 'vitest';
import { it, upstreamGatewayFor } from '../support/fixtures.js';
import { json } from '../support/fault-upstream.js';
import { answered, answersWithCalls, itRejectsBeforeUpstream, smallerThanRest } from '../support/assertions.js';
import { sampleHex } from '../../src/sandbox/data/identity.js';

const DATE = 'year month day iso';
const PERIOD = `start { ${DATE} } end { ${DATE} } isOngoing`;
const COMPANY = 'id name logoUrl url employeeCountRange { min max }';
const EVERY_FIELD = `
  handle profileId entityUrn objectUrn firstName lastName fullName headline summary industry profileType
  avatarUrl backgroundImageUrl isInfluencer isOpenToWork isPremium
  location { label shortLabel city state country }
  languages { primaryLocale { language country tag } supportedLocales { language country tag } profileLanguages { name proficiency } }
  network { connectionCount followerCount isFollowable }
  skills
  positionGroups { company { ${COMPANY} } period { ${PERIOD} } positions { title companyName employmentType location description period { ${PERIOD} } } }
  education { school { name logoUrl url } degreeName fieldOfStudy grade description period { ${PERIOD} } }
  certifications { name authority displaySource url licenseNumber company { ${COMPANY} } period { ${PERIOD} } }
  publications { name publisher url date { ${DATE} } authors { name firstName lastName headline type } }
  awards courses organizations patents projects relatedProfiles testScores treasuryMedia volunteerExperiences
  birthDate contactInfo verificationsInfo`;

/** An open end (the upstream sends a date group with no parts): no date at all. */
const OPEN = null;
const ym = (year: number, month: number | null) => ({
  year,
  month,
  day: null,
  iso: month === null ? String(year) : `${year}-${String(month).padStart(2, '0')}`,
});

describe('professionalnetProfile against the sandbox', () => {
  it('resolves every field of a profile', async ({ sandbox: gw }) => {
    const { body } = await answered(gw, `{ professionalnetProfile(handle: "Jordan-Lee") { ${EVERY_FIELD} } }`);
    const profile = body.data!.professionalnetProfile;
    // The sandbox derives the career from the handle: for jordan-lee, two years earlier than the template's, at Adventure Works Cycles and Tailspin Systems.
    const images = `${gw.gateway.sandbox!.url}/images`;
    expect(profile).toMatchObject({
      handle: 'jordan-lee',
      profileId: `ACoAA${sampleHex('professional:jordan-lee', 34)}`,
      entityUrn: 'urn:li:fsd_profile:ACoAA1e876bd4efac8adc5f65ed0a0675754254',
      objectUrn: '803441554',
      firstName: 'Jordan',
      lastName: 'Lee',
      fullName: 'Jordan Lee',
      headline: 'Engineering Manager, Data Platform at Adventure Works Cycles | GraphQL, distributed systems',
      industry: 'Software Development',
      profileType: 'personal',
      avatarUrl: `${images}/photo/professionalnet-jordan-lee.png?e=1767225600&v=beta&t=q8Zr3kV1`,
      backgroundImageUrl: `${images}/banner/professionalnet-jordan-lee.png?e=1767225600&v=beta&t=Jm2Lx7Pa`,
      isInfluencer: false,
      isOpenToWork: false,
      isPremium: true,
      location: {
        label: 'San Francisco, California, United States',
        shortLabel: 'San Francisco, California',
        city: 'San Francisco',
        state: 'California',
        country: 'United States',
      },
      languages: {
        primaryLocale: { language: 'en', country: 'US', tag: 'en-US' },
        supportedLocales: [
          { language: 'en', country: 'US', tag: 'en-US' },
          { language: 'es', country: 'ES', tag: 'es-ES' },
        ],
        profileLanguages: [
          { name: 'English', proficiency: 'NATIVE_OR_BILINGUAL' },
          { name: 'Spanish', proficiency: 'PROFESSIONAL_WORKING' },
          { name: 'Portuguese', proficiency: 'ELEMENTARY' },
        ],
      },
      network: { connectionCount: 62, followerCount: 4896, isFollowable: true },
      awards: [],
      courses: [],
      organizations: [],
      patents: [],
      projects: [],
      relatedProfiles: [],
      testScores: [],
      treasuryMedia: [],
      volunteerExperiences: [],
      birthDate: null,
      contactInfo: null,
      verificationsInfo: null,
    });
    expect(profile.summary.split('\n')).toHaveLength(5);
    expect(profile.summary).toMatch(/^I lead teams that build the data platforms/);
    expect(profile.skills).toHaveLength(20);
    expect(profile.skills.slice(0, 3)).toEqual(['GraphQL', 'Distributed Systems', 'Engineering Management']);

    expect(profile.positionGroups).toEqual([
      {
        company: {
          id: '69162446',
          name: 'Adventure Works Cycles',
          logoUrl: `${images}/logo/professionalnet-adventure-works-cycles.png`,
          url: 'https://www.professionalnet.example/company/adventure-works-cycles/',
          employeeCountRange: { min: 51, max: 200 },
        },
        period: { start: ym(2017, 4), end: OPEN, isOngoing: true },
        positions: [
          {
            title: 'Engineering Manager, Data Platform',
            companyName: 'Adventure Works Cycles',
            employmentType: 'Full-time',
            location: 'San Francisco, California, United States',
            description:
              'Lead the Data Platform group (14 engineers, 3 teams): GraphQL gateway, event pipeline and warehouse. Cut p95 API latency from 480 ms to 95 ms and halved infrastructure cost per customer.',
            period: { start: ym(2020, 1), end: OPEN, isOngoing: true },
          },
          {
            title: 'Staff Software Engineer',
            companyName: 'Adventure Works Cycles',
            employmentType: 'Full-time',
            location: null,
            description:
              'Designed and built the first GraphQL gateway over 30 internal services; introduced schema review and persisted queries.',
            period: { start: ym(2017, 4), end: ym(2019, 12), isOngoing: false },
          },
        ],
      },
      {
        company: {
          id: '90919337',
          name: 'Tailspin Systems',
          logoUrl: `${images}/logo/professionalnet-tailspin-systems.png`,
          url: 'https://www.professionalnet.example/company/tailspin-systems/',
          employeeCountRange: { min: 501, max: 1000 },
        },
        period: { start: ym(2013, 6), end: ym(2017, 3), isOngoing: false },
        positions: [
          {
            title: 'Senior Software Engineer',
            companyName: 'Tailspin Systems',
            employmentType: 'Full-time',
            location: 'Oakland, California, United States',
            description: 'Built the shipment-tracking event pipeline on Kafka (40k events/s) and its read APIs.',
            period: { start: ym(2013, 6), end: ym(2017, 3), isOngoing: false },
          },
        ],
      },
      {
        // The nulls the live service sends for a small employer resolve as null, not as errors.
        company: {
          id: null,
          name: 'Fabrikam Labs',
          logoUrl: null,
          url: null,
          employeeCountRange: { min: 11, max: 50 },
        },
        period: { start: ym(2011, 7), end: ym(2013, 5), isOngoing: false },
        positions: [
          {
            title: 'Software Engineer',
            companyName: 'Fabrikam Labs',
            employmentType: null,
            location: null,
            description: null,
            period: { start: ym(2011, 7), end: ym(2013, 5), isOngoing: false },
          },
        ],
      },
    ]);

    expect(profile.education).toEqual([
      {
        school: {
          name: 'Stanford University',
          logoUrl: `${images}/logo/professionalnet-stanford-university.png`,
          url: 'https://www.professionalnet.example/school/stanford-university/',
        },
        degreeName: 'Master of Science - MS',
        fieldOfStudy: 'Computer Science',
        grade: null,
        description:
          'Thesis: consistent snapshots for streaming joins. Teaching assistant for CS 244b (Distributed Systems).',
        period: { start: ym(2009, null), end: ym(2011, null), isOngoing: false },
      },
      {
        school: {
          name: 'University of California San Diego',
          logoUrl: `${images}/logo/professionalnet-uc-san-diego.png`,
          url: 'https://www.professionalnet.example/school/uc-san-diego/',
        },
        degreeName: 'Bachelor of Science - BS',
        fieldOfStudy: 'Computer Engineering',
        grade: '3.8 GPA',
        description: null,
        period: { start: ym(2005, null), end: ym(2009, null), isOngoing: false },
      },
    ]);

    expect(profile.certifications).toEqual([
      {
        name: 'AWS Certified Solutions Architect – Professional',
        authority: 'Amazon Web Services (AWS)',
        displaySource: 'credly.com',
        url: 'https://www.credly.com/badges/5d1c2e7a-8b3f-4f0e-9a61-2c7d4e8b1f03',
        licenseNumber: 'AWS-PSA-4471920',
        company: {
          id: '2382910',
          name: 'Amazon Web Services (AWS)',
          logoUrl: `${images}/logo/professionalnet-amazon-web-services.png`,
          url: 'https://www.professionalnet.example/company/amazon-web-services/',
          employeeCountRange: null,
        },
        period: { start: ym(2021, 3), end: ym(2024, 3), isOngoing: false },
      },
      {
        name: 'Certified Kubernetes Administrator (CKA)',
        authority: 'Cloud Native Computing Foundation',
        displaySource: 'training.linuxfoundation.example',
        url: 'https://training.linuxfoundation.example/certification/verify/LF-8xk2p1z9qa',
        licenseNumber: null,
        company: {
          id: null,
          name: 'Cloud Native Computing Foundation',
          logoUrl: `${images}/logo/professionalnet-cncf.png`,
          url: null,
          employeeCountRange: null,
        },
        period: { start: ym(2019, 11), end: OPEN, isOngoing: true },
      },
    ]);

    const headline = 'Engineering Manager, Data Platform at Adventure Works Cycles';
    expect(profile.publications).toEqual([
      {
        name: 'One Gateway, Thirty Services: Lessons from Migrating to GraphQL',
        publisher: 'InfoQ',
        url: 'https://www.infoq.example/articles/graphql-gateway-migration/',
        date: { year: 2021, month: 4, day: 12, iso: '2021-04-12' },
        authors: [
          { name: null, firstName: 'Jordan', lastName: 'Lee', headline, type: 'profile' },
          {
            name: null,
            firstName: 'Priya',
            lastName: 'Natarajan',
            headline: 'Principal Engineer at Adventure Works Cycles',
            type: 'profile',
          },
        ],
      },
      {
        name: 'Consistent Snapshots for Streaming Joins',
        publisher: 'Stanford CS Technical Reports',
        url: 'https://cs.stanford.example/reports/2013-07',
        date: { year: 2011, month: 6, day: null, iso: '2011-06' },
        authors: [
          { name: null, firstName: 'Jordan', lastName: 'Lee', headline, type: 'profile' },
          { name: 'M. Okafor', firstName: null, lastName: null, headline: null, type: 'name' },
        ],
      },
    ]);
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('makes one upstream call for the same profile asked by handle, by another case and by URL', async ({
    sandbox: gw,
  }) => {
    const { body } = await answersWithCalls(
      gw,
      'get_professionalnet_profile',
      `{
      a: professionalnetProfile(handle: "sam-rivera") { fullName }
      b: professionalnetProfile(handle: "Sam-Rivera") { handle }
      c: professionalnetProfile(handle: "https://www.professionalnet.example/in/sam-rivera/") { network { followerCount } }
    }`,
      { a: { fullName: 'Sam Rivera' }, b: { handle: 'sam-rivera' }, c: { network: { followerCount: 441479 } } },
    );
    expect(body.extensions?.gateway.upstreamCalls).toBe(1);
  });

  itRejectsBeforeUpstream('professionalnetProfile', 'handle', 'handle', [
    ['', 'must not be empty'],
    ['ab', 'must be a profile handle'],
    ['a'.repeat(101), 'must be a profile handle'],
    ['sam rivera', 'must be a profile handle'],
    ['sam.rivera', 'must be a profile handle'],
    ['../admin', 'must be a profile handle'],
    ['https://www.professionalnet.example/company/northwind/', 'profile URL such as'],
    ['www.professionalnet.example/in/', 'profile URL such as'],
    ['ftp://www.professionalnet.example/in/sam-rivera/', 'must be a profile handle'],
    ['https://www.professionalnet.example/in/x/', 'must be a profile handle'],
  ]);

  it('answers a five-field query in a small fraction of the REST payload', async ({ sandbox: gw }) => {
    await smallerThanRest(gw, {
      action: 'get_professionalnet_profile',
      body: { profile_handle: 'sam-rivera' },
      query:
        '{ professionalnetProfile(handle: "sam-rivera") { fullName headline avatarUrl location { label } network { followerCount } } }',
      maxBytes: 650, // a few hundred bytes, extensions.gateway (calls, cost estimate, lookups) included
      factor: 10,
    });
  });
});

describe('professionalnetProfile against upstream variants', () => {
  const { up, gw } = upstreamGatewayFor();

  it('resolves the nulls the live service sends as null, never as errors', async () => {
    up.handle((_call, _req, res) =>
      json(res, 200, {
        status: 200,
        response: {
          first_name: 'Ana',
          last_name: null,
          sub_title: 'Freelance translator',
          object_urn: 3_402_117_889,
          location: { city: null, country: 'Germany', default: 'Germany', short: 'Germany', state: null },
          position_groups: [
            {
              company: {
                employees: { start: null, end: null },
                id: null,
                logo: null,
                name: 'Self-employed',
                url: null,
              },
              date: { start: { day: null, month: null, year: 2020 }, end: { day: null, month: null, year: null } },
              profile_positions: [
                {
                  company: null,
                  description: null,
                  employment_type: null,
                  location: null,
                  title: 'Translator',
                  date: { start: { day: null, month: null, year: 2020 }, end: null },
                },
              ],
            },
          ],
          certifications: [{ name: 'Sworn translator', license_number: 48_117, company: null, date: null }],
          publications: [{ name: 'Glossary', date: { day: 31, month: 2, year: 2021 }, authors: null }],
          skills: ['Translation', 17, null, 'German'],
          awards: [{ title: 'Translator of the year' }, null],
          contact_info: { email: 'ana@example.org' },
        },
      }),
    );
    const { body } = await gw.query(`{ professionalnetProfile(handle: "ana_translates") {
      fullName firstName lastName objectUrn headline
      location { label shortLabel city state country }
      positionGroups { company { ${COMPANY} } period { ${PERIOD} } positions { title companyName employmentType location description period { ${PERIOD} } } }
      certifications { name licenseNumber company { name } period { isOngoing } }
      publications { name date { ${DATE} } authors { name } }
      skills awards contactInfo birthDate languages { primaryLocale { tag } } network { followerCount } education { degreeName }
    } }`);
    expect(body.errors).toBeUndefined();
    expect(up.calls.map((call) => call.body)).toEqual([{ profile_handle: 'ana_translates' }]);
    expect(body.data!.professionalnetProfile).toEqual({
      fullName: 'Ana',
      firstName: 'Ana',
      lastName: null,
      objectUrn: '3402117889',
      headline: 'Freelance translator',
      location: { label: 'Germany', shortLabel: 'Germany', city: null, state: null, country: 'Germany' },
      positionGroups: [
        {
          company: { id: null, name: 'Self-employed', logoUrl: null, url: null, employeeCountRange: null },
          period: { start: { year: 2020, month: null, day: null, iso: '2020' }, end: OPEN, isOngoing: true },
          positions: [
            {
              title: 'Translator',
              companyName: null,
              employmentType: null,
              location: null,
              description: null,
              period: { start: { year: 2020, month: null, day: null, iso: '2020' }, end: null, isOngoing: true },
            },
          ],
        },
      ],
      certifications: [{ name: 'Sworn translator', licenseNumber: '48117', company: null, period: null }],
      // 31 February is not a day: the day is dropped, the month kept.
      publications: [{ name: 'Glossary', date: { year: 2021, month: 2, day: null, iso: '2021-02' }, authors: [] }],
      skills: ['Translation', 'German'],
      awards: [{ title: 'Translator of the year' }],
      contactInfo: { email: 'ana@example.org' },
      birthDate: null,
      languages: null,
      network: null,
      education: [],
    });
  });

  it('reports a response that is not an object as UPSTREAM_BAD_RESPONSE', async () => {
    up.handle((_call, _req, res) => json(res, 200, { status: 200, response: ['not', 'a', 'profile'] }));
    const { body } = await gw.query('{ professionalnetProfile(handle: "sam-rivera") { fullName } }');
    expect(body.data).toEqual({ professionalnetProfile: null });
    expect(body.errors![0]!.extensions).toMatchObject({
      code: 'UPSTREAM_BAD_RESPONSE',
      action: 'get_professionalnet_profile',
    });
  });
});
