import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../support/fixtures.js';
import { sampleDigits } from '../../src/sandbox/data/identity.js';

const AVA_ID = sampleDigits('photosocial:ava.lindqvist', 8);
import { FLAG_GROUPS } from '../../src/actions/photosocial-profile/flags.js';
import { photosocialProfile } from '../../src/sandbox/samples/photosocial-profile.js';
import { json, startFaultUpstream, upstreamEnv, type FaultUpstream } from '../support/fault-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { answered, answersWithCalls, itRejectsBeforeUpstream, smallerThanRest } from '../support/assertions.js';

const ACTION = 'get_photosocial_profile';

const FLAGS = `flags {
  account { isBusiness isPotentialBusiness isInterestAccount isParentingAccount isMemorialized isNewToPhotosocial isSecondaryAccountCreation
    hasPhotosocialProfile isActiveOnTextPostApp isInCanada isOregonCustomGenderConsented isExistingUserAgeCollectionEnabled
    isSupervisionFeaturesEnabled isAddSchoolInEditProfileEnabled isOpalEnabled }
  privacy { isPrivate isAutoConfirmEnabledForAllReciprocalFollowRequests canHideCategory canHidePublicContacts isSpamFollowerSettingEnabled
    isRegulatedC18 isRegulatedNewsInViewerLocation isAccountTransparencyDetailsShown isTransparencyProductEnabled }
  verification { isVerified isBlueBadgeShownOnMainProfile hasNmeBadge isLegacyVerifiedMaxProfilePicEditReached hasLegacyBbPendingProfilePictureUpdate
    hasMv4bPendingProfilePictureUpdate isMv4bApplicationMaturedForProfileEdit isMv4bBizAssetProfileLocked isMv4bMaxProfileEditReached
    isEligibleForMetaVerifiedLabel isEligibleForMetaVerifiedEnhancedLinkSheet isEligibleForMetaVerifiedEnhancedLinkSheetConsumption
    isEligibleForMetaVerifiedLinksInReels isEligibleForMetaVerifiedMultipleAddressesCreation isEligibleForMetaVerifiedMultipleAddressesConsumption
    isEligibleForMetaVerifiedRelatedAccounts isMetaVerifiedRelatedAccountsDisplayEnabled isEligibleForPostBoostMetaVerifiedUpsell }
  business { isCallToActionEnabled isCategoryTappable isOpenToCollab isCreatorAgentEnabled hasFanClubSubscriptions canAddFbGroupLinkOnProfile
    canUseAffiliatePartnershipMessagingAsBrand canUseAffiliatePartnershipMessagingAsCreator canUseBrandedContentDiscoveryAsBrand
    canUseBrandedContentDiscoveryAsCreator canUsePaidPartnershipMessagingAsCreator isEligibleForDiverseOwnedBusinessInfo
    isEligibleToDisplayDiverseOwnedBusinessInfo isPostInsightsEntryPointShown isShoppableFeedShown isReconAdCtaOnProfileEligibleWithViewer
    canNonproMaybeSeeProfileHypercard }
  messaging { isDirectRollCallEnabled isEligibleForRequestMessage isMessageEntrypointRemoved isDirectBlacklistStatusIncluded
    isProfileAudioCallEnabled isProfileBroadcastSharingEnabled isWhatsappLinked }
  content { hasVideos hasHighlightReels hasGuides hasIgtvSeries hasMusicOnProfile hasCollabCollections hasPrivateCollections hasExclusiveFeedContent
    hasPublicTabThreads hasViewsFetching hasChaining hasChains isChainingAutoExpanded hasEverSelectedTopics hasGenAiPersonasForProfileBanner
    hasAnonymousProfilePicture isProfilePictureExpansionEnabled isFeedPostReshareDisabled isHighlightReshareDisabled
    isRemixSettingEnabledForPosts isRemixSettingEnabledForReels isStoriesTeaserMuted isExternalUrlOpenedInAppBrowser }
  favorites { isBestie isFavorite isFavoriteForStories isFavoriteForHighlights isFavoriteForClips isFavoriteForIgtv }
}`;

