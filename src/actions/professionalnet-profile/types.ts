import { builder } from '../../schema/builder.js';
import { bool, id, list, obj, objects, type Raw, safeInt, str, strings, text, url } from '../../schema/read.js';
import {
  ProfessionalCertification,
  ProfessionalEducation,
  ProfessionalPositionGroup,
  ProfessionalPublication,
} from './career.js';
import type { ProfessionalProfileSource } from './load.js';

const ProfessionalLocale = builder.objectRef<Raw>('ProfessionalLocale').implement({
  description: 'A language and country pair, such as the language a profile is written in.',
  fields: (t) => ({
    language: t.string({ description: 'ISO 639-1 language code, e.g. "en".', resolve: (l) => str(l.language) }),
    country: t.string({ description: 'ISO 3166-1 alpha-2 country code, e.g. "US".', resolve: (l) => str(l.country) }),
    tag: t.string({
      description:
        'The locale as a BCP 47 language tag, e.g. "en-US" ("en" without a country); null without a language. Usable with Intl APIs.',
      resolve: (l) => {
        const language = text(l.language)?.trim();
        const country = text(l.country)?.trim();
        if (!language) return null;
        return country ? `${language.toLowerCase()}-${country.toUpperCase()}` : language.toLowerCase();
      },
    }),
  }),
});

const ProfessionalLanguage = builder.objectRef<Raw>('ProfessionalLanguage').implement({
  description: 'A language the person lists, with how well they speak it.',
  fields: (t) => ({
    name: t.string({ description: 'Language name as written, e.g. "Spanish".', resolve: (l) => str(l.name) }),
    proficiency: t.string({
      description:
        'Proficiency as the upstream codes it, e.g. "NATIVE_OR_BILINGUAL", "PROFESSIONAL_WORKING", "ELEMENTARY"; null when not given.',
      resolve: (l) => str(l.proficiency),
    }),
  }),
});

const ProfessionalLanguages = builder.objectRef<Raw>('ProfessionalLanguages').implement({
  description:
    'The languages of a profile: the one it is written in, other locales it is offered in, and the languages the person speaks.',
  fields: (t) => ({
    primaryLocale: t.field({
      type: ProfessionalLocale,
      description: 'The locale the profile is written in.',
      resolve: (l) => obj(l.primary_locale),
    }),
    supportedLocales: t.field({
      type: [ProfessionalLocale],
      nullable: false,
      description: 'Locales the profile is available in. Empty when not given.',
      resolve: (l) => objects(l.supported_locales),
    }),
    profileLanguages: t.field({
      type: [ProfessionalLanguage],
      nullable: false,
      description: 'Languages the person speaks, with proficiency. Empty when none are listed.',
      resolve: (l) => objects(l.profile_languages),
    }),
  }),
});

const ProfessionalLocation = builder.objectRef<Raw>('ProfessionalLocation').implement({
  description: 'Where a person is based. City and state are often null; `label` is the best single line to show.',
  fields: (t) => ({
    label: t.string({
      description:
        'The location as the profile shows it, e.g. "San Francisco, California, United States" (upstream `default`).',
      resolve: (l) => str(l.default),
    }),
    shortLabel: t.string({
      description: 'A shorter form for tight layouts, e.g. "San Francisco, California" (upstream `short`).',
      resolve: (l) => str(l.short),
    }),
    city: t.string({
      description: 'City; null when the person gave only a region or country.',
      resolve: (l) => str(l.city),
    }),
    state: t.string({ description: 'State, province or region; null when not given.', resolve: (l) => str(l.state) }),
    country: t.string({ description: 'Country name, e.g. "United States".', resolve: (l) => str(l.country) }),
  }),
});

const ProfessionalNetworkInfo = builder.objectRef<Raw>('ProfessionalNetworkInfo').implement({
  description: "The size of a person's network on the site.",
  fields: (t) => ({
    connectionCount: t.field({
      type: 'SafeInt',
      description:
        'Number of connections (the site shows "500+" above 500; this is the exact count the upstream gives).',
      resolve: (n) => safeInt(n.connections_count),
    }),
    followerCount: t.field({
      type: 'SafeInt',
      description: 'Number of followers.',
      resolve: (n) => safeInt(n.followers_count),
    }),
    isFollowable: t.boolean({
      description: 'Whether others can follow the person (upstream `followable`).',
      resolve: (n) => bool(n.followable),
    }),
  }),
});

/** Arrays the upstream has only shown empty: their elements are passed through as JSON. */
function jsonList(value: unknown): unknown[] {
  return list(value).filter((item) => item !== null && item !== undefined);
}

function jsonValue(value: unknown): unknown {
  return value === undefined ? null : value;
}

const UNKNOWN_SHAPE =
  'Its element shape is not documented yet, so elements come as JSON exactly as the upstream sent them. Empty when none.';

