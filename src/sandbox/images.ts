import { encodePng } from './png.js';
import { sampleHex } from './identity.js';
import { seededInt } from './seeded.js';

/**
 * The sandbox's own images: every image URL a sample answers points at `/images/<kind>/<name>.png`
 * on the sandbox itself, a small PNG generated from the name (the same name, the same picture), so
 * a page showing sandbox data never asks a host that does not exist.
 */
export const IMAGE_SIZES = {
  logo: [64, 64],
  avatar: [96, 96],
  photo: [160, 160],
  thumbnail: [160, 90],
  banner: [320, 80],
} as const satisfies Record<string, readonly [number, number]>;

export type ImageKind = keyof typeof IMAGE_SIZES;

/** What a sample needs from the sandbox answering it. */
export interface SampleImages {
  /** The absolute URL of the sandbox's image of `kind` for `seed`. */
  url(kind: ImageKind, seed: string): string;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,79}$/;

/** The file name of a seed: the seed itself when it is a short lower-case slug, a digest of it otherwise. */
function nameOf(seed: string): string {
  const slug = seed.toLowerCase();
  return NAME.test(slug) ? slug : sampleHex(seed, 24);
}

/** Image URLs on the sandbox at `origin` (e.g. "http://127.0.0.1:41234"). */
export function sampleImages(origin: string): SampleImages {
  return { url: (kind, seed) => `${origin}/images/${kind}/${nameOf(seed)}.png` };
}

/**
 * Image URLs for samples used outside a running sandbox (a test upstream replaying them): the
 * reserved `.localhost` name, never a public host.
 */
export const DETACHED_IMAGES: SampleImages = sampleImages('http://sandbox.localhost');

const PATH = /^\/images\/([a-z]+)\/([a-z0-9][a-z0-9._-]{0,79})\.png$/;

/** The PNG for a request path, or null when the path names no image. */
export function imageAt(path: string): Buffer | null {
  const match = PATH.exec(path);
  const kind = match?.[1];
  if (!match || !kind || !Object.hasOwn(IMAGE_SIZES, kind)) return null;
  const [width, height] = IMAGE_SIZES[kind as ImageKind];
  const seed = `${kind}/${match[2]}`;
  const hue = seededInt(`${seed}:hue`, 0, 359);
  const from = rgb(hue, 0.55, 0.55);
  const to = rgb((hue + 40) % 360, 0.6, 0.35);
  return encodePng(width, height, (x, y) => {
    const t = (x / width + y / height) / 2;
    return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t];
  });
}

/** HSL (hue in degrees, saturation and lightness 0..1) to [r, g, b] 0..255. */
function rgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const k = (n: number) => (n + hue / 30) % 12;
  const a = saturation * Math.min(lightness, 1 - lightness);
  const f = (n: number) => Math.round(255 * (lightness - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return [f(0), f(8), f(4)];
}