const IMAGE = 'url width height';
const THEME_COLOR = 'displayLabel intValue hex';
const EVERY_FIELD = `
  username accountId pk fbidV2 interopMessagingUserFbid fullName biography biographyWithEntities { rawText entities } biographyEmail pronouns about
  isVerified isPrivate isBusiness ${FLAGS}
  followerCount followingCount mediaCount totalIgtvVideos totalArEffects textPostNewPostCount verifiedRelatedAccountsCount
  latestReelMedia latestReelMediaAt latestBestiesReelMedia latestBestiesReelMediaAt
  category categoryId accountCategory accountType professionalConversionSuggestedAccountType profileType followFrictionType
  primaryProfileLinkType thirdPartyDownloadsSetting pageId pageName adsPageId adsPageName adsIncentiveExpirationDate currentCatalogId
  externalUrl externalLynxUrl
  bioLinks { linkId title url lynxUrl iconUrl imageUrl linkType mediaType isPinned isVerified isOpenedInAppBrowser }
  profilePicUrl profilePicUrlHd profilePicId hdProfilePicUrlInfo { ${IMAGE} } hdProfilePicVersions { ${IMAGE} } profilePicGenaiToolInfo
  threadsProfileGlyphUrl textPostAppBadgeLabel textAppLastVisitedTime
  publicEmail publicPhoneCountryCode publicPhoneNumber contactPhoneNumber businessContactMethod directMessaging
  locationData { hasLocation addressStreet cityName cityId zip locationId latitude longitude } additionalBusinessAddresses
  profileContext profileContextLinks { username start end }
  profileContextFacepileUsers { id username fullName profilePicId profilePicUrl isPrivate isVerified } profileContextMutualFollowIds
  nametag { mode emoji emojiColor gradient selectedThemeColor availableThemeColors
    themeColor { availableThemeColors { ${THEME_COLOR} } selectedThemeColor { ${THEME_COLOR} } }
    backgroundImageUrl isBackgroundImageBlurred selfieUrl selfieSticker }
  fanClub { fanClubId fanClubName subscriberCount connectedMemberCount largestPublicBcId isAutosaveToExclusiveHighlightEnabled hasCreatedSsc
    hasEnoughSubscribersForSsc isFanClubGiftingEligible isFanClubReferralEligible isFreeTrialEligible fanConsiderationPageRevampEligibility }
  activeStandaloneFundraisers { totalCount fundraisers } avatarStatus { hasAvatar }
  broadcastChatPreferenceStatus { jsonResponse parsedResponse } creatorShoppingInfo { linkedMerchantAccounts }
  metaVerifiedBenefits { isEligibleForContentProtection } notMetaVerifiedFriction { isEligibleForLabelFriction labelFrictionContent }
  pinnedChannels { hasPublicChannels pinnedChannels } reconFeatures { isReconCtaEnabled } recsFromFriends { isEnabled entryPointType }
  birthdayTodayVisibilityForViewer highlightsTrayType liveSubscriptionStatus merchantCheckoutStyle sellerShoppableFeedType
  profileReelsSortingEligibility viewsOnGridStatus isSchoolsBadgeShown
  accountBadges adjustedBannersOrder chainingUpsellCards relevantNewsRegulationLocations upcomingEvents`;

const SIG =
  '_nc_ht=scontent.cdn.photosocial.example&_nc_cat=1&_nc_ohc=hQCGPLcccToQ7kNvgE40yj1&_nc_gid=638a927549d341858014179930ccce04&edm=AO4kU9EBAAAA&ccb=7-5&oe=67B1B8DF&_nc_sid=164c1d';
const LYNX_TAIL =
  '%3Ffbclid%3DPAZXh0bgNhZW0CMTEAAabw-h_L5suFAr1hiBsgDl2LFupiJnBnoDtatI5yTU6T1GdDyOcOuu9XiBE_aem_d69Mu7ZzZTJ9ouOOJ_dWlQ&e=AT3wf1TQkZVOLRSp-2bAxic1A7Y682Kvw_F2UqD7VXuMMFrg_FFytEMqHgZPjVu6KvfTtXa6RT2t9bDXXQN-QjMSX-19DL-RdoubM8o';
const BIO = 'Athlete and storyteller 📷 New zine "Northern Light" out now. Studio: @studio.partner';

