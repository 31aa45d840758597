import { builder } from '../../schema/builder.js';
import { bool, int, list, obj, objects, type Raw, str, url } from '../../schema/read.js';
import { colourHex } from './nested.js';

const PhotosocialThemeColor = builder.objectRef<Raw>('PhotosocialThemeColor').implement({
  description: "A colour the profile's name tag can use.",
  fields: (t) => ({
    displayLabel: t.string({
      description: 'Name of the colour as shown to users, e.g. "Purple".',
      resolve: (c) => str(c.display_label),
    }),
    intValue: t.int({
      description: 'The colour as a 24-bit RGB integer; -1 means the default colour scheme (upstream `int_value`).',
      resolve: (c) => int(c.int_value),
    }),
    hex: t.string({
      description: 'The colour as CSS hex, e.g. "#7638fa"; null for the default (-1).',
      resolve: (c) => colourHex(c.int_value),
    }),
  }),
});

const PhotosocialNametagThemeColors = builder.objectRef<Raw>('PhotosocialNametagThemeColors').implement({
  description: "The name tag's colour choices with their labels (upstream `nametag.theme_color`).",
  fields: (t) => ({
    availableThemeColors: t.field({
      type: [PhotosocialThemeColor],
      nullable: false,
      description: 'Colours the holder can choose from.',
      resolve: (c) => objects(c.available_theme_colors),
    }),
    selectedThemeColor: t.field({
      type: PhotosocialThemeColor,
      description: 'The colour in use.',
      resolve: (c) => obj(c.selected_theme_color),
    }),
  }),
});

export const PhotosocialNametag = builder.objectRef<Raw>('PhotosocialNametag').implement({
  description: "The profile's scannable name tag and how it is styled.",
  fields: (t) => ({
    mode: t.int({
      description: 'Style of the name tag as the platform codes it (e.g. 0 colour, 1 emoji, 2 selfie).',
      resolve: (n) => int(n.mode),
    }),
    emoji: t.string({ description: 'Emoji pattern of the name tag.', resolve: (n) => str(n.emoji) }),
    emojiColor: t.int({ description: 'Colour code of the emoji pattern.', resolve: (n) => int(n.emoji_color) }),
    gradient: t.int({ description: 'Background gradient code.', resolve: (n) => int(n.gradient) }),
    selectedThemeColor: t.int({
      description: 'The colour in use as a 24-bit RGB integer; -1 is the default. Labelled in `themeColor`.',
      resolve: (n) => int(n.selected_theme_color),
    }),
    availableThemeColors: t.intList({
      nullable: false,
      description:
        'Colours the holder can choose from, as 24-bit RGB integers (-1 is the default). Labelled in `themeColor`.',
      resolve: (n) =>
        list(n.available_theme_colors)
          .map(int)
          .filter((c): c is number => c !== null),
    }),
    themeColor: t.field({
      type: PhotosocialNametagThemeColors,
      description: 'The same colours with their display labels and hex values.',
      resolve: (n) => obj(n.theme_color),
    }),
    backgroundImageUrl: t.field({
      type: 'URL',
      description: 'Background image; null when none.',
      resolve: (n) => url(n.background_image_url),
    }),
    isBackgroundImageBlurred: t.boolean({
      description: 'The background image is shown blurred.',
      resolve: (n) => bool(n.is_background_image_blurred),
    }),
    selfieUrl: t.field({
      type: 'URL',
      description: 'Selfie used by the selfie style; null when none.',
      resolve: (n) => url(n.selfie_url),
    }),
    selfieSticker: t.int({ description: 'Sticker code of the selfie style.', resolve: (n) => int(n.selfie_sticker) }),
  }),
});
