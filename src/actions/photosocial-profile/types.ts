import { builder } from '../../schema/builder.js';
import { bool, id, int, list, obj, objects, safeInt, str, strings, url } from '../../schema/read.js';
import { flag, PhotosocialProfileFlags } from './flags.js';
import type { PhotosocialProfileSource } from './load.js';
import { PhotosocialNametag } from './nametag.js';
import {
  either,
  jsonItems,
  PhotosocialAvatarStatus,
  PhotosocialBioLink,
  PhotosocialBiography,
  PhotosocialBroadcastChatPreference,
  PhotosocialCreatorShopping,
  PhotosocialFacepileUser,
  PhotosocialFanClub,
  PhotosocialFundraisers,
  PhotosocialImage,
  PhotosocialLocation,
  PhotosocialMetaVerifiedBenefits,
  PhotosocialNotMetaVerifiedFriction,
  PhotosocialPinnedChannels,
  PhotosocialProfileContextLink,
  PhotosocialReconFeatures,
  PhotosocialRecsFromFriends,
} from './nested.js';

type P = PhotosocialProfileSource;

/** A Unix time in seconds as RFC 3339; 0 (the upstream's "none") and other non-positive values read as null. */
function unixSeconds(value: unknown): string | null {
  const seconds = safeInt(value);
  return seconds !== null && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
}

/** An identifier the upstream sends as text or as a number; empty text reads as null. */
function identifier(value: unknown): string | null {
  const v = id(value);
  return v === null || v.trim() === '' ? null : v;
}

