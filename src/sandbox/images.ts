import { IMAGE_SIZES, type ImageKind } from './data/images.js';
import { encodePng } from './data/png.js';
import { seededInt } from './data/seeded.js';

/**
 * The images the samples' URLs name (src/actions/sample-images.ts): a small PNG per kind and name,
 * a two-colour gradient whose hue comes from the name, so the same name is the same picture.
 */
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
