import { builder } from '../../schema/builder.js';
import { bool, type Raw } from '../../schema/read.js';

/**
 * The profile's boolean flags, grouped by theme so that a frontend finds them. Each row is
 * [upstream key(s), GraphQL field, description]; where the upstream may send a key under the
 * platform's brand or under the neutral word, both spellings are listed and the first present wins.
 * Every flag reads as null when the upstream leaves it out or sends something other than a boolean.
 */
type FlagRow = readonly [upstream: string | readonly string[], field: string, description: string];

export interface FlagGroup {
  /** Field on PhotosocialProfileFlags. */
  field: string;
  /** GraphQL type name of the group. */
  type: string;
  description: string;
  flags: readonly FlagRow[];
}

export const FLAG_GROUPS: readonly FlagGroup[] = [
  {
    field: 'account',
    type: 'PhotosocialAccountFlags',
    description: 'What kind of account this is and how it was set up.',
    flags: [
      ['is_business', 'isBusiness', 'A business account (shows business contact options and category).'],
      [
        'is_potential_business',
        'isPotentialBusiness',
        'The platform considers the account a candidate for switching to a business account.',
      ],
      [
        'is_interest_account',
        'isInterestAccount',
        'The account is an interest (topic-focused, e.g. public figure or brand) account.',
      ],
      ['is_parenting_account', 'isParentingAccount', 'The account is run by a parent on behalf of a child.'],
      [
        'is_memorialized',
        'isMemorialized',
        'The account holder has died and the account is memorialised; show it as a memorial.',
      ],
      [
        ['is_new_to_photosocial', 'is_new_to_instagram'],
        'isNewToPhotosocial',
        'The account joined the platform recently; the upstream may name this key with the neutral word or with the brand.',
      ],
      [
        'is_secondary_account_creation',
        'isSecondaryAccountCreation',
        'The account was created as a secondary account of another one.',
      ],
      [
        'has_ig_profile',
        'hasPhotosocialProfile',
        'The account has a profile on the photo-sharing platform itself (upstream `has_ig_profile`), as opposed to existing only in a linked app.',
      ],
      [
        'is_active_on_text_post_app',
        'isActiveOnTextPostApp',
        "The account is active on the platform's companion text-post app (see `textPostAppBadgeLabel`).",
      ],
      ['is_in_canada', 'isInCanada', 'The account is located in Canada (Canada-specific rules apply, e.g. to news).'],
      [
        'is_oregon_custom_gender_consented',
        'isOregonCustomGenderConsented',
        'The holder consented to custom-gender processing under Oregon rules.',
      ],
      [
        'existing_user_age_collection_enabled',
        'isExistingUserAgeCollectionEnabled',
        'The platform may ask this existing user for their age.',
      ],
      [
        'is_supervision_features_enabled',
        'isSupervisionFeaturesEnabled',
        'Parental supervision features are active on the account.',
      ],
      [
        'enable_add_school_in_edit_profile',
        'isAddSchoolInEditProfileEnabled',
        'The holder can add a school to the profile when editing it.',
      ],
      [
        'is_opal_enabled',
        'isOpalEnabled',
        'The platform\'s internal "opal" profile feature is enabled (meaning not documented upstream).',
      ],
    ],
  },
  {
    field: 'privacy',
    type: 'PhotosocialPrivacyFlags',
    description: 'Privacy, safety and regulation settings of the account.',
    flags: [
      [
        'is_private',
        'isPrivate',
        "Only approved followers see the account's posts; a frontend should not expect public media.",
      ],
      [
        'is_auto_confirm_enabled_for_all_reciprocal_follow_requests',
        'isAutoConfirmEnabledForAllReciprocalFollowRequests',
        'Follow requests from accounts the holder follows are approved automatically.',
      ],
      ['can_hide_category', 'canHideCategory', 'The holder may hide the profile category from the profile.'],
      [
        'can_hide_public_contacts',
        'canHidePublicContacts',
        'The holder may hide public contact details (email, phone) from the profile.',
      ],
      [
        'spam_follower_setting_enabled',
        'isSpamFollowerSettingEnabled',
        'Filtering of likely spam followers is switched on.',
      ],
      [
        'is_regulated_c18',
        'isRegulatedC18',
        'The account falls under rules for users under 18 (regulated minor account).',
      ],
      [
        'is_regulated_news_in_viewer_location',
        'isRegulatedNewsInViewerLocation',
        "The account is a news publisher whose content is restricted in the viewer's location.",
      ],
      [
        'show_account_transparency_details',
        'isAccountTransparencyDetailsShown',
        'The profile shows an "About this account" transparency section.',
      ],
      [
        'transparency_product_enabled',
        'isTransparencyProductEnabled',
        'A transparency label (e.g. state-controlled media) applies to the account.',
      ],
    ],
  },
  {
    field: 'verification',
    type: 'PhotosocialVerificationFlags',
    description:
      'Verification badge and the paid verification subscription (upstream "meta verified", "mv", "mv4b") eligibility.',
    flags: [
      ['is_verified', 'isVerified', 'The account carries the verified badge.'],
      [
        'show_blue_badge_on_main_profile',
        'isBlueBadgeShownOnMainProfile',
        'The verified badge is shown on the main profile page.',
      ],
      [
        'has_nme_badge',
        'hasNmeBadge',
        'The account shows the platform\'s "NME" badge (meaning not documented upstream).',
      ],
      [
        'is_legacy_verified_max_profile_pic_edit_reached',
        'isLegacyVerifiedMaxProfilePicEditReached',
        'A legacy-verified account has used up its allowed profile-picture changes.',
      ],
      [
        'has_legacy_bb_pending_profile_picture_update',
        'hasLegacyBbPendingProfilePictureUpdate',
        'A legacy blue-badge account has a profile-picture change waiting for review.',
      ],
      [
        'has_mv4b_pending_profile_picture_update',
        'hasMv4bPendingProfilePictureUpdate',
        'A business-verified account has a profile-picture change waiting for review.',
      ],
      [
        'is_mv4b_application_matured_for_profile_edit',
        'isMv4bApplicationMaturedForProfileEdit',
        'The business verification application is old enough for the profile to be edited.',
      ],
      [
        'is_mv4b_biz_asset_profile_locked',
        'isMv4bBizAssetProfileLocked',
        'The business-verified profile is locked against edits.',
      ],
      [
        'is_mv4b_max_profile_edit_reached',
        'isMv4bMaxProfileEditReached',
        'The business-verified profile has used up its allowed edits.',
      ],
      [
        'is_eligible_for_meta_verified_label',
        'isEligibleForMetaVerifiedLabel',
        'The account may show the paid verification label.',
      ],
      [
        'is_eligible_for_meta_verified_enhanced_link_sheet',
        'isEligibleForMetaVerifiedEnhancedLinkSheet',
        'The account may create the enhanced link sheet of paid verification.',
      ],
      [
        'is_eligible_for_meta_verified_enhanced_link_sheet_consumption',
        'isEligibleForMetaVerifiedEnhancedLinkSheetConsumption',
        "Viewers see this account's links in the enhanced link sheet of paid verification.",
      ],
      [
        'is_eligible_for_meta_verified_links_in_reels',
        'isEligibleForMetaVerifiedLinksInReels',
        'The account may put links in its reels through paid verification.',
      ],
      [
        'is_eligible_for_meta_verified_multiple_addresses_creation',
        'isEligibleForMetaVerifiedMultipleAddressesCreation',
        'The account may add several business addresses through paid verification.',
      ],
      [
        'is_eligible_for_meta_verified_multiple_addresses_consumption',
        'isEligibleForMetaVerifiedMultipleAddressesConsumption',
        "Viewers see this account's several business addresses.",
      ],
      [
        'is_eligible_for_meta_verified_related_accounts',
        'isEligibleForMetaVerifiedRelatedAccounts',
        'The account may list related accounts through paid verification.',
      ],
      [
        'is_meta_verified_related_accounts_display_enabled',
        'isMetaVerifiedRelatedAccountsDisplayEnabled',
        'The profile displays its related accounts (see `verifiedRelatedAccountsCount`).',
      ],
      [
        'is_eligible_for_post_boost_mv_upsell',
        'isEligibleForPostBoostMetaVerifiedUpsell',
        'The account may be offered paid verification when it boosts a post.',
      ],
    ],
  },
  {
    field: 'business',
    type: 'PhotosocialBusinessFlags',
    description: 'Creator, partnership and commerce capabilities of the account.',
    flags: [
      [
        'is_call_to_action_enabled',
        'isCallToActionEnabled',
        'The profile shows a call-to-action button (e.g. book, order).',
      ],
      ['is_category_tappable', 'isCategoryTappable', 'The profile category links to other accounts of that category.'],
      ['is_open_to_collab', 'isOpenToCollab', 'The holder says they are open to collaborations.'],
      ['is_creator_agent_enabled', 'isCreatorAgentEnabled', "An AI agent answers on the creator's behalf."],
      [
        'has_fan_club_subscriptions',
        'hasFanClubSubscriptions',
        'The account sells paid subscriptions (see `fanClub`).',
      ],
      [
        'can_add_fb_group_link_on_profile',
        'canAddFbGroupLinkOnProfile',
        'The holder may link a group of the sibling social network on the profile.',
      ],
      [
        'can_use_affiliate_partnership_messaging_as_brand',
        'canUseAffiliatePartnershipMessagingAsBrand',
        'As a brand, the account may message creators about affiliate partnerships.',
      ],
      [
        'can_use_affiliate_partnership_messaging_as_creator',
        'canUseAffiliatePartnershipMessagingAsCreator',
        'As a creator, the account may receive affiliate partnership messages.',
      ],
      [
        'can_use_branded_content_discovery_as_brand',
        'canUseBrandedContentDiscoveryAsBrand',
        'As a brand, the account may search for creators for branded content.',
      ],
      [
        'can_use_branded_content_discovery_as_creator',
        'canUseBrandedContentDiscoveryAsCreator',
        'As a creator, the account may be found by brands for branded content.',
      ],
      [
        'can_use_paid_partnership_messaging_as_creator',
        'canUsePaidPartnershipMessagingAsCreator',
        'As a creator, the account may receive paid partnership messages.',
      ],
      [
        'is_eligible_for_diverse_owned_business_info',
        'isEligibleForDiverseOwnedBusinessInfo',
        'The business may declare diverse ownership (e.g. women- or minority-owned).',
      ],
      [
        'is_eligible_to_display_diverse_owned_business_info',
        'isEligibleToDisplayDiverseOwnedBusinessInfo',
        'The profile may display a diverse-ownership label.',
      ],
      [
        'show_post_insights_entry_point',
        'isPostInsightsEntryPointShown',
        'The holder sees an entry point to post insights (statistics).',
      ],
      ['show_shoppable_feed', 'isShoppableFeedShown', 'The profile shows a shop tab with shoppable posts.'],
      [
        'is_recon_ad_cta_on_profile_eligible_with_viewer',
        'isReconAdCtaOnProfileEligibleWithViewer',
        'The viewer may see an ad call-to-action on this profile (see `reconFeatures`).',
      ],
      [
        'nonpro_can_maybe_see_profile_hypercard',
        'canNonproMaybeSeeProfileHypercard',
        "A non-professional viewer may see the profile's hover card.",
      ],
    ],
  },
  {
    field: 'messaging',
    type: 'PhotosocialMessagingFlags',
    description: 'Direct messages, calls and broadcast settings of the account.',
    flags: [
      [
        'is_direct_roll_call_enabled',
        'isDirectRollCallEnabled',
        "Roll-call prompts are enabled in the holder's direct messages.",
      ],
      [
        'is_eligible_for_request_message',
        'isEligibleForRequestMessage',
        'The viewer may send this account a message request.',
      ],
      ['remove_message_entrypoint', 'isMessageEntrypointRemoved', 'The profile hides its "Message" button.'],
      [
        'include_direct_blacklist_status',
        'isDirectBlacklistStatusIncluded',
        'The response includes whether the viewer is blocked from messaging this account.',
      ],
      [
        'is_profile_audio_call_enabled',
        'isProfileAudioCallEnabled',
        'Viewers may start an audio call from the profile.',
      ],
      [
        'is_profile_broadcast_sharing_enabled',
        'isProfileBroadcastSharingEnabled',
        "The holder's broadcast channels may be shared from the profile.",
      ],
      ['is_whatsapp_linked', 'isWhatsappLinked', 'A messaging-app account is linked for contacting the holder.'],
    ],
  },
  {
    field: 'content',
    type: 'PhotosocialContentFlags',
    description: 'What the profile has to show and how its content may be reused.',
    flags: [
      ['has_videos', 'hasVideos', 'The account has posted videos.'],
      ['has_highlight_reels', 'hasHighlightReels', 'The profile has story highlights.'],
      ['has_guides', 'hasGuides', 'The profile has guides.'],
      ['has_igtv_series', 'hasIgtvSeries', 'The profile has long-form video series.'],
      ['has_music_on_profile', 'hasMusicOnProfile', 'The profile plays a song.'],
      ['has_collab_collections', 'hasCollabCollections', 'The account has collaborative saved collections.'],
      ['has_private_collections', 'hasPrivateCollections', 'The account has private saved collections.'],
      ['has_exclusive_feed_content', 'hasExclusiveFeedContent', 'The account has subscriber-only posts.'],
      ['has_public_tab_threads', 'hasPublicTabThreads', 'The profile shows a public tab of text-app threads.'],
      [
        'has_views_fetching',
        'hasViewsFetching',
        'View counts are fetched for the profile grid (see `viewsOnGridStatus`).',
      ],
      ['has_chaining', 'hasChaining', 'The profile offers suggested similar accounts.'],
      ['has_chains', 'hasChains', "The account appears in other profiles' suggested accounts."],
      ['auto_expand_chaining', 'isChainingAutoExpanded', 'Suggested accounts open expanded on the profile.'],
      ['has_ever_selected_topics', 'hasEverSelectedTopics', 'The holder has chosen topics of interest.'],
      [
        'has_gen_ai_personas_for_profile_banner',
        'hasGenAiPersonasForProfileBanner',
        'The profile banner features AI personas made by the holder.',
      ],
      [
        'has_anonymous_profile_picture',
        'hasAnonymousProfilePicture',
        'The profile picture is the default silhouette; use a placeholder rather than `profilePicUrl`.',
      ],
      [
        'is_profile_picture_expansion_enabled',
        'isProfilePictureExpansionEnabled',
        'Tapping the profile picture shows it full size.',
      ],
      [
        'feed_post_reshare_disabled',
        'isFeedPostReshareDisabled',
        "Others may not reshare the account's posts to their stories.",
      ],
      ['highlight_reshare_disabled', 'isHighlightReshareDisabled', "Others may not reshare the account's highlights."],
      [
        'is_remix_setting_enabled_for_posts',
        'isRemixSettingEnabledForPosts',
        "Others may remix the account's photo posts.",
      ],
      ['is_remix_setting_enabled_for_reels', 'isRemixSettingEnabledForReels', "Others may remix the account's reels."],
      ['is_stories_teaser_muted', 'isStoriesTeaserMuted', "The viewer muted this account's story previews."],
      [
        'open_external_url_with_in_app_browser',
        'isExternalUrlOpenedInAppBrowser',
        "The profile's website link opens in the in-app browser rather than the system one.",
      ],
    ],
  },
  {
    field: 'favorites',
    type: 'PhotosocialFavoriteFlags',
    description:
      'How the viewing account the upstream used for the lookup has marked this account; usually all false for an anonymous lookup.',
    flags: [
      ['is_bestie', 'isBestie', "The account is on the viewer's close-friends list."],
      ['is_favorite', 'isFavorite', 'The viewer marked the account as a favourite.'],
      ['is_favorite_for_stories', 'isFavoriteForStories', "The viewer gets this account's stories first."],
      ['is_favorite_for_highlights', 'isFavoriteForHighlights', "The viewer gets this account's highlights first."],
      ['is_favorite_for_clips', 'isFavoriteForClips', "The viewer gets this account's reels first."],
      ['is_favorite_for_igtv', 'isFavoriteForIgtv', "The viewer gets this account's long-form videos first."],
    ],
  },
];

