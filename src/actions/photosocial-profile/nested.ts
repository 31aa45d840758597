import { builder } from '../../schema/builder.js';
import { bool, float, id, int, list, type Raw, safeInt, str, text, url } from '../../schema/read.js';

/** Elements of arrays whose element type the contract does not show, passed through as JSON (nulls dropped). */
export function jsonItems(value: unknown): unknown[] {
  return list(value).filter((item) => item !== null && item !== undefined);
}

/** The first of `keys` the upstream sent (for keys that arrive under the neutral word or the brand). */
export function either(raw: Raw, ...keys: string[]): unknown {
  for (const key of keys) if (raw[key] !== undefined) return raw[key];
  return undefined;
}

/** JSON text parsed; null when it is not a string or not valid JSON. */
function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

/** A 24-bit RGB colour integer as "#rrggbb"; null for -1 ("default") and anything outside 0..0xFFFFFF. */
export function colourHex(value: unknown): string | null {
  const n = int(value);
  return n !== null && n >= 0 && n <= 0xffffff ? `#${n.toString(16).padStart(6, '0')}` : null;
}

export const PhotosocialImage = builder.objectRef<Raw>('PhotosocialImage').implement({
  description: 'One rendition of an image with its pixel size.',
  fields: (t) => ({
    url: t.field({
      type: 'URL',
      description: 'Address of the image (signed CDN URL; it expires).',
      resolve: (i) => url(i.url),
    }),
    width: t.int({ description: 'Width in pixels.', resolve: (i) => int(i.width) }),
    height: t.int({ description: 'Height in pixels.', resolve: (i) => int(i.height) }),
  }),
});

export const PhotosocialBioLink = builder.objectRef<Raw>('PhotosocialBioLink').implement({
  description: "A link shown in the profile's biography area.",
  fields: (t) => ({
    linkId: t.id({
      description:
        'Identifier of the link. The upstream sends it as a JSON number beyond 2^53, already rounded in the JSON text; it is given here exactly as that number reads, as text.',
      resolve: (l) => id(l.link_id),
    }),
    title: t.string({
      description: 'Title the holder gave the link; the empty string when untitled.',
      resolve: (l) => str(l.title),
    }),
    url: t.field({ type: 'URL', description: 'The destination address.', resolve: (l) => url(l.url) }),
    lynxUrl: t.field({
      type: 'URL',
      description: "The destination wrapped in the platform's tracking redirect (upstream `lynx_url`).",
      resolve: (l) => url(l.lynx_url),
    }),
    iconUrl: t.field({
      type: 'URL',
      description: 'Icon shown beside the link; null when none.',
      resolve: (l) => url(l.icon_url),
    }),
    imageUrl: t.field({
      type: 'URL',
      description: 'Preview image of the link; null when none.',
      resolve: (l) => url(l.image_url),
    }),
    linkType: t.string({
      description: 'Kind of link as the upstream names it, e.g. "external".',
      resolve: (l) => str(l.link_type),
    }),
    mediaType: t.string({
      description: 'Kind of preview media as the upstream names it, e.g. "none" or "image".',
      resolve: (l) => str(l.media_type),
    }),
    isPinned: t.boolean({ description: 'The holder pinned the link to the top.', resolve: (l) => bool(l.is_pinned) }),
    isVerified: t.boolean({
      description: "The platform verified the link's destination.",
      resolve: (l) => bool(l.is_verified),
    }),
    isOpenedInAppBrowser: t.boolean({
      description: 'The link opens in the in-app browser (upstream `open_external_url_with_in_app_browser`).',
      resolve: (l) => bool(l.open_external_url_with_in_app_browser),
    }),
  }),
});

export const PhotosocialBiography = builder.objectRef<Raw>('PhotosocialBiography').implement({
  description: 'The biography with the mentions and hashtags found in it (upstream `biography_with_entities`).',
  fields: (t) => ({
    rawText: t.string({ description: 'The biography text.', resolve: (b) => str(b.raw_text) }),
    entities: t.field({
      type: ['JSON'],
      nullable: false,
      description:
        'Mentions and hashtags in the text, as the upstream sends them (e.g. `{"user": {"id", "username"}}`); their shape is not in the contract.',
      resolve: (b) => jsonItems(b.entities),
    }),
  }),
});