const EXPECTED_FLAGS = {
  account: {
    isBusiness: false,
    isPotentialBusiness: true,
    isInterestAccount: true,
    isParentingAccount: false,
    isMemorialized: false,
    isNewToPhotosocial: false,
    isSecondaryAccountCreation: false,
    hasPhotosocialProfile: true,
    isActiveOnTextPostApp: true,
    isInCanada: false,
    isOregonCustomGenderConsented: false,
    isExistingUserAgeCollectionEnabled: true,
    isSupervisionFeaturesEnabled: false,
    isAddSchoolInEditProfileEnabled: false,
    isOpalEnabled: false,
  },
  privacy: {
    isPrivate: false,
    isAutoConfirmEnabledForAllReciprocalFollowRequests: false,
    canHideCategory: true,
    canHidePublicContacts: true,
    isSpamFollowerSettingEnabled: true,
    isRegulatedC18: false,
    isRegulatedNewsInViewerLocation: false,
    isAccountTransparencyDetailsShown: true,
    isTransparencyProductEnabled: false,
  },
  verification: {
    isVerified: true,
    isBlueBadgeShownOnMainProfile: true,
    hasNmeBadge: false,
    isLegacyVerifiedMaxProfilePicEditReached: false,
    hasLegacyBbPendingProfilePictureUpdate: false,
    hasMv4bPendingProfilePictureUpdate: false,
    isMv4bApplicationMaturedForProfileEdit: true,
    isMv4bBizAssetProfileLocked: false,
    isMv4bMaxProfileEditReached: false,
    isEligibleForMetaVerifiedLabel: true,
    isEligibleForMetaVerifiedEnhancedLinkSheet: true,
    isEligibleForMetaVerifiedEnhancedLinkSheetConsumption: false,
    isEligibleForMetaVerifiedLinksInReels: false,
    isEligibleForMetaVerifiedMultipleAddressesCreation: true,
    isEligibleForMetaVerifiedMultipleAddressesConsumption: false,
    isEligibleForMetaVerifiedRelatedAccounts: true,
    isMetaVerifiedRelatedAccountsDisplayEnabled: true,
    isEligibleForPostBoostMetaVerifiedUpsell: false,
  },
  business: {
    isCallToActionEnabled: false,
    isCategoryTappable: true,
    isOpenToCollab: true,
    isCreatorAgentEnabled: false,
    hasFanClubSubscriptions: true,
    canAddFbGroupLinkOnProfile: false,
    canUseAffiliatePartnershipMessagingAsBrand: false,
    canUseAffiliatePartnershipMessagingAsCreator: true,
    canUseBrandedContentDiscoveryAsBrand: false,
    canUseBrandedContentDiscoveryAsCreator: true,
    canUsePaidPartnershipMessagingAsCreator: true,
    isEligibleForDiverseOwnedBusinessInfo: false,
    isEligibleToDisplayDiverseOwnedBusinessInfo: false,
    isPostInsightsEntryPointShown: true,
    isShoppableFeedShown: false,
    isReconAdCtaOnProfileEligibleWithViewer: true,
    canNonproMaybeSeeProfileHypercard: false,
  },
  messaging: {
    isDirectRollCallEnabled: true,
    isEligibleForRequestMessage: false,
    isMessageEntrypointRemoved: false,
    isDirectBlacklistStatusIncluded: true,
    isProfileAudioCallEnabled: false,
    isProfileBroadcastSharingEnabled: true,
    isWhatsappLinked: false,
  },
  content: {
    hasVideos: true,
    hasHighlightReels: true,
    hasGuides: true,
    hasIgtvSeries: false,
    hasMusicOnProfile: true,
    hasCollabCollections: false,
    hasPrivateCollections: true,
    hasExclusiveFeedContent: true,
    hasPublicTabThreads: true,
    hasViewsFetching: true,
    hasChaining: true,
    hasChains: false,
    isChainingAutoExpanded: false,
    hasEverSelectedTopics: false,
    hasGenAiPersonasForProfileBanner: false,
    hasAnonymousProfilePicture: false,
    isProfilePictureExpansionEnabled: true,
    isFeedPostReshareDisabled: false,
    isHighlightReshareDisabled: false,
    isRemixSettingEnabledForPosts: true,
    isRemixSettingEnabledForReels: true,
    isStoriesTeaserMuted: false,
    isExternalUrlOpenedInAppBrowser: true,
  },
  favorites: {
    isBestie: false,
    isFavorite: false,
    isFavoriteForStories: true,
    isFavoriteForHighlights: true,
    isFavoriteForClips: false,
    isFavoriteForIgtv: false,
  },
};

