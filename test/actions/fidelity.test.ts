/**
 * Every documented value, exact. For each of the eleven actions, documented-examples.json holds an
 * example envelope with every field the contract lists for the action (action-service.md part 2),
 * in the shapes observed-behaviour.md names: brand-named keys, a location of zeros and empty strings,
 * integers above 2^31 and 2^53, `lastDiv` 0 in one record and a fraction in the next, open-ended and
 * 0-1 employee bands, empty display names and archived owners, the extra `channels` of a video search,
 * and lists longer than a page shows at first. The fault upstream serves it; a query generated from
 * the schema selects every field of the root field's type (no arguments but the lookup key, no paid
 * links, no deprecated fields); every leaf value of the example must come back where the schema
 * exposes it, with one upstream call: strings byte for byte, numbers as numbers (0 stays 0),
 * booleans, nulls and empty lists as such.
 *
 * Where a value comes back is its upstream path camel-cased (`location_data.city_id` is
 * `locationData.cityId`), unless the action's `moved` table says where the schema moved or renamed
 * it; inside a JSON field keys stay the upstream's. Counted apart, and reported: an integer the schema
 * types as ID comes back as its digits ("as ID": `link_id` 17899966490651260 is "17899966490651260");
 * an empty string in a URL, Date or DateTime field, scalars that cannot hold one, comes back null
 * ("empty as null"); a value exposed only in a derived form counts ("derived") only when `derived`
 * rebuilds it exactly from the response.
 */
import { readFileSync } from 'node:fs';
import {
  type GraphQLField,
  type GraphQLNamedType,
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
  isInterfaceType,
  isNonNullType,
} from 'graphql';
import { describe, expect } from 'vitest';
import { schema } from '../../src/graph/index.js';
import { json } from '../support/fault-upstream.js';
import { it } from '../support/fixtures.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;