export const PhotosocialProfile = builder.objectRef<P>('PhotosocialProfile').implement({
  description:
    'The public profile of a photo-sharing social account (upstream get_photosocial_profile). Every upstream field is reachable: identity, counts and text here, booleans grouped by theme under `flags` (the common ones also here), nested objects as typed sub-objects, and arrays whose element type the contract does not give as JSON. Empty upstream strings read as null.',
  fields: (t) => ({
    // Identity
    username: t.string({
      nullable: false,
      description: 'The username, lower-case (the one asked for when the upstream omits it).',
      resolve: (p) => str(p.raw.username) ?? p.requestedUsername,
    }),
    accountId: t.id({
      description:
        "The account's identifier on the platform (upstream `id`). Was `id`, which is now the gateway's node id.",
      resolve: (p) => identifier(p.raw.id),
    }),
    pk: t.id({
      description:
        "The account's primary key, the same value as `id` (upstream `photosocial_pk`, or the brand-named `instagram_pk`).",
      resolve: (p) => identifier(either(p.raw, 'photosocial_pk', 'instagram_pk')),
    }),
    fbidV2: t.id({
      description: "The account's identifier across the platform owner's apps (upstream `fbid_v2`).",
      resolve: (p) => identifier(p.raw.fbid_v2),
    }),
    interopMessagingUserFbid: t.id({
      description: 'Identifier used for cross-app messaging; a number beyond 2^32 upstream, text here.',
      resolve: (p) => identifier(p.raw.interop_messaging_user_fbid),
    }),
    fullName: t.string({ description: 'Display name.', resolve: (p) => str(p.raw.full_name) }),
    biography: t.string({
      description: 'Biography text; see `biographyWithEntities` for the mentions in it.',
      resolve: (p) => str(p.raw.biography),
    }),
    biographyWithEntities: t.field({
      type: PhotosocialBiography,
      description: 'The biography with its mentions and hashtags.',
      resolve: (p) => obj(p.raw.biography_with_entities),
    }),
    biographyEmail: t.string({
      description: 'Email address found in the biography; usually null.',
      resolve: (p) => str(p.raw.biography_email),
    }),
    pronouns: t.stringList({
      nullable: false,
      description: 'Pronouns the holder shows, e.g. ["she/her"]; empty when none.',
      resolve: (p) => strings(p.raw.pronouns),
    }),
    about: t.field({
      type: 'JSON',
      description:
        'The "about" data as the upstream sends it; null in every known result, and its type is not in the contract.',
      resolve: (p) => p.raw.about ?? null,
    }),

    // Common flags (all of them are under `flags`)
    isVerified: t.boolean({
      description: 'The account carries the verified badge (also `flags.verification.isVerified`).',
      resolve: (p) => flag(p.raw, 'is_verified'),
    }),
    isPrivate: t.boolean({
      description: 'Only approved followers see the posts (also `flags.privacy.isPrivate`).',
      resolve: (p) => flag(p.raw, 'is_private'),
    }),
    isBusiness: t.boolean({
      description: 'A business account (also `flags.account.isBusiness`).',
      resolve: (p) => flag(p.raw, 'is_business'),
    }),
    flags: t.field({
      type: PhotosocialProfileFlags,
      nullable: false,
      description: 'Every boolean flag of the profile, grouped by theme.',
      resolve: (p) => p.raw,
    }),

    // Counts
    followerCount: t.field({
      type: 'SafeInt',
      description: 'Number of followers (hundreds of millions for large accounts).',
      resolve: (p) => safeInt(p.raw.follower_count),
    }),
    followingCount: t.field({
      type: 'SafeInt',
      description: 'Number of accounts this account follows.',
      resolve: (p) => safeInt(p.raw.following_count),
    }),
    mediaCount: t.field({
      type: 'SafeInt',
      description: 'Number of posts.',
      resolve: (p) => safeInt(p.raw.media_count),
    }),
    totalIgtvVideos: t.field({
      type: 'SafeInt',
      description: 'Number of long-form videos (upstream `total_igtv_videos`).',
      resolve: (p) => safeInt(p.raw.total_igtv_videos),
    }),
    totalArEffects: t.field({
      type: 'SafeInt',
      description: 'Number of augmented-reality effects the account published.',
      resolve: (p) => safeInt(p.raw.total_ar_effects),
    }),
    textPostNewPostCount: t.field({
      type: 'SafeInt',
      description: 'New posts on the companion text-post app since the viewer last looked.',
      resolve: (p) => safeInt(p.raw.text_post_new_post_count),
    }),
    verifiedRelatedAccountsCount: t.field({
      type: 'SafeInt',
      description:
        'Number of related accounts listed through paid verification (upstream `verified_related_accounts_count` or `meta_verified_related_accounts_count`).',
      resolve: (p) => safeInt(either(p.raw, 'verified_related_accounts_count', 'meta_verified_related_accounts_count')),
    }),
    latestReelMedia: t.field({
      type: 'SafeInt',
      description: 'Unix time (seconds) of the latest story; 0 when there is none. See `latestReelMediaAt`.',
      resolve: (p) => safeInt(p.raw.latest_reel_media),
    }),
    latestReelMediaAt: t.field({
      type: 'DateTime',
      description: 'When the latest story was posted (from `latestReelMedia`); null when there is none.',
      resolve: (p) => unixSeconds(p.raw.latest_reel_media),
    }),
    latestBestiesReelMedia: t.field({
      type: 'SafeInt',
      description:
        'Unix time (seconds) of the latest close-friends story; 0 when there is none. See `latestBestiesReelMediaAt`.',
      resolve: (p) => safeInt(p.raw.latest_besties_reel_media),
    }),
    latestBestiesReelMediaAt: t.field({
      type: 'DateTime',
      description: 'When the latest close-friends story was posted; null when there is none.',
      resolve: (p) => unixSeconds(p.raw.latest_besties_reel_media),
    }),

    // Category and professional account
    category: t.string({
      description: 'Profile category shown under the name, e.g. "Musician".',
      resolve: (p) => str(p.raw.category),
    }),
    categoryId: t.id({
      description: 'Identifier of the category; a number beyond 2^32 upstream, text here.',
      resolve: (p) => identifier(p.raw.category_id),
    }),
    accountCategory: t.string({
      description: 'Account category as the platform writes it; often the empty string.',
      resolve: (p) => str(p.raw.account_category),
    }),
    accountType: t.int({
      description: 'Account type code: 1 personal, 2 business, 3 creator.',
      resolve: (p) => int(p.raw.account_type),
    }),
    professionalConversionSuggestedAccountType: t.int({
      description: 'Account type code the platform suggests switching to (same codes as `accountType`).',
      resolve: (p) => int(p.raw.professional_conversion_suggested_account_type),
    }),
    profileType: t.int({
      description: 'Profile type code as the platform sends it.',
      resolve: (p) => int(p.raw.profile_type),
    }),
    followFrictionType: t.int({
      description: 'Code of the confirmation step shown before following; 0 for none.',
      resolve: (p) => int(p.raw.follow_friction_type),
    }),
    primaryProfileLinkType: t.int({
      description: 'Code of the kind of link shown first on the profile.',
      resolve: (p) => int(p.raw.primary_profile_link_type),
    }),
    thirdPartyDownloadsSetting: t.int({
      description:
        "Whether others may download the account's reels, as the platform codes it (upstream `third_party_downloads_enabled`, e.g. 1 on, 2 off).",
      resolve: (p) => int(p.raw.third_party_downloads_enabled),
    }),
    pageId: t.id({
      description:
        'Identifier of the linked page on the sibling social network; a number beyond 2^32 upstream, text here.',
      resolve: (p) => identifier(p.raw.page_id),
    }),
    pageName: t.string({ description: 'Name of the linked page.', resolve: (p) => str(p.raw.page_name) }),
    adsPageId: t.id({
      description: 'Identifier of the page used for ads; usually null.',
      resolve: (p) => identifier(p.raw.ads_page_id),
    }),
    adsPageName: t.string({
      description: 'Name of the page used for ads; usually null.',
      resolve: (p) => str(p.raw.ads_page_name),
    }),
    adsIncentiveExpirationDate: t.string({
      description:
        'When an ads incentive expires, as the upstream writes it (text or number as text); usually null, format not in the contract.',
      resolve: (p) => identifier(p.raw.ads_incentive_expiration_date),
    }),
    currentCatalogId: t.id({
      description: 'Identifier of the shopping catalogue in use; usually null.',
      resolve: (p) => identifier(p.raw.current_catalog_id),
    }),

    // Links and pictures
    externalUrl: t.field({
      type: 'URL',
      description: 'The website shown on the profile.',
      resolve: (p) => url(p.raw.external_url),
    }),
    externalLynxUrl: t.field({
      type: 'URL',
      description: "The website wrapped in the platform's tracking redirect.",
      resolve: (p) => url(p.raw.external_lynx_url),
    }),
    bioLinks: t.field({
      type: [PhotosocialBioLink],
      nullable: false,
      description: 'Links in the biography area, in display order.',
      resolve: (p) => objects(p.raw.bio_links),
    }),
    profilePicUrl: t.field({
      type: 'URL',
      description: 'Small (150 px) profile picture (signed CDN URL; it expires).',
      resolve: (p) => url(p.raw.profile_pic_url),
    }),
    profilePicUrlHd: t.field({
      type: 'URL',
      description: 'Larger profile picture.',
      resolve: (p) => url(p.raw.profile_pic_url_hd),
    }),
    profilePicId: t.id({
      description: 'Identifier of the profile picture.',
      resolve: (p) => identifier(p.raw.profile_pic_id),
    }),
    hdProfilePicUrlInfo: t.field({
      type: PhotosocialImage,
      description: 'The largest profile picture with its size.',
      resolve: (p) => obj(p.raw.hd_profile_pic_url_info),
    }),
    hdProfilePicVersions: t.field({
      type: [PhotosocialImage],
      nullable: false,
      description: 'The profile picture in other sizes, smallest first.',
      resolve: (p) => objects(p.raw.hd_profile_pic_versions),
    }),
    profilePicGenaiToolInfo: t.field({
      type: ['JSON'],
      nullable: false,
      description:
        'Generative-AI tools used on the profile picture, as the upstream sends them; their shape is not in the contract.',
      resolve: (p) => jsonItems(p.raw.profile_pic_genai_tool_info),
    }),
    threadsProfileGlyphUrl: t.field({
      type: 'URL',
      description: 'Link to the account on the companion text-post app.',
      resolve: (p) => url(p.raw.threads_profile_glyph_url),
    }),
    textPostAppBadgeLabel: t.string({
      description: 'Label of the companion text-post app badge (usually the username).',
      resolve: (p) => str(p.raw.text_post_app_badge_label),
    }),
    textAppLastVisitedTime: t.string({
      description:
        'When the holder last used the companion text-post app, as the upstream writes it; usually null, format not in the contract.',
      resolve: (p) => identifier(p.raw.text_app_last_visited_time),
    }),

    // Contact
    publicEmail: t.string({ description: 'Public contact email.', resolve: (p) => str(p.raw.public_email) }),
    publicPhoneCountryCode: t.string({
      description: 'Country calling code of the public phone number, without "+" (e.g. "1").',
      resolve: (p) => str(p.raw.public_phone_country_code),
    }),
    publicPhoneNumber: t.string({
      description: 'Public phone number without the country code.',
      resolve: (p) => str(p.raw.public_phone_number),
    }),
    contactPhoneNumber: t.string({
      description: 'Contact phone number in full, as the upstream writes it.',
      resolve: (p) => str(p.raw.contact_phone_number),
    }),
    businessContactMethod: t.string({
      description: 'Preferred contact method as the platform names it, e.g. "UNKNOWN", "CALL", "TEXT".',
      resolve: (p) => str(p.raw.business_contact_method),
    }),
    directMessaging: t.string({
      description: 'Direct-messaging setting as the upstream sends it.',
      resolve: (p) => str(p.raw.direct_messaging),
    }),
    locationData: t.field({
      type: PhotosocialLocation,
      description: 'Business location shown on the profile.',
      resolve: (p) => obj(p.raw.location_data),
    }),
    additionalBusinessAddresses: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Further business addresses as the upstream sends them; their shape is not in the contract.',
      resolve: (p) => jsonItems(p.raw.additional_business_addresses),
    }),

    // Social context
    profileContext: t.string({
      description: 'The "Followed by ..." line shown to the viewer.',
      resolve: (p) => str(p.raw.profile_context),
    }),
    profileContextLinks: t.field({
      type: [PhotosocialProfileContextLink],
      nullable: false,
      description: 'Spans of `profileContext` that link to accounts (upstream `profile_context_links_with_user_ids`).',
      resolve: (p) => objects(p.raw.profile_context_links_with_user_ids),
    }),
    profileContextFacepileUsers: t.field({
      type: [PhotosocialFacepileUser],
      nullable: false,
      description: 'Accounts pictured beside `profileContext`.',
      resolve: (p) => objects(p.raw.profile_context_facepile_users),
    }),
    profileContextMutualFollowIds: t.idList({
      nullable: false,
      description: 'Identifiers of mutual followers named in `profileContext`.',
      resolve: (p) =>
        list(p.raw.profile_context_mutual_follow_ids)
          .map(identifier)
          .filter((v): v is string => v !== null),
    }),

    // Nested settings and features
    nametag: t.field({
      type: PhotosocialNametag,
      description: 'The scannable name tag and its styling.',
      resolve: (p) => obj(p.raw.nametag),
    }),
    fanClub: t.field({
      type: PhotosocialFanClub,
      description: 'The paid subscription offered by the account (upstream `fan_club_info`).',
      resolve: (p) => obj(p.raw.fan_club_info),
    }),
    activeStandaloneFundraisers: t.field({
      type: PhotosocialFundraisers,
      description: 'Fundraisers the account runs.',
      resolve: (p) => obj(p.raw.active_standalone_fundraisers),
    }),
    avatarStatus: t.field({
      type: PhotosocialAvatarStatus,
      description: 'Whether the holder made an avatar.',
      resolve: (p) => obj(p.raw.avatar_status),
    }),
    broadcastChatPreferenceStatus: t.field({
      type: PhotosocialBroadcastChatPreference,
      description: 'Broadcast-chat preference, raw JSON text and parsed.',
      resolve: (p) => obj(p.raw.broadcast_chat_preference_status),
    }),
    creatorShoppingInfo: t.field({
      type: PhotosocialCreatorShopping,
      description: 'Shops the creator is linked to.',
      resolve: (p) => obj(p.raw.creator_shopping_info),
    }),
    metaVerifiedBenefits: t.field({
      type: PhotosocialMetaVerifiedBenefits,
      description: 'Paid verification benefits open to the account (upstream `meta_verified_benefits_info`).',
      resolve: (p) => obj(p.raw.meta_verified_benefits_info),
    }),
    notMetaVerifiedFriction: t.field({
      type: PhotosocialNotMetaVerifiedFriction,
      description: 'The "not verified" label the platform may show (upstream `not_meta_verified_friction_info`).',
      resolve: (p) => obj(p.raw.not_meta_verified_friction_info),
    }),
    pinnedChannels: t.field({
      type: PhotosocialPinnedChannels,
      description: 'Broadcast channels pinned to the profile (upstream `pinned_channels_info`).',
      resolve: (p) => obj(p.raw.pinned_channels_info),
    }),
    reconFeatures: t.field({
      type: PhotosocialReconFeatures,
      description: 'Advertising call-to-action settings.',
      resolve: (p) => obj(p.raw.recon_features),
    }),
    recsFromFriends: t.field({
      type: PhotosocialRecsFromFriends,
      description: 'The "recommendations from friends" feature.',
      resolve: (p) => obj(p.raw.recs_from_friends),
    }),

    // Display settings (codes as the platform names them)
    birthdayTodayVisibilityForViewer: t.string({
      description: 'Whether the viewer sees a birthday mark today, e.g. "NOT_VISIBLE".',
      resolve: (p) => str(p.raw.birthday_today_visibility_for_viewer),
    }),
    highlightsTrayType: t.string({
      description: 'Layout of the highlights tray, e.g. "DEFAULT".',
      resolve: (p) => str(p.raw.highlights_tray_type),
    }),
    liveSubscriptionStatus: t.string({
      description: 'Live-video subscription status, e.g. "default".',
      resolve: (p) => str(p.raw.live_subscription_status),
    }),
    merchantCheckoutStyle: t.string({
      description: 'Checkout style of the shop, e.g. "none".',
      resolve: (p) => str(p.raw.merchant_checkout_style),
    }),
    sellerShoppableFeedType: t.string({
      description: 'Kind of shoppable feed the seller has, e.g. "none".',
      resolve: (p) => str(p.raw.seller_shoppable_feed_type),
    }),
    profileReelsSortingEligibility: t.string({
      description: 'Whether reels on the profile may be re-sorted, e.g. "CHECK_VIEWER_QE".',
      resolve: (p) => str(p.raw.profile_reels_sorting_eligibility),
    }),
    viewsOnGridStatus: t.string({
      description: 'Whether view counts show on the profile grid, e.g. "SHOW_VIEWS_ON_GRID".',
      resolve: (p) => str(p.raw.views_on_grid_status),
    }),
    isSchoolsBadgeShown: t.boolean({
      description: 'The profile shows a schools badge (upstream `show_schools_badge`); usually null.',
      resolve: (p) => bool(p.raw.show_schools_badge),
    }),

    // Arrays the contract shows empty
    accountBadges: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Badges shown on the account, as the upstream sends them; their shape is not in the contract.',
      resolve: (p) => jsonItems(p.raw.account_badges),
    }),
    adjustedBannersOrder: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Order of the profile banners, as the upstream sends it.',
      resolve: (p) => jsonItems(p.raw.adjusted_banners_order),
    }),
    chainingUpsellCards: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Suggestion cards shown with suggested accounts, as the upstream sends them.',
      resolve: (p) => jsonItems(p.raw.chaining_upsell_cards),
    }),
    relevantNewsRegulationLocations: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Locations whose news regulation applies to the account, as the upstream sends them.',
      resolve: (p) => jsonItems(p.raw.relevant_news_regulation_locations),
    }),
    upcomingEvents: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Upcoming events announced on the profile, as the upstream sends them.',
      resolve: (p) => jsonItems(p.raw.upcoming_events),
    }),
  }),
});
