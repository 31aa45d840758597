import { describe, expect, it } from 'vitest';
import { DocumentCache } from '../src/document-cache.js';

describe('the parsed-document cache', () => {
  const long = (fill: string) => `{ photosocialProfile(username: "x") { ${fill.repeat(40)} } }`;

  it('finds a text only by the whole text, including texts of one length and sample that differ elsewhere', () => {
    const cache = new DocumentCache<string>(10);
    const a = long('username ');
    // Same length and the same characters at the sampled places: one character changed next to the first sample.
    const b = `${a.slice(0, 2)}X${a.slice(3)}`;
    expect(b).toHaveLength(a.length);
    cache.set(a, 'A');
    expect(cache.get(b)).toBeUndefined();
    cache.set(b, 'B');
    expect(cache.get(a)).toBe('A');
    expect(cache.get(b)).toBe('B');
    expect(cache.get(`${a} `)).toBeUndefined();
    expect(cache.get('{ a }')).toBeUndefined();
    cache.set('{ a }', 'short');
    expect(cache.get('{ a }')).toBe('short');
  });

  it('keeps at most four texts per sample, the latest, and at most `max` samples', () => {
    const cache = new DocumentCache<number>(2);
    const base = long('fullName ');
    const variants = Array.from({ length: 6 }, (_, i) => `${base.slice(0, 2)}${i}${base.slice(3)}`);
    for (const [i, text] of variants.entries()) cache.set(text, i);
    expect(variants.map((text) => cache.get(text))).toEqual([undefined, undefined, 2, 3, 4, 5]);
    cache.set(long('biography '), 7);
    cache.set(long('isVerified '), 8);
    expect(cache.get(variants[5]!)).toBeUndefined(); // its sample was the least recently used of three
    expect(cache.get(long('isVerified '))).toBe(8);
  });
});