/** Every field of the sandbox's profile of ava.lindqvist; its pictures are served by the sandbox at `origin`. */
const expectedProfile = (origin: string) => {
  const PIC = `${origin}/images/photo/photosocial-ava.lindqvist.png`;
  return {
    username: 'ava.lindqvist',
    accountId: AVA_ID,
    pk: AVA_ID,
    fbidV2: sampleDigits('photosocial-fbid:ava.lindqvist', 17),
    interopMessagingUserFbid: '466253386868778',
    fullName: 'Ava Lindqvist',
    biography: BIO,
    biographyWithEntities: { rawText: BIO, entities: [{ user: { id: '50722961', username: 'studio.partner' } }] },
    biographyEmail: null,
    pronouns: [],
    about: null,
    isVerified: true,
    isPrivate: false,
    isBusiness: false,
    flags: EXPECTED_FLAGS,
    followerCount: 80044771,
    followingCount: 196,
    mediaCount: 288,
    totalIgtvVideos: 25,
    totalArEffects: 0,
    textPostNewPostCount: 5,
    verifiedRelatedAccountsCount: 2,
    latestReelMedia: 1794837924,
    latestReelMediaAt: '2026-11-16T14:05:24.000Z',
    latestBestiesReelMedia: 0,
    latestBestiesReelMediaAt: null,
    category: 'Athlete',
    categoryId: '1335670856447673',
    accountCategory: '',
    accountType: 3,
    professionalConversionSuggestedAccountType: 3,
    profileType: 0,
    followFrictionType: 0,
    primaryProfileLinkType: 0,
    thirdPartyDownloadsSetting: 1,
    pageId: '51480146356',
    pageName: 'Ava Lindqvist Athlete',
    adsPageId: null,
    adsPageName: null,
    adsIncentiveExpirationDate: null,
    currentCatalogId: null,
    externalUrl: 'https://links.example/ava.lindqvist',
    externalLynxUrl: `https://l.photosocial.example/?u=https%3A%2F%2Flinks.example%2Fava.lindqvist${LYNX_TAIL}`,
    bioLinks: [
      {
        linkId: '17899966490651260',
        title: '',
        url: 'https://links.example/ava.lindqvist',
        lynxUrl: `https://l.photosocial.example/?u=https%3A%2F%2Flinks.example%2Fava.lindqvist${LYNX_TAIL}`,
        iconUrl: null,
        imageUrl: null,
        linkType: 'external',
        mediaType: 'none',
        isPinned: true,
        isVerified: false,
        isOpenedInAppBrowser: true,
      },
      {
        linkId: '18001077971004600',
        title: 'Northern Light zine 📖',
        url: 'https://shop.example/northern-light',
        lynxUrl: `https://l.photosocial.example/?u=https%3A%2F%2Fshop.example%2Fnorthern-light${LYNX_TAIL}`,
        iconUrl: `${origin}/images/logo/photosocial-link-shop.png`,
        imageUrl: `${origin}/images/photo/photosocial-zine-northern-light.png`,
        linkType: 'external',
        mediaType: 'image',
        isPinned: false,
        isVerified: true,
        isOpenedInAppBrowser: false,
      },
    ],
    profilePicUrl: `${PIC}?stp=dst-jpg_e0_s150x150_tt6&${SIG}`,
    profilePicUrlHd: `${PIC}?stp=dst-jpg_s640x640_tt6&${SIG}`,
    profilePicId: `3320725335023712969_${AVA_ID}`,
    hdProfilePicUrlInfo: { url: `${PIC}?${SIG}`, width: 1080, height: 1080 },
    hdProfilePicVersions: [
      { url: `${PIC}?stp=dst-jpg_s320x320_tt6&${SIG}`, width: 320, height: 320 },
      { url: `${PIC}?stp=dst-jpg_s640x640_tt6&${SIG}`, width: 640, height: 640 },
    ],
    profilePicGenaiToolInfo: [],
    threadsProfileGlyphUrl:
      'https://www.textapp.example/@ava.lindqvist?modal=true&xmt=AQGzvDqI3TkMt0-x1f_bRCaaVH4QRpRaebh7OxbMs3qp27I',
    textPostAppBadgeLabel: 'ava.lindqvist',
    textAppLastVisitedTime: null,
    publicEmail: 'hello@ava-lindqvist.example',
    publicPhoneCountryCode: '1',
    publicPhoneNumber: '3125558103',
    contactPhoneNumber: '+13125558103',
    businessContactMethod: 'UNKNOWN',
    directMessaging: 'UNKNOWN',
    locationData: {
      hasLocation: true,
      addressStreet: '61 Congress Avenue',
      cityName: 'Chicago, Illinois',
      cityId: '428121187052336',
      zip: '60678',
      locationId: '555321934',
      latitude: 41.88301,
      longitude: -87.6376,
    },
    additionalBusinessAddresses: [],
    profileContext: 'Followed by jonas.ek and mira_holm',
    profileContextLinks: [
      { username: 'jonas.ek', start: 12, end: 20 },
      { username: 'mira_holm', start: 25, end: 34 },
    ],
    profileContextFacepileUsers: [
      {
        id: '50722961',
        username: 'jonas.ek',
        fullName: 'Jonas Ek',
        profilePicId: '3354341036162976480_50722961',
        profilePicUrl: `${origin}/images/avatar/photosocial-jonas.ek.png?stp=dst-jpg_e0_s150x150_tt6&${SIG}`,
        isPrivate: false,
        isVerified: true,
      },
      {
        id: '367315644',
        username: 'mira_holm',
        fullName: 'Mira Holm',
        profilePicId: '2689488593938037730_367315644',
        profilePicUrl: `${origin}/images/avatar/photosocial-mira_holm.png?stp=dst-jpg_e0_s150x150_tt6&${SIG}`,
        isPrivate: true,
        isVerified: false,
      },
    ],
    profileContextMutualFollowIds: ['50722961', '367315644'],
    nametag: {
      mode: 1,
      emoji: '📷',
      emojiColor: 0,
      gradient: 2,
      selectedThemeColor: 7747834,
      availableThemeColors: [-1, 7747834, 13828293, 16712041, 16742912, 0],
      themeColor: {
        availableThemeColors: [
          { displayLabel: 'Default', intValue: -1, hex: null },
          { displayLabel: 'Purple', intValue: 7747834, hex: '#7638fa' },
          { displayLabel: 'Lavender', intValue: 13828293, hex: '#d300c5' },
          { displayLabel: 'Pink', intValue: 16712041, hex: '#ff0169' },
          { displayLabel: 'Orange', intValue: 16742912, hex: '#ff7a00' },
          { displayLabel: 'Black', intValue: 0, hex: '#000000' },
        ],
        selectedThemeColor: { displayLabel: 'Purple', intValue: 7747834, hex: '#7638fa' },
      },
      backgroundImageUrl: `${origin}/images/banner/photosocial-nametag-ava.lindqvist.png`,
      isBackgroundImageBlurred: true,
      selfieUrl: `${origin}/images/avatar/photosocial-selfie-ava.lindqvist.png`,
      selfieSticker: 0,
    },
    fanClub: {
      fanClubId: '17841463258190072',
      fanClubName: 'ava.lindqvist Insiders',
      subscriberCount: 395452,
      connectedMemberCount: 25067,
      largestPublicBcId: '18063421970581234',
      isAutosaveToExclusiveHighlightEnabled: true,
      hasCreatedSsc: true,
      hasEnoughSubscribersForSsc: true,
      isFanClubGiftingEligible: false,
      isFanClubReferralEligible: true,
      isFreeTrialEligible: false,
      fanConsiderationPageRevampEligibility: null,
    },
    activeStandaloneFundraisers: { totalCount: 0, fundraisers: [] },
    avatarStatus: { hasAvatar: false },
    broadcastChatPreferenceStatus: {
      jsonResponse:
        '{"status":"ok","status_code":"200","is_broadcast_chat_creator":true,"notification_setting_type":2}',
      parsedResponse: {
        status: 'ok',
        status_code: '200',
        is_broadcast_chat_creator: true,
        notification_setting_type: 2,
      },
    },
    creatorShoppingInfo: { linkedMerchantAccounts: [] },
    metaVerifiedBenefits: { isEligibleForContentProtection: true },
    notMetaVerifiedFriction: { isEligibleForLabelFriction: false, labelFrictionContent: 'Not Meta Verified' },
    pinnedChannels: { hasPublicChannels: true, pinnedChannels: [] },
    reconFeatures: { isReconCtaEnabled: true },
    recsFromFriends: { isEnabled: false, entryPointType: 'banner' },
    birthdayTodayVisibilityForViewer: 'NOT_VISIBLE',
    highlightsTrayType: 'DEFAULT',
    liveSubscriptionStatus: 'default',
    merchantCheckoutStyle: 'none',
    sellerShoppableFeedType: 'none',
    profileReelsSortingEligibility: 'CHECK_VIEWER_QE',
    viewsOnGridStatus: 'SHOW_VIEWS_ON_GRID',
    isSchoolsBadgeShown: null,
    accountBadges: [],
    adjustedBannersOrder: [],
    chainingUpsellCards: [],
    relevantNewsRegulationLocations: [],
    upcomingEvents: [],
  };
};