export const PhotosocialBroadcastChatPreference = builder
  .objectRef<Raw>('PhotosocialBroadcastChatPreference')
  .implement({
    description: "The account's broadcast-chat preference; the upstream sends it as JSON text.",
    fields: (t) => ({
      jsonResponse: t.string({
        description: 'The JSON text exactly as the upstream sent it (upstream `json_response`).',
        resolve: (b) => str(b.json_response),
      }),
      parsedResponse: t.field({
        type: 'JSON',
        description:
          '`jsonResponse` parsed, e.g. `{"status": "ok", "is_broadcast_chat_creator": true}`; null when it is not valid JSON.',
        resolve: (b) => parseJsonText(b.json_response),
      }),
    }),
  });

export const PhotosocialFundraisers = builder.objectRef<Raw>('PhotosocialFundraisers').implement({
  description: 'Fundraisers the account runs on its own (upstream `active_standalone_fundraisers`).',
  fields: (t) => ({
    totalCount: t.field({
      type: 'SafeInt',
      description: 'Number of active fundraisers.',
      resolve: (f) => safeInt(f.total_count),
    }),
    fundraisers: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'The fundraisers as the upstream sends them; their shape is not in the contract.',
      resolve: (f) => jsonItems(f.fundraisers),
    }),
  }),
});

export const PhotosocialAvatarStatus = builder.objectRef<Raw>('PhotosocialAvatarStatus').implement({
  description: 'Whether the holder made a 3D avatar.',
  fields: (t) => ({
    hasAvatar: t.boolean({ description: 'The holder has an avatar.', resolve: (a) => bool(a.has_avatar) }),
  }),
});

export const PhotosocialCreatorShopping = builder.objectRef<Raw>('PhotosocialCreatorShopping').implement({
  description: 'Shops the creator is linked to (upstream `creator_shopping_info`).',
  fields: (t) => ({
    linkedMerchantAccounts: t.field({
      type: ['JSON'],
      nullable: false,
      description: 'Linked merchant accounts as the upstream sends them; their shape is not in the contract.',
      resolve: (c) => jsonItems(c.linked_merchant_accounts),
    }),
  }),
});

export const PhotosocialFanClub = builder.objectRef<Raw>('PhotosocialFanClub').implement({
  description:
    'The account\'s paid subscription ("fan club"). The upstream sends every field, null for accounts without one; the contract does not give their types, so each reads as null when not of the type shown.',
  fields: (t) => ({
    fanClubId: t.id({ description: 'Identifier of the fan club.', resolve: (f) => id(f.fan_club_id) }),
    fanClubName: t.string({ description: 'Name of the fan club.', resolve: (f) => str(f.fan_club_name) }),
    subscriberCount: t.field({
      type: 'SafeInt',
      description: 'Number of subscribers.',
      resolve: (f) => safeInt(f.subscriber_count),
    }),
    connectedMemberCount: t.field({
      type: 'SafeInt',
      description: "Number of members connected to the fan club's chats.",
      resolve: (f) => safeInt(f.connected_member_count),
    }),
    largestPublicBcId: t.id({
      description: 'Identifier of the largest public broadcast channel of the fan club.',
      resolve: (f) => id(f.largest_public_bc_id),
    }),
    isAutosaveToExclusiveHighlightEnabled: t.boolean({
      description:
        'Subscriber-only stories are saved to an exclusive highlight automatically (upstream `autosave_to_exclusive_highlight`).',
      resolve: (f) => bool(f.autosave_to_exclusive_highlight),
    }),
    hasCreatedSsc: t.boolean({
      description: 'The holder created a subscriber-only social channel (upstream `has_created_ssc`).',
      resolve: (f) => bool(f.has_created_ssc),
    }),
    hasEnoughSubscribersForSsc: t.boolean({
      description: 'There are enough subscribers for a subscriber-only social channel.',
      resolve: (f) => bool(f.has_enough_subscribers_for_ssc),
    }),
    isFanClubGiftingEligible: t.boolean({
      description: 'Subscriptions to this fan club can be given as gifts.',
      resolve: (f) => bool(f.is_fan_club_gifting_eligible),
    }),
    isFanClubReferralEligible: t.boolean({
      description: 'Subscribers can refer others to this fan club.',
      resolve: (f) => bool(f.is_fan_club_referral_eligible),
    }),
    isFreeTrialEligible: t.boolean({
      description: 'A free trial is offered to new subscribers.',
      resolve: (f) => bool(f.is_free_trial_eligible),
    }),
    fanConsiderationPageRevampEligibility: t.field({
      type: 'JSON',
      description:
        'Eligibility for the redesigned subscription page, as the upstream sends it (upstream `fan_consideration_page_revamp_eligiblity`, spelled so); its type is not in the contract.',
      resolve: (f) => f.fan_consideration_page_revamp_eligiblity ?? null,
    }),
  }),
});

