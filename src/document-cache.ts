import { LRUCache } from 'lru-cache';

/** Texts that share a bucket (same length and sample) at the most; a crafted collision cannot make a long list. */
const BUCKET_SIZE = 4;
const SAMPLES = 24;

/**
 * Yoga's cache of parsed documents (and of parse errors), keyed by the query text. A Map keyed by the
 * text hashes all of it on every request, since every request brings a fresh string: 6 µs for the
 * 5 KB document of a full profile, about as long as the rest of a cached answer's execution. This one
 * finds a text by its length and a sample of its characters, then compares the whole texts, which
 * costs next to nothing.
 */
export class DocumentCache<T> {
  private readonly buckets: LRUCache<string, Array<{ text: string; value: T }>>;

  constructor(max: number) {
    this.buckets = new LRUCache({ max });
  }

  get(text: string): T | undefined {
    const bucket = this.buckets.get(sampleOf(text));
    if (!bucket) return undefined;
    for (const entry of bucket) if (entry.text === text) return entry.value;
    return undefined;
  }

  set(text: string, value: T): void {
    const key = sampleOf(text);
    const bucket = this.buckets.get(key);
    if (!bucket) {
      this.buckets.set(key, [{ text, value }]);
      return;
    }
    const same = bucket.findIndex((entry) => entry.text === text);
    if (same >= 0) bucket.splice(same, 1);
    else if (bucket.length >= BUCKET_SIZE) bucket.shift();
    bucket.push({ text, value });
  }
}

/** The text's length, characters at evenly spread places and its last 16 (short texts: all of it). */
function sampleOf(text: string): string {
  const length = text.length;
  if (length <= 64) return `${length}:${text}`;
  let sample = `${length}:`;
  for (let i = 0; i < SAMPLES; i++) sample += text[Math.floor(((i + 0.5) * length) / SAMPLES)];
  return sample + text.slice(-16);
}