describe('photosocialProfile against the sandbox', () => {
  it('resolves every field of a profile', async ({ sandbox: gw }) => {
    const { body } = await answered(gw, `{ photosocialProfile(username: "@Ava.Lindqvist") { ${EVERY_FIELD} } }`);
    expect(body.data!.photosocialProfile).toEqual(expectedProfile(gw.gateway.sandbox!.url));
    expect(body.extensions?.gateway).toMatchObject({ sandbox: true, upstreamCalls: 1 });
  });

  it('makes every top-level boolean of the upstream profile reachable under `flags`', () => {
    // The sample carries every boolean flag of contract 2.2; each must have a row in the flag table,
    // and the flag table must not list a key twice.
    const sample = photosocialProfile('someone');
    const booleans = Object.keys(sample).filter((key) => typeof sample[key] === 'boolean');
    const tableKeys = FLAG_GROUPS.flatMap((group) =>
      group.flags.flatMap(([keys]) => (typeof keys === 'string' ? [keys] : [...keys])),
    );
    expect(booleans.filter((key) => !tableKeys.includes(key))).toEqual([]);
    expect(new Set(tableKeys).size).toBe(tableKeys.length);
    expect(FLAG_GROUPS.reduce((n, group) => n + group.flags.length, 0)).toBe(95);
    expect(
      Object.keys(EXPECTED_FLAGS).map((g) => Object.keys(EXPECTED_FLAGS[g as keyof typeof EXPECTED_FLAGS]).length),
    ).toEqual([15, 9, 18, 17, 7, 23, 6]);
  });

  it('makes one upstream call for one username however it is written', async ({ sandbox: gw }) => {
    await answersWithCalls(
      gw,
      ACTION,
      '{ a: photosocialProfile(username: "NatGeo") { username } b: photosocialProfile(username: " @natgeo ") { followerCount } }',
      { a: { username: 'natgeo' }, b: { followerCount: 134704185 } },
    );
  });

  itRejectsBeforeUpstream('photosocialProfile', 'username', 'username', [
    ['', 'username of 1 to 30'],
    ['@', 'username of 1 to 30'],
    ['   ', 'username of 1 to 30'],
    ['has space', 'username of 1 to 30'],
    ['user-name', 'username of 1 to 30'],
    ['@@double', 'username of 1 to 30'],
    ['émile', 'username of 1 to 30'],
    ['a'.repeat(31), 'username of 1 to 30'],
    ['name/../../etc', 'username of 1 to 30'],
  ]);

  it('accepts 30 characters of letters, digits, "." and "_"', async ({ sandbox: gw }) => {
    const username = `a.b_${'9'.repeat(26)}`;
    const { body } = await gw.query('query($u: String!) { photosocialProfile(username: $u) { username } }', {
      u: `@${username.toUpperCase()}`,
    });
    expect(body.errors).toBeUndefined();
    expect(body.data!.photosocialProfile).toEqual({ username });
  });

  it('answers a five-field query in under a tenth of the bytes of the REST payload', async ({ sandbox: gw }) => {
    await smallerThanRest(gw, {
      action: ACTION,
      body: { username: 'natgeo' },
      query: '{ photosocialProfile(username: "natgeo") { username fullName followerCount isVerified biography } }',
      factor: 10,
    });
  });
});

