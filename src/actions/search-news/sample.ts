import { deflateSync } from 'node:zlib';
import { SandboxInputError } from '../sample-input-error.js';

/** What the live service calls its three windows, and the search engine's matching `tbs=qdr:` code. */
const RANGES: Record<string, { qdr: string; dates: string[]; totalResults: number }> = {
  '24h': {
    qdr: 'd',
    dates: [
      '12 minutes ago',
      '47 minutes ago',
      '1 hour ago',
      '2 hours ago',
      '3 hours ago',
      '5 hours ago',
      '8 hours ago',
      '11 hours ago',
      '16 hours ago',
      '21 hours ago',
    ],
    totalResults: 2_270_000_000,
  },
  '7d': {
    qdr: 'w',
    dates: ['4 hours ago', '19 hours ago', '1 day ago', '2 days ago', '2 days ago', '3 days ago', '4 days ago', '5 days ago', '6 days ago', '6 days ago'],
    totalResults: 3_150_000_000,
  },
  '30d': {
    qdr: 'm',
    dates: ['1 day ago', '3 days ago', '5 days ago', '1 week ago', '1 week ago', '2 weeks ago', '2 weeks ago', '3 weeks ago', '3 weeks ago', '4 weeks ago'],
    totalResults: 4_480_000_000,
  },
};

const SOURCES = [
  { name: 'The Daily Ledger', host: 'www.dailyledger.example' },
  { name: 'Metro Tribune', host: 'metrotribune.example' },
  { name: 'TechWire', host: 'www.techwire.example' },
  { name: 'Global Business Review', host: 'gbr.example' },
  { name: 'Coastal Herald', host: 'www.coastalherald.example' },
];

const HEADLINES: Array<(q: string) => [title: string, snippet: string]> = [
  (q) => [`${q}: what we know so far`, `The latest on ${q}, with reporting from our correspondents and the key facts in one place.`],
  (q) => [`Analysts weigh in on ${q}`, `Market watchers say ${q} could shape the coming quarter as investors look for clearer signals.`],
  (q) => [`Live updates: ${q}`, `Follow the developments around ${q} as they happen, with context and reactions.`],
  (q) => [`Why ${q} matters for small businesses`, `Owners told us how ${q} is changing their plans for hiring, pricing and supply.`],
  (q) => [`${q} explained in five charts`, `A visual guide to ${q}: the numbers behind the headlines and how they have moved.`],
  (q) => [`Regulators respond to ${q}`, `Officials outlined next steps on ${q} on Tuesday, promising guidance within weeks.`],
  (q) => [`Opinion: the real story behind ${q}`, `Beyond the noise, ${q} reveals a deeper shift that few have noticed yet.`],
  (q) => [`Local reaction to ${q}`, `Residents and community leaders shared mixed views on ${q} at a town meeting.`],
  (q) => [`${q}: a timeline of events`, `From the first reports to today, the moments that defined ${q}.`],
  (q) => [`What ${q} means for you`, `A practical guide to how ${q} could affect prices, services and everyday decisions.`],
];

/**
 * get_search_news (contract 2.5): ten news results about `query` within `dateRange` (24h, 7d or
 * 30d; anything else is rejected as the live service does). As live, `date` is relative text,
 * `favicon` and `thumbnail` are base64 PNG data URIs of several kilobytes, and `other_pages` maps
 * page numbers "2" to "10" to URLs.
 */
export function searchNews(query: string, dateRange: string): Record<string, unknown> {
  const range = RANGES[dateRange];
  if (!range) throw new SandboxInputError('date_range must be one of 24h, 7d, 30d.');
  const slug =
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'news';
  const page = (start: number) => `https://www.search.example/search?q=${encodeURIComponent(query)}&tbm=nws&tbs=qdr:${range.qdr}&start=${start}`;

  return {
    organic_results: HEADLINES.map((headline, index) => {
      const source = SOURCES[index % SOURCES.length]!;
      const [title, snippet] = headline(query);
      return {
        date: range.dates[index],
        favicon: FAVICONS[index % SOURCES.length],
        link: `https://${source.host}/2026/11/20/${slug}-${index + 1}`,
        position: index + 1,
        snippet,
        source: source.name,
        thumbnail: THUMBNAILS[index],
        title,
      };
    }),
    pagination: {
      current: 1,
      next: page(10),
      // Written out of numeric order on purpose. (A JS object, and so any JSON parser in JS, lists
      // integer-like keys in ascending order anyway; the gateway sorts the pages by number itself.)
      other_pages: Object.fromEntries(['10', '3', '7', '2', '9', '4', '6', '5', '8'].map((n) => [n, page((Number(n) - 1) * 10)])),
    },
    search_information: {
      detected_location: 'United States',
      query_displayed: query,
      time_taken_displayed: 0.38,
      total_results: range.totalResults,
    },
    search_parameters: {
      device: 'desktop',
      engine: 'search_news',
      gl: 'us',
      hl: 'en',
      location: 'United States',
      location_used: 'United States',
      q: query,
      search_domain: 'www.search.example',
    },
  };
}

// --- Deterministic images: real, decodable PNGs (RGB, stored deflate) so the sizes are realistic. ---

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A size×size RGB PNG: a colour gradient with seeded grain, as a `data:image/png;base64,` URI. */
function pngDataUri(size: number, seed: number): string {
  let state = seed >>> 0;
  const grain = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state >>> 27; // 0..31
  };
  const rows = Buffer.alloc(size * (1 + size * 3));
  let at = 0;
  for (let y = 0; y < size; y += 1) {
    rows[at++] = 0; // filter: none
    for (let x = 0; x < size; x += 1) {
      rows[at++] = (seed * 37 + x * 6 + grain()) & 0xff;
      rows[at++] = (seed * 91 + y * 6 + grain()) & 0xff;
      rows[at++] = (seed * 53 + (x + y) * 3 + grain()) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 0 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** One 32×32 favicon per source (about 4.2 KB each as a data URI). */
const FAVICONS = SOURCES.map((_, index) => pngDataUri(32, index + 1));
/** One 36×36 thumbnail per result (about 5.3 KB each as a data URI). */
const THUMBNAILS = HEADLINES.map((_, index) => pngDataUri(36, 100 + index));