const EXAMPLES = JSON.parse(readFileSync(new URL('./documented-examples.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, Json>
>;

interface Case {
  action: string;
  /** The root field with its key argument, e.g. `domainInfo(domain: "hubspot.com")`. */
  root: string;
  /** The upstream value the root field resolves from (the envelope's `response`, or more). */
  source: (envelope: Record<string, Json>) => Json;
  /** Upstream path prefix -> response path prefix (below the root field); `*` stands for a list index. */
  moved?: Record<string, string>;
  /** Upstream paths exposed only in a derived form, each rebuilt exactly from the root field's value. */
  derived?: Record<string, (value: any) => Json | undefined>;
}

const CASES: Case[] = [
  {
    action: 'domain_info',
    root: 'domainInfo(domain: "hubspot.com")',
    source: (e) => e.response!,
    moved: {
      ...contact('administrative_contact', 'administrativeContact'),
      ...contact('registrant_contact', 'registrantContact'),
      ...contact('technical_contact', 'technicalContact'),
      create_date: 'createdOnText',
      update_date: 'updatedOnText',
      expiry_date: 'expiresOnText',
      domain_registered: 'registrationStatus',
      domain_registrar: 'registrar',
      'domain_registrar.email_address': 'registrar.email',
      'domain_registrar.phone_number': 'registrar.phone',
      'domain_registrar.registrar_name': 'registrar.name',
      'domain_registrar.website_url': 'registrar.website',
      domain_status: 'statuses',
      status: 'lookupSucceeded',
      whois_raw_domain: 'whoisRaw',
    },
  },
  {
    action: 'get_photosocial_profile',
    root: 'photosocialProfile(username: "ava.lindqvist")',
    source: (e) => (e.response as Record<string, Json>).response!,
    moved: {
      id: 'accountId',
      instagram_pk: 'pk',
      'bio_links.*.open_external_url_with_in_app_browser': 'bioLinks.*.isOpenedInAppBrowser',
      fan_club_info: 'fanClub',
      'fan_club_info.autosave_to_exclusive_highlight': 'fanClub.isAutosaveToExclusiveHighlightEnabled',
      'fan_club_info.fan_consideration_page_revamp_eligiblity': 'fanClub.fanConsiderationPageRevampEligibility',
      'location_data.instagram_location_id': 'locationData.locationId',
      'meta_verified_benefits_info.is_eligible_for_meta_verified_content_protection':
        'metaVerifiedBenefits.isEligibleForContentProtection',
      not_meta_verified_friction_info: 'notMetaVerifiedFriction',
      pinned_channels_info: 'pinnedChannels',
      'pinned_channels_info.pinned_channels_list': 'pinnedChannels.pinnedChannels',
      profile_context_links_with_user_ids: 'profileContextLinks',
      'recon_features.enable_recon_cta': 'reconFeatures.isReconCtaEnabled',
      'recs_from_friends.enable_recs_from_friends': 'recsFromFriends.isEnabled',
      'recs_from_friends.recs_from_friends_entry_point_type': 'recsFromFriends.entryPointType',
      show_schools_badge: 'isSchoolsBadgeShown',
      third_party_downloads_enabled: 'thirdPartyDownloadsSetting',
      // The boolean flags, grouped by theme under `flags`.
      is_business: 'flags.account.isBusiness',
      is_potential_business: 'flags.account.isPotentialBusiness',
      is_interest_account: 'flags.account.isInterestAccount',
      is_parenting_account: 'flags.account.isParentingAccount',
      is_memorialized: 'flags.account.isMemorialized',
      is_new_to_instagram: 'flags.account.isNewToPhotosocial',
      is_secondary_account_creation: 'flags.account.isSecondaryAccountCreation',
      has_ig_profile: 'flags.account.hasPhotosocialProfile',
      is_active_on_text_post_app: 'flags.account.isActiveOnTextPostApp',
      is_in_canada: 'flags.account.isInCanada',
      is_oregon_custom_gender_consented: 'flags.account.isOregonCustomGenderConsented',
      existing_user_age_collection_enabled: 'flags.account.isExistingUserAgeCollectionEnabled',
      is_supervision_features_enabled: 'flags.account.isSupervisionFeaturesEnabled',
      enable_add_school_in_edit_profile: 'flags.account.isAddSchoolInEditProfileEnabled',
      is_opal_enabled: 'flags.account.isOpalEnabled',
      is_private: 'flags.privacy.isPrivate',
      is_auto_confirm_enabled_for_all_reciprocal_follow_requests:
        'flags.privacy.isAutoConfirmEnabledForAllReciprocalFollowRequests',
      can_hide_category: 'flags.privacy.canHideCategory',
      can_hide_public_contacts: 'flags.privacy.canHidePublicContacts',
      spam_follower_setting_enabled: 'flags.privacy.isSpamFollowerSettingEnabled',
      is_regulated_c18: 'flags.privacy.isRegulatedC18',
      is_regulated_news_in_viewer_location: 'flags.privacy.isRegulatedNewsInViewerLocation',
      show_account_transparency_details: 'flags.privacy.isAccountTransparencyDetailsShown',
      transparency_product_enabled: 'flags.privacy.isTransparencyProductEnabled',
      is_verified: 'flags.verification.isVerified',
      show_blue_badge_on_main_profile: 'flags.verification.isBlueBadgeShownOnMainProfile',
      has_nme_badge: 'flags.verification.hasNmeBadge',
      is_legacy_verified_max_profile_pic_edit_reached: 'flags.verification.isLegacyVerifiedMaxProfilePicEditReached',
      has_legacy_bb_pending_profile_picture_update: 'flags.verification.hasLegacyBbPendingProfilePictureUpdate',
      has_mv4b_pending_profile_picture_update: 'flags.verification.hasMv4bPendingProfilePictureUpdate',
      is_mv4b_application_matured_for_profile_edit: 'flags.verification.isMv4bApplicationMaturedForProfileEdit',
      is_mv4b_biz_asset_profile_locked: 'flags.verification.isMv4bBizAssetProfileLocked',
      is_mv4b_max_profile_edit_reached: 'flags.verification.isMv4bMaxProfileEditReached',
      is_eligible_for_meta_verified_label: 'flags.verification.isEligibleForMetaVerifiedLabel',
      is_eligible_for_meta_verified_enhanced_link_sheet:
        'flags.verification.isEligibleForMetaVerifiedEnhancedLinkSheet',
      is_eligible_for_meta_verified_enhanced_link_sheet_consumption:
        'flags.verification.isEligibleForMetaVerifiedEnhancedLinkSheetConsumption',
      is_eligible_for_meta_verified_links_in_reels: 'flags.verification.isEligibleForMetaVerifiedLinksInReels',
      is_eligible_for_meta_verified_multiple_addresses_creation:
        'flags.verification.isEligibleForMetaVerifiedMultipleAddressesCreation',
      is_eligible_for_meta_verified_multiple_addresses_consumption:
        'flags.verification.isEligibleForMetaVerifiedMultipleAddressesConsumption',
      is_eligible_for_meta_verified_related_accounts: 'flags.verification.isEligibleForMetaVerifiedRelatedAccounts',
      is_meta_verified_related_accounts_display_enabled:
        'flags.verification.isMetaVerifiedRelatedAccountsDisplayEnabled',
      is_eligible_for_post_boost_mv_upsell: 'flags.verification.isEligibleForPostBoostMetaVerifiedUpsell',
      is_call_to_action_enabled: 'flags.business.isCallToActionEnabled',
      is_category_tappable: 'flags.business.isCategoryTappable',
      is_open_to_collab: 'flags.business.isOpenToCollab',
      is_creator_agent_enabled: 'flags.business.isCreatorAgentEnabled',
      has_fan_club_subscriptions: 'flags.business.hasFanClubSubscriptions',
      can_add_fb_group_link_on_profile: 'flags.business.canAddFbGroupLinkOnProfile',
      can_use_affiliate_partnership_messaging_as_brand: 'flags.business.canUseAffiliatePartnershipMessagingAsBrand',
      can_use_affiliate_partnership_messaging_as_creator: 'flags.business.canUseAffiliatePartnershipMessagingAsCreator',
      can_use_branded_content_discovery_as_brand: 'flags.business.canUseBrandedContentDiscoveryAsBrand',
      can_use_branded_content_discovery_as_creator: 'flags.business.canUseBrandedContentDiscoveryAsCreator',
      can_use_paid_partnership_messaging_as_creator: 'flags.business.canUsePaidPartnershipMessagingAsCreator',
      is_eligible_for_diverse_owned_business_info: 'flags.business.isEligibleForDiverseOwnedBusinessInfo',
      is_eligible_to_display_diverse_owned_business_info: 'flags.business.isEligibleToDisplayDiverseOwnedBusinessInfo',
      show_post_insights_entry_point: 'flags.business.isPostInsightsEntryPointShown',
      show_shoppable_feed: 'flags.business.isShoppableFeedShown',
      is_recon_ad_cta_on_profile_eligible_with_viewer: 'flags.business.isReconAdCtaOnProfileEligibleWithViewer',
      nonpro_can_maybe_see_profile_hypercard: 'flags.business.canNonproMaybeSeeProfileHypercard',
      is_direct_roll_call_enabled: 'flags.messaging.isDirectRollCallEnabled',
      is_eligible_for_request_message: 'flags.messaging.isEligibleForRequestMessage',
      remove_message_entrypoint: 'flags.messaging.isMessageEntrypointRemoved',
      include_direct_blacklist_status: 'flags.messaging.isDirectBlacklistStatusIncluded',
      is_profile_audio_call_enabled: 'flags.messaging.isProfileAudioCallEnabled',
      is_profile_broadcast_sharing_enabled: 'flags.messaging.isProfileBroadcastSharingEnabled',
      is_whatsapp_linked: 'flags.messaging.isWhatsappLinked',
      has_videos: 'flags.content.hasVideos',
      has_highlight_reels: 'flags.content.hasHighlightReels',
      has_guides: 'flags.content.hasGuides',
      has_igtv_series: 'flags.content.hasIgtvSeries',
      has_music_on_profile: 'flags.content.hasMusicOnProfile',
      has_collab_collections: 'flags.content.hasCollabCollections',
      has_private_collections: 'flags.content.hasPrivateCollections',
      has_exclusive_feed_content: 'flags.content.hasExclusiveFeedContent',
      has_public_tab_threads: 'flags.content.hasPublicTabThreads',
      has_views_fetching: 'flags.content.hasViewsFetching',
      has_chaining: 'flags.content.hasChaining',
      has_chains: 'flags.content.hasChains',
      auto_expand_chaining: 'flags.content.isChainingAutoExpanded',
      has_ever_selected_topics: 'flags.content.hasEverSelectedTopics',
      has_gen_ai_personas_for_profile_banner: 'flags.content.hasGenAiPersonasForProfileBanner',
      has_anonymous_profile_picture: 'flags.content.hasAnonymousProfilePicture',
      is_profile_picture_expansion_enabled: 'flags.content.isProfilePictureExpansionEnabled',
      feed_post_reshare_disabled: 'flags.content.isFeedPostReshareDisabled',
      highlight_reshare_disabled: 'flags.content.isHighlightReshareDisabled',
      is_remix_setting_enabled_for_posts: 'flags.content.isRemixSettingEnabledForPosts',
      is_remix_setting_enabled_for_reels: 'flags.content.isRemixSettingEnabledForReels',
      is_stories_teaser_muted: 'flags.content.isStoriesTeaserMuted',
      open_external_url_with_in_app_browser: 'flags.content.isExternalUrlOpenedInAppBrowser',
      is_bestie: 'flags.favorites.isBestie',
      is_favorite: 'flags.favorites.isFavorite',
      is_favorite_for_stories: 'flags.favorites.isFavoriteForStories',
      is_favorite_for_highlights: 'flags.favorites.isFavoriteForHighlights',
      is_favorite_for_clips: 'flags.favorites.isFavoriteForClips',
      is_favorite_for_igtv: 'flags.favorites.isFavoriteForIgtv',
    },
  },
  {
    action: 'get_videosite_channel',
    root: 'videositeChannel(url: "https://www.videosite.example/@sandboxstudio")',
    source: (e) => e.response!,
    moved: {
      'about.subscribers': 'about.subscriberCount',
      'about.videos': 'about.videoCount',
      'about.views': 'about.viewCount',
      'channel.avatar': 'channel.avatarUrl',
      'channel.banner': 'channel.bannerUrl',
      'channel.id': 'channel.channelId',
      'channel.subscribers': 'channel.subscriberCount',
      'channel.videos': 'channel.videoCount',
      'highlighted_video.id': 'highlightedVideo.videoId',
      'highlighted_video.views': 'highlightedVideo.viewCount',
      'search_metadata.created_at': 'searchMetadata.createdAtText',
      'search_metadata.id': 'searchMetadata.fetchId',
      'search_parameters.gl': 'searchParameters.countryCode',
      'search_parameters.hl': 'searchParameters.languageCode',
      'videos_sections.*.section_title': 'videosSections.*.title',
      'videos_sections.*.videos.*.id': 'videosSections.*.videos.*.videoId',
      'videos_sections.*.videos.*.thumbnail': 'videosSections.*.videos.*.thumbnail.url',
      'videos_sections.*.videos.*.views': 'videosSections.*.videos.*.viewCount',
    },
  },
  {
    action: 'get_videosite_transcript',
    root: 'videositeTranscript(url: "https://www.videosite.example/watch?v=dQw4w9WgXcQ")',
    source: (e) => ({ response: e.response!, metadata: e.metadata! }),
    moved: {
      response: 'raw',
      metadata: 'video',
      'metadata.id': 'video.videoId',
      'metadata.thumbnail': 'video.thumbnail.url',
      'metadata.likes': 'video.likeCount',
      'metadata.views': 'video.viewCount',
    },
  },
  {
    action: 'get_search_news',
    root: 'news(query: "hubspot")',
    source: (e) => e.response!,
    moved: {
      'pagination.other_pages': 'pagination.otherPagesByNumber',
      'search_parameters.gl': 'searchParameters.countryCode',
      'search_parameters.hl': 'searchParameters.languageCode',
      'search_parameters.q': 'searchParameters.query',
    },
  },
  {
    action: 'get_professionalnet_profile',
    root: 'professionalnetProfile(handle: "sam-rivera")',
    source: (e) => e.response!,
    moved: {
      sub_title: 'headline',
      profile_picture: 'avatarUrl',
      background_image: 'backgroundImageUrl',
      influencer: 'isInfluencer',
      open_to_work: 'isOpenToWork',
      premium: 'isPremium',
      'location.default': 'location.label',
      'location.short': 'location.shortLabel',
      network_info: 'network',
      'network_info.connections_count': 'network.connectionCount',
      'network_info.followers_count': 'network.followerCount',
      'network_info.followable': 'network.isFollowable',
      'certifications.*.company.logo': 'certifications.*.company.logoUrl',
      'certifications.*.date': 'certifications.*.period',
      'education.*.date': 'education.*.period',
      'education.*.school.logo': 'education.*.school.logoUrl',
      'position_groups.*.company.employees.start': 'positionGroups.*.company.employeeCountRange.min',
      'position_groups.*.company.employees.end': 'positionGroups.*.company.employeeCountRange.max',
      'position_groups.*.company.logo': 'positionGroups.*.company.logoUrl',
      'position_groups.*.date': 'positionGroups.*.period',
      'position_groups.*.profile_positions': 'positionGroups.*.positions',
      'position_groups.*.profile_positions.*.company': 'positionGroups.*.positions.*.companyName',
      'position_groups.*.profile_positions.*.date': 'positionGroups.*.positions.*.period',
    },
  },
  {
    action: 'get_company_object',
    root: 'company(domain: "hubspot.com")',
    source: (e) => e.response!,
    moved: {
      id: 'companyId',
      'geo.lat': 'geo.latitude',
      'geo.lng': 'geo.longitude',
      logo: 'logoUrl',
      facebook: 'socialNetwork',
      linkedin: 'professionalNetwork',
      twitter: 'microblog',
      'twitter.id': 'microblog.accountId',
      'twitter.followers': 'microblog.followerCount',
      'twitter.following': 'microblog.followingCount',
      'twitter.site': 'microblog.siteUrl',
      'twitter.avatar': 'microblog.avatarUrl',
      crunchbase: 'businessDirectory',
      emailProvider: 'isEmailProvider',
      'identifiers.usCIK': 'identifiers.usCik',
      'identifiers.usEIN': 'identifiers.usEin',
      'parent.domain': 'parentDomain',
      'ultimateParent.domain': 'ultimateParentDomain',
    },
  },
  {
    action: 'run_videosite_search',
    root: 'videositeSearch(query: "how zippers are made")',
    source: (e) => e.response!,
    moved: {
      'search_parameters.gl': 'searchParameters.countryCode',
      'search_parameters.hl': 'searchParameters.languageCode',
      'search_parameters.q': 'searchParameters.query',
      'shorts.*.section_title': 'shorts.*.title',
      'shorts.*.items.*.id': 'shorts.*.items.*.videoId',
      'shorts.*.items.*.thumbnail': 'shorts.*.items.*.thumbnail.url',
      'shorts.*.items.*.views': 'shorts.*.items.*.viewCount',
      'videos.*.id': 'videos.*.videoId',
      'videos.*.views': 'videos.*.viewCount',
      'videos.*.channel.id': 'videos.*.channel.channelId',
      'videos.*.channel.thumbnail': 'videos.*.channel.thumbnail.url',
      'videos.*.thumbnail.rich': 'videos.*.thumbnail.richUrl',
      'videos.*.thumbnail.static': 'videos.*.thumbnail.staticUrl',
      'channels.*.id': 'channels.*.channelId',
      'channels.*.thumbnail': 'channels.*.thumbnail.url',
      'channels.*.subscribers': 'channels.*.subscriberCount',
      'channels.*.videos': 'channels.*.videoCount',
    },
  },
  {
    action: 'company_financial_profile',
    root: 'financialProfiles(symbols: ["HUBS", "NKE"])',
    source: (e) => e.response!,
    moved: {
      '*.volAvg': '*.averageVolume',
      '*.mktCap': '*.marketCap',
      '*.lastDiv': '*.lastDividend',
      '*.changes': '*.change',
      '*.fullTimeEmployees': '*.fullTimeEmployeesText',
      '*.image': '*.logoUrl',
      '*.defaultImage': '*.isDefaultImage',
    },
  },
  {
    action: 'get_crm_owners',
    root: 'crmOwners(portal: "139981")',
    source: (e) => e.response!,
    moved: { '*.id': '*.ownerId' },
  },
  { action: 'search_microblog_posts', root: 'microblogPosts(query: "graphql")', source: (e) => e.response! },
];

/** A domain record's contact: renamed keys. */
function contact(from: string, to: string): Record<string, string> {
  return { [from]: to, [`${from}.email_address`]: `${to}.email`, [`${from}.zip_code`]: `${to}.postalCode` };
}

/** Every field of `type` and below, as a selection set: no paid links (fields with a cost), no deprecated fields, no type twice on one path. */
function everyField(type: GraphQLNamedType, seen: readonly string[] = []): string {
  if (isAbstractType(type)) {
    return schema
      .getPossibleTypes(type)
      .map((possible) => `... on ${possible.name} { ${everyField(possible, seen)} }`)
      .join(' ');
  }
  if (!isObjectType(type) && !isInterfaceType(type)) return '';
  const selections: string[] = [];
  for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
    if (field.deprecationReason || field.extensions?.cost) continue;
    if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      selections.push(field.name);
    } else if (!seen.includes(named.name)) {
      const below = everyField(named, [...seen, named.name]);
      if (below !== '') selections.push(`${field.name} { ${below} }`);
    }
  }
  return selections.join(' ');
}

const rootFieldOf = (c: Case) => c.root.slice(0, c.root.indexOf('('));

/** The root field's query: its key argument, every field below. */
function queryFor(c: Case): string {
  const type = getNamedType(schema.getQueryType()!.getFields()[rootFieldOf(c)]!.type);
  return `{ ${c.root} { ${everyField(type, [type.name])} } }`;
}

/** Every leaf of a JSON value with its path: scalars, nulls, empty lists and empty objects. */
function leaves(value: Json, path: Path = []): Array<{ path: Path; value: Json }> {
  if (Array.isArray(value))
    return value.length === 0 ? [{ path, value }] : value.flatMap((item, i) => leaves(item, [...path, i]));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? [{ path, value }] : entries.flatMap(([key, item]) => leaves(item, [...path, key]));
  }
  return [{ path, value }];
}

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The named type of the schema field at a response path below the root field; null inside a JSON value or off the schema. */
function schemaTypeAt(rootField: string, path: Path): string | null {
  let type: GraphQLNamedType = getNamedType(schema.getQueryType()!.getFields()[rootField]!.type);
  for (const segment of path) {
    if (typeof segment === 'number') continue;
    if (!isObjectType(type) && !isInterfaceType(type)) return null;
    const field: GraphQLField<unknown, unknown> | undefined = type.getFields()[segment];
    if (!field) return null;
    type = getNamedType(field.type);
  }
  return type.name;
}