describe('photosocialProfile against variants the sandbox does not send', () => {
  let up: FaultUpstream;
  let gw: TestGateway;
  let profiles: Record<string, unknown>;
  let envelopes: Record<string, unknown>;
  beforeAll(async () => {
    up = await startFaultUpstream();
    profiles = {};
    envelopes = {};
    up.handle((call, _req, res) => {
      const username = String(call.body.username);
      if (username in envelopes) return json(res, 200, envelopes[username]);
      json(res, 200, { status: 200, response: { response: profiles[username] } });
    });
    gw = await startGateway(upstreamEnv(up));
  });
  afterAll(async () => {
    await gw.close();
    await up.close();
  });

  /** A location as the upstream sends one with no place filled in: zeros and empty strings, but for its id. */
  const blankPlace = (instagram_location_id: string) => ({
    address_street: '',
    city_id: 0,
    city_name: '',
    instagram_location_id,
    latitude: 0,
    longitude: 0,
    zip: '',
  });

  it('reads the brand-named keys: instagram_pk, instagram_location_id, is_new_to_instagram, meta_verified_related_accounts_count', async () => {
    profiles.brandnamed = {
      username: 'brandnamed',
      id: '11830955',
      instagram_pk: '11830955',
      is_new_to_instagram: true,
      meta_verified_related_accounts_count: 4,
      location_data: blankPlace('987654321'),
    };
    const { body } = await gw.query(
      '{ photosocialProfile(username: "BrandNamed") { username pk verifiedRelatedAccountsCount flags { account { isNewToPhotosocial } } locationData { hasLocation locationId cityId cityName latitude } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.photosocialProfile).toEqual({
      username: 'brandnamed',
      pk: '11830955',
      verifiedRelatedAccountsCount: 4,
      flags: { account: { isNewToPhotosocial: true } },
      locationData: { hasLocation: true, locationId: '987654321', cityId: '0', cityName: '', latitude: 0 },
    });
    expect(up.calls.at(-1)).toMatchObject({ action: ACTION, body: { username: 'brandnamed' } });
  });

  it('reads an empty location of zeros and empty strings as no location, and returns its values as sent', async () => {
    profiles.nolocation = {
      username: 'nolocation',
      location_data: blankPlace(''),
    };
    const { body } = await gw.query(
      '{ photosocialProfile(username: "nolocation") { locationData { hasLocation addressStreet cityName cityId zip locationId latitude longitude } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.photosocialProfile.locationData).toEqual({
      hasLocation: false,
      addressStreet: '',
      cityName: '',
      cityId: '0',
      zip: '',
      locationId: '',
      latitude: 0,
      longitude: 0,
    });
  });

  it('keeps invalid json_response text raw and gives null parsed', async () => {
    profiles.badjson = { username: 'badjson', broadcast_chat_preference_status: { json_response: '{"status":"ok",' } };
    const { body } = await gw.query(
      '{ photosocialProfile(username: "badjson") { broadcastChatPreferenceStatus { jsonResponse parsedResponse } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.photosocialProfile.broadcastChatPreferenceStatus).toEqual({
      jsonResponse: '{"status":"ok",',
      parsedResponse: null,
    });
  });

  it('reads wrong-typed values as null and never loses an identifier', async () => {
    profiles.oddtypes = {
      username: 'oddtypes',
      follower_count: '282510661',
      following_count: 2 ** 60,
      page_id: '19614945368',
      category_id: 1335670856447673,
      is_verified: 'true',
      is_private: null,
      latest_reel_media: -5,
      bio_links: [{ link_id: '17899966490651261', url: 'javascript:alert(1)', is_pinned: 1 }, 'not an object'],
      pronouns: ['they/them', 7, null],
      account_badges: [{ badge: 'x' }, null, 3],
      nametag: {
        available_theme_colors: [-1, 'x', 2 ** 40, 16742912],
        theme_color: { available_theme_colors: [{ display_label: 'Too big', int_value: 2 ** 25 }] },
      },
      broadcast_chat_preference_status: { json_response: 42 },
      fan_club_info: { fan_consideration_page_revamp_eligiblity: { is_eligible: true }, subscriber_count: 1.5 },
    };
    const { body } = await gw.query(`{ photosocialProfile(username: "oddtypes") {
      followerCount followingCount pageId categoryId isVerified isPrivate latestReelMediaAt pronouns accountBadges
      bioLinks { linkId url isPinned } nametag { availableThemeColors themeColor { availableThemeColors { intValue hex } } }
      broadcastChatPreferenceStatus { jsonResponse parsedResponse } fanClub { fanConsiderationPageRevampEligibility subscriberCount }
      flags { verification { isVerified } privacy { isPrivate } } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data!.photosocialProfile).toEqual({
      followerCount: null,
      followingCount: null,
      pageId: '19614945368',
      categoryId: '1335670856447673',
      isVerified: null,
      isPrivate: null,
      latestReelMediaAt: null,
      pronouns: ['they/them'],
      accountBadges: [{ badge: 'x' }, 3],
      bioLinks: [{ linkId: '17899966490651261', url: null, isPinned: null }],
      nametag: {
        availableThemeColors: [-1, 16742912],
        themeColor: { availableThemeColors: [{ intValue: 33554432, hex: null }] },
      },
      broadcastChatPreferenceStatus: { jsonResponse: null, parsedResponse: null },
      fanClub: { fanConsiderationPageRevampEligibility: { is_eligible: true }, subscriberCount: null },
      flags: { verification: { isVerified: null }, privacy: { isPrivate: null } },
    });
  });

  it('gives the requested username and empty lists for a profile with almost nothing in it', async () => {
    profiles.sparse = {};
    const { body } = await gw.query(
      '{ photosocialProfile(username: "Sparse") { username accountId pk fullName bioLinks { linkId } pronouns hdProfilePicVersions { url } profileContextMutualFollowIds fanClub { fanClubId } flags { content { hasVideos } } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data!.photosocialProfile).toEqual({
      username: 'sparse',
      accountId: null,
      pk: null,
      fullName: null,
      bioLinks: [],
      pronouns: [],
      hdProfilePicVersions: [],
      profileContextMutualFollowIds: [],
      fanClub: null,
      flags: { content: { hasVideos: null } },
    });
  });

  it('prefers the neutral key when both spellings arrive', async () => {
    profiles.bothkeys = {
      username: 'bothkeys',
      photosocial_pk: '1',
      instagram_pk: '2',
      is_new_to_photosocial: false,
      is_new_to_instagram: true,
    };
    const { body } = await gw.query(
      '{ photosocialProfile(username: "bothkeys") { pk flags { account { isNewToPhotosocial } } } }',
    );
    expect(body.data!.photosocialProfile).toEqual({ pk: '1', flags: { account: { isNewToPhotosocial: false } } });
  });

  it('is NOT_FOUND when the inner response is null', async () => {
    envelopes.nobody = { status: 200, response: { response: null } };
    const { body } = await gw.query('{ photosocialProfile(username: "nobody") { username } }');
    expect(body.data).toEqual({ photosocialProfile: null });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'NOT_FOUND', action: ACTION });
  });

  it.each([
    ['a profile one level up, without the inner response', { status: 200, response: { username: 'flat', id: '1' } }],
    ['an inner response that is not an object', { status: 200, response: { response: 'profile' } }],
    ['an inner response that is an array', { status: 200, response: { response: [] } }],
    ['an outer response that is not an object', { status: 200, response: 'profile' }],
  ])('is UPSTREAM_BAD_RESPONSE for %s', async (_what, envelope) => {
    const username = `shape${Object.keys(envelopes).length}`;
    envelopes[username] = envelope;
    const { body } = await gw.query(`{ photosocialProfile(username: "${username}") { username } }`);
    expect(body.data).toEqual({ photosocialProfile: null });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE', action: ACTION });
  });
});