export const ProfessionalProfile = builder.objectRef<ProfessionalProfileSource>('ProfessionalProfile').implement({
  description:
    "A person's profile on the professional network. The upstream payload is tens of kilobytes; select only what you show.",
  fields: (t) => ({
    handle: t.string({
      nullable: false,
      description: 'The handle looked up, lower-case (the part after /in/ in the profile URL).',
      resolve: (p) => p.handle,
    }),
    profileId: t.id({
      description: "The network's identifier of the profile (upstream `profile_id`).",
      resolve: (p) => id(p.raw.profile_id),
    }),
    entityUrn: t.string({
      description: 'The profile\'s entity URN, e.g. "urn:li:fsd_profile:ACoAA…".',
      resolve: (p) => str(p.raw.entity_urn),
    }),
    objectUrn: t.id({
      description: "The profile's numeric object URN, as a string (the upstream sends a number that can exceed 2^31).",
      resolve: (p) => id(p.raw.object_urn),
    }),
    firstName: t.string({ description: 'First name.', resolve: (p) => str(p.raw.first_name) }),
    lastName: t.string({ description: 'Last name.', resolve: (p) => str(p.raw.last_name) }),
    fullName: t.string({
      description: 'First and last name joined with a space; null when both are missing.',
      resolve: (p) => [text(p.raw.first_name)?.trim(), text(p.raw.last_name)?.trim()].filter(Boolean).join(' ') || null,
    }),
    headline: t.string({
      description:
        'The one-line headline under the name, e.g. "Engineering Manager at Northwind" (upstream `sub_title`).',
      resolve: (p) => str(p.raw.sub_title),
    }),
    summary: t.string({ description: 'The "About" text, multi-line.', resolve: (p) => str(p.raw.summary) }),
    industry: t.string({
      description: 'Industry the person gives, e.g. "Software Development".',
      resolve: (p) => str(p.raw.industry),
    }),
    profileType: t.string({
      description: 'Kind of profile as the upstream names it, e.g. "personal".',
      resolve: (p) => str(p.raw.profile_type),
    }),
    avatarUrl: t.field({
      type: 'URL',
      description: 'Profile photo URL (upstream `profile_picture`); such links expire after some weeks.',
      resolve: (p) => url(p.raw.profile_picture),
    }),
    backgroundImageUrl: t.field({
      type: 'URL',
      description: 'Banner image URL (upstream `background_image`).',
      resolve: (p) => url(p.raw.background_image),
    }),
    isInfluencer: t.boolean({
      description: 'Whether the network marks the person as an influencer (upstream `influencer`).',
      resolve: (p) => bool(p.raw.influencer),
    }),
    isOpenToWork: t.boolean({
      description: 'Whether the person shows they are open to work (upstream `open_to_work`).',
      resolve: (p) => bool(p.raw.open_to_work),
    }),
    isPremium: t.boolean({
      description: 'Whether the person has a premium subscription (upstream `premium`).',
      resolve: (p) => bool(p.raw.premium),
    }),
    location: t.field({
      type: ProfessionalLocation,
      description: 'Where the person is based.',
      resolve: (p) => obj(p.raw.location),
    }),
    languages: t.field({
      type: ProfessionalLanguages,
      description: "The profile's locales and the languages the person speaks.",
      resolve: (p) => obj(p.raw.languages),
    }),
    network: t.field({
      type: ProfessionalNetworkInfo,
      description: 'Connection and follower counts (upstream `network_info`).',
      resolve: (p) => obj(p.raw.network_info),
    }),
    skills: t.stringList({
      nullable: false,
      description: 'Skills the person lists, in profile order. Empty when none.',
      resolve: (p) => strings(p.raw.skills),
    }),
    positionGroups: t.field({
      type: [ProfessionalPositionGroup],
      nullable: false,
      description: 'Work experience, one entry per company with its roles, most recent first. Empty when none.',
      resolve: (p) => objects(p.raw.position_groups),
    }),
    education: t.field({
      type: [ProfessionalEducation],
      nullable: false,
      description: 'Education, most recent first. Empty when none.',
      resolve: (p) => objects(p.raw.education),
    }),
    certifications: t.field({
      type: [ProfessionalCertification],
      nullable: false,
      description: 'Licences and certifications. Empty when none.',
      resolve: (p) => objects(p.raw.certifications),
    }),
    publications: t.field({
      type: [ProfessionalPublication],
      nullable: false,
      description: 'Publications. Empty when none.',
      resolve: (p) => objects(p.raw.publications),
    }),
    awards: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Honours and awards. ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.awards),
    }),
    courses: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Courses taken. ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.courses),
    }),
    organizations: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Organisations the person belongs to. ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.organizations),
    }),
    patents: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Patents. ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.patents),
    }),
    projects: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Projects. ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.projects),
    }),
    relatedProfiles: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Related ("people also viewed") profiles (upstream \`related_profiles\`). ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.related_profiles),
    }),
    testScores: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Test scores (upstream \`test_scores\`). ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.test_scores),
    }),
    treasuryMedia: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Media attached to the profile (upstream \`treasury_media\`). ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.treasury_media),
    }),
    volunteerExperiences: t.field({
      type: ['JSON'],
      nullable: false,
      description: `Volunteer experience (upstream \`volunteer_experiences\`). ${UNKNOWN_SHAPE}`,
      resolve: (p) => jsonList(p.raw.volunteer_experiences),
    }),
    birthDate: t.field({
      type: 'JSON',
      description: 'Birth date as the upstream sent it (shape not documented yet; usually null).',
      resolve: (p) => jsonValue(p.raw.birth_date),
    }),
    contactInfo: t.field({
      type: 'JSON',
      description: 'Contact details as the upstream sent them (shape not documented yet; usually null).',
      resolve: (p) => jsonValue(p.raw.contact_info),
    }),
    verificationsInfo: t.field({
      type: 'JSON',
      description: 'Identity verifications as the upstream sent them (shape not documented yet; usually null).',
      resolve: (p) => jsonValue(p.raw.verifications_info),
    }),
  }),
});