/**
 * Where the schema exposes an upstream path: the longest `moved` prefix that matches, the rest
 * camel-cased, except inside a JSON field, whose keys are the upstream's own.
 */
function exposedAt(c: Case, path: Path): Path {
  let best: { length: number; to: Path } | null = null;
  for (const [from, to] of Object.entries(c.moved ?? {})) {
    const pattern = from.split('.');
    if (pattern.length > path.length || (best && pattern.length <= best.length)) continue;
    const indices: number[] = [];
    const matches = pattern.every((segment, i) => {
      if (segment !== '*') return segment === path[i];
      if (typeof path[i] !== 'number') return false;
      indices.push(path[i] as number);
      return true;
    });
    if (matches)
      best = {
        length: pattern.length,
        to: to.split('.').map((segment) => (segment === '*' ? indices.shift()! : segment)),
      };
  }
  const exposed: Path = [...(best?.to ?? [])];
  for (const segment of path.slice(best?.length ?? 0)) {
    const raw = typeof segment === 'number' || schemaTypeAt(rootFieldOf(c), exposed) === 'JSON';
    exposed.push(raw ? segment : camel(segment as string));
  }
  return exposed;
}

/** The value at a path: null below a null object (all of it is null), undefined when the path does not exist. */
function at(value: unknown, path: Path): unknown {
  let here = value;
  for (const segment of path) {
    if (here === null) return null;
    if (typeof here !== 'object') return undefined;
    here = (here as Record<string | number, unknown>)[segment];
  }
  return here;
}