export const PhotosocialLocation = builder.objectRef<Raw>('PhotosocialLocation').implement({
  description:
    'The business location shown on the profile (upstream `location_data`). The upstream sends empty strings and zeros when there is none, and they come back as sent: `hasLocation` says whether any part is set.',
  fields: (t) => ({
    hasLocation: t.boolean({
      nullable: false,
      description:
        'True when any part of the location is set (a street, city, zip, location id, or coordinates other than 0,0).',
      resolve: (l) =>
        [l.address_street, l.city_name, l.zip].some((v) => text(v) !== null) ||
        nonZeroId(either(l, 'photosocial_location_id', 'instagram_location_id')) !== null ||
        (float(l.latitude) ?? 0) !== 0 ||
        (float(l.longitude) ?? 0) !== 0,
    }),
    addressStreet: t.string({ description: 'Street address.', resolve: (l) => str(l.address_street) }),
    cityName: t.string({
      description: 'City, as the platform names it (e.g. "San Francisco, California").',
      resolve: (l) => str(l.city_name),
    }),
    cityId: t.id({
      description:
        'The platform\'s identifier of the city, as the upstream sends it: "0" when the location has no city (see `hasLocation`).',
      resolve: (l) => id(l.city_id),
    }),
    zip: t.string({ description: 'Postal code.', resolve: (l) => str(l.zip) }),
    locationId: t.id({
      description:
        "The platform's identifier of the place (upstream `photosocial_location_id` or the brand-named `instagram_location_id`), as sent: the empty string when the location has no place (see `hasLocation`).",
      resolve: (l) => id(either(l, 'photosocial_location_id', 'instagram_location_id')),
    }),
    latitude: t.float({
      description: 'Latitude in degrees, as sent (0 when the upstream has none; see `hasLocation`).',
      resolve: (l) => float(l.latitude),
    }),
    longitude: t.float({
      description: 'Longitude in degrees, as sent (0 when the upstream has none; see `hasLocation`).',
      resolve: (l) => float(l.longitude),
    }),
  }),
});

function nonZeroId(value: unknown): string | null {
  const v = id(value);
  return v === null || v.trim() === '' || v === '0' ? null : v;
}

export const PhotosocialMetaVerifiedBenefits = builder.objectRef<Raw>('PhotosocialMetaVerifiedBenefits').implement({
  description:
    'Benefits of the paid verification subscription open to the account (upstream `meta_verified_benefits_info`).',
  fields: (t) => ({
    isEligibleForContentProtection: t.boolean({
      description:
        'The account may use content protection (upstream `is_eligible_for_meta_verified_content_protection`).',
      resolve: (m) => bool(m.is_eligible_for_meta_verified_content_protection),
    }),
  }),
});

