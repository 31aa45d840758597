import type { SandboxAnswer } from '../answer.js';
import { encodePng } from '../data/png.js';
import { SandboxInputError } from '../input-error.js';
import { seededAmount, seededInt } from '../data/seeded.js';

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
function searchNews(query: string, dateRange: string): Record<string, unknown> {
  const range = RANGES[dateRange];
  if (!range) throw new SandboxInputError('date_range must be one of 24h, 7d, 30d.');
  const slug =
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'news';
  const page = (start: number) => `https://www.search.example/search?q=${encodeURIComponent(query)}&tbm=nws&tbs=qdr:${range.qdr}&start=${start}`;

  // Which outlet leads, how many results and how long the search took depend on the query.
  const first = seededInt(`news:${query}:source`, 0, SOURCES.length - 1);
  return {
    organic_results: HEADLINES.map((headline, index) => {
      const source = SOURCES[(first + index) % SOURCES.length]!;
      const [title, snippet] = headline(query);
      return {
        date: range.dates[index],
        favicon: FAVICONS[(first + index) % SOURCES.length],
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
      time_taken_displayed: seededAmount(`news:${query}:time`, 0.21, 0.74),
      total_results: Math.round((range.totalResults * seededAmount(`news:${query}:total`, 0.05, 1.5)) / 10_000) * 10_000,
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

/** A size×size RGB PNG, a colour gradient with seeded grain, stored uncompressed (so the sizes are realistic), as a data URI. */
function pngDataUri(size: number, seed: number): string {
  let state = seed >>> 0;
  const grain = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state >>> 27; // 0..31
  };
  const png = encodePng(size, size, (x, y) => [seed * 37 + x * 6 + grain(), seed * 91 + y * 6 + grain(), seed * 53 + (x + y) * 3 + grain()], 0);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** One 32×32 favicon per source (about 4.2 KB each as a data URI). */
const FAVICONS = SOURCES.map((_, index) => pngDataUri(32, index + 1));
/** One 36×36 thumbnail per result (about 5.3 KB each as a data URI). */
const THUMBNAILS = HEADLINES.map((_, index) => pngDataUri(36, 100 + index));

/** How the sandbox answers the action. */
export const sandbox: SandboxAnswer = {
  required: ['query', 'date_range'],
  respond: (b) => ({ response: searchNews(String(b.query), String(b.date_range)) }),
};