/**
 * How a value came back: `exact` (the same JSON value and type), `as ID` (an integer the schema
 * types as ID, as its digits), `empty as null` (an empty string in a URL, Date or DateTime field,
 * scalars that cannot hold one), `derived` (rebuilt exactly from a derived field), or `missing`.
 */
type Outcome = 'exact' | 'as ID' | 'empty as null' | 'derived' | 'missing';
const CANNOT_BE_EMPTY = new Set(['URL', 'Date', 'DateTime']);

interface Check {
  upstream: string;
  exposed: string;
  expected: Json;
  got: unknown;
  outcome: Outcome;
}

function check(c: Case, source: Json, data: Record<string, unknown>): Check[] {
  const rootField = rootFieldOf(c);
  const rootValue = data[rootField];
  return leaves(source).map(({ path, value }): Check => {
    const upstream = path.join('.');
    const derive = c.derived?.[upstream];
    if (derive) {
      const got = derive(rootValue);
      return { upstream, exposed: '(derived)', expected: value, got, outcome: got === value ? 'derived' : 'missing' };
    }
    const exposedPath = exposedAt(c, path);
    const got = at(rootValue, exposedPath);
    const type = schemaTypeAt(rootField, exposedPath);
    let outcome: Outcome = 'missing';
    if (got !== undefined && typeof got === typeof value && JSON.stringify(got) === JSON.stringify(value))
      outcome = 'exact';
    else if (typeof value === 'number' && Number.isInteger(value) && type === 'ID' && got === BigInt(value).toString())
      outcome = 'as ID';
    else if (value === '' && got === null && type !== null && CANNOT_BE_EMPTY.has(type)) outcome = 'empty as null';
    return { upstream, exposed: exposedPath.join('.'), expected: value, got, outcome };
  });
}

