import { sampleHex } from './identity.js';

/**
 * Where the samples' images live: every image URL a sample answers points at
 * `/images/<kind>/<name>.png` on the sandbox answering it (src/sandbox/images.ts draws them), so a
 * page showing sandbox data never asks a host that does not exist.
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

/** The file names of images: a short lower-case slug. */
const IMAGE_NAME = /^[a-z0-9][a-z0-9._-]{0,79}$/;

/** The file name of a seed: the seed itself when it is a short lower-case slug, a digest of it otherwise. */
function nameOf(seed: string): string {
  const slug = seed.toLowerCase();
  return IMAGE_NAME.test(slug) ? slug : sampleHex(seed, 24);
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