export const PhotosocialNotMetaVerifiedFriction = builder
  .objectRef<Raw>('PhotosocialNotMetaVerifiedFriction')
  .implement({
    description:
      'The label the platform may show on accounts without paid verification (upstream `not_meta_verified_friction_info`).',
    fields: (t) => ({
      isEligibleForLabelFriction: t.boolean({
        description: 'The "not verified" label may be shown on this account.',
        resolve: (n) => bool(n.is_eligible_for_label_friction),
      }),
      labelFrictionContent: t.string({
        description: 'Text of that label, e.g. "Not Meta Verified".',
        resolve: (n) => str(n.label_friction_content),
      }),
    }),
  });

export const PhotosocialPinnedChannels = builder.objectRef<Raw>('PhotosocialPinnedChannels').implement({
  description: 'Broadcast channels pinned to the profile (upstream `pinned_channels_info`).',
  fields: (t) => ({
    hasPublicChannels: t.boolean({
      description: 'The account has public broadcast channels.',
      resolve: (p) => bool(p.has_public_channels),
    }),
    pinnedChannels: t.field({
      type: ['JSON'],
      nullable: false,
      description:
        'The pinned channels as the upstream sends them (upstream `pinned_channels_list`); their shape is not in the contract.',
      resolve: (p) => jsonItems(p.pinned_channels_list),
    }),
  }),
});

export const PhotosocialFacepileUser = builder.objectRef<Raw>('PhotosocialFacepileUser').implement({
  description:
    'An account shown in the "Followed by ..." line of the profile (upstream `profile_context_facepile_users`).',
  fields: (t) => ({
    id: t.id({ description: 'Identifier of the account.', resolve: (u) => id(u.id) }),
    username: t.string({ description: 'Username of the account.', resolve: (u) => str(u.username) }),
    fullName: t.string({ description: 'Display name of the account.', resolve: (u) => str(u.full_name) }),
    profilePicId: t.id({ description: 'Identifier of the profile picture.', resolve: (u) => id(u.profile_pic_id) }),
    profilePicUrl: t.field({
      type: 'URL',
      description: 'Small profile picture (signed CDN URL; it expires).',
      resolve: (u) => url(u.profile_pic_url),
    }),
    isPrivate: t.boolean({ description: 'The account is private.', resolve: (u) => bool(u.is_private) }),
    isVerified: t.boolean({
      description: 'The account carries the verified badge.',
      resolve: (u) => bool(u.is_verified),
    }),
  }),
});

export const PhotosocialProfileContextLink = builder.objectRef<Raw>('PhotosocialProfileContextLink').implement({
  description:
    'A username inside `profileContext` to render as a link (upstream `profile_context_links_with_user_ids`). `start` and `end` are character offsets into `profileContext`, end exclusive.',
  fields: (t) => ({
    username: t.string({ description: 'The username the span links to.', resolve: (l) => str(l.username) }),
    start: t.int({ description: 'Offset of the first character of the span.', resolve: (l) => int(l.start) }),
    end: t.int({ description: 'Offset just after the last character of the span.', resolve: (l) => int(l.end) }),
  }),
});

export const PhotosocialReconFeatures = builder.objectRef<Raw>('PhotosocialReconFeatures').implement({
  description: 'Advertising call-to-action settings of the profile (upstream `recon_features`).',
  fields: (t) => ({
    isReconCtaEnabled: t.boolean({
      description: 'An ad call-to-action may be shown on the profile (upstream `enable_recon_cta`).',
      resolve: (r) => bool(r.enable_recon_cta),
    }),
  }),
});

export const PhotosocialRecsFromFriends = builder.objectRef<Raw>('PhotosocialRecsFromFriends').implement({
  description: 'The "recommendations from friends" feature on the profile (upstream `recs_from_friends`).',
  fields: (t) => ({
    isEnabled: t.boolean({
      description: 'The feature is on (upstream `enable_recs_from_friends`).',
      resolve: (r) => bool(r.enable_recs_from_friends),
    }),
    entryPointType: t.string({
      description: 'Where the feature is offered, e.g. "banner" (upstream `recs_from_friends_entry_point_type`).',
      resolve: (r) => str(r.recs_from_friends_entry_point_type),
    }),
  }),
});