describe('every documented value comes back exact, selecting every field with no arguments', () => {
  it.for(CASES.map((c) => [c.action, c] as const))('%s', async ([, c], { gatewayOver, upstream }) => {
    const gw = await gatewayOver();
    const envelope = EXAMPLES[c.action]!;
    upstream.handle((call, _req, res) =>
      json(res, 200, call.action === c.action ? envelope : { status: 404, response: null, error: 'not this action' }),
    );
    upstream.calls.length = 0;
    const { body } = await gw.query(queryFor(c));
    expect(body.errors).toBeUndefined();
    expect(upstream.calls.map((call) => call.action)).toEqual([c.action]);
    const checks = check(c, c.source(envelope), body.data!);
    expect(checks.length).toBeGreaterThan(15);
    const missing = checks.filter((x) => x.outcome === 'missing');
    const count = (outcome: Outcome) => checks.filter((x) => x.outcome === outcome).length;
    const found = checks.length - missing.length;
    console.log(
      `${c.action}: ${found}/${checks.length} = ${((100 * found) / checks.length).toFixed(1)}% (exact ${count('exact')}, as ID ${count('as ID')}, empty as null ${count('empty as null')}, derived ${count('derived')})`,
    );
    for (const miss of missing)
      console.log(
        `  MISSING ${miss.upstream} -> ${miss.exposed}: expected ${JSON.stringify(miss.expected)}, got ${JSON.stringify(miss.got)}`,
      );
    expect(missing.map((m) => `${m.upstream} -> ${m.exposed}`)).toEqual([]);
  });
});