/** The first of `keys` the upstream sent, read as a boolean. */
export function flag(raw: Raw, keys: string | readonly string[]): boolean | null {
  if (typeof keys === 'string') return raw[keys] === undefined ? null : bool(raw[keys]);
  for (const key of keys) {
    if (raw[key] !== undefined) return bool(raw[key]);
  }
  return null;
}

const groupTypes = FLAG_GROUPS.map((group) => ({
  group,
  ref: builder.objectRef<Raw>(group.type).implement({
    description: `${group.description} Booleans of the photo-social profile; each is null when the upstream omits it.`,
    fields: (t) =>
      Object.fromEntries(
        group.flags.map(([keys, field, description]) => [
          field,
          t.boolean({
            description: `${description} Upstream ${(typeof keys === 'string' ? [keys] : keys).map((k) => `\`${k}\``).join(' or ')}.`,
            resolve: (raw) => flag(raw, keys),
          }),
        ]),
      ),
  }),
}));

export const PhotosocialProfileFlags = builder.objectRef<Raw>('PhotosocialProfileFlags').implement({
  description:
    'Every boolean flag of a photo-social profile, grouped by theme. The most used ones are also on the profile itself (`isVerified`, `isPrivate`, `isBusiness`).',
  fields: (t) =>
    Object.fromEntries(
      groupTypes.map(({ group, ref }) => [
        group.field,
        t.field({ type: ref, nullable: false, description: group.description, resolve: (raw) => raw }),
      ]),
    ),
});
